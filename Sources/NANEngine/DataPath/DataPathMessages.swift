public import NANWire

/// What we say about ourselves in every data-path NAF: addresses, capabilities and schedule.
public struct DataPathLocalDevice: Hashable, Sendable {
    /// Our NAN management interface address.
    public var nmi: MACAddress
    /// Our committed schedule.
    public var schedule: DataPathSchedule
    /// Our Device Capability attribute.
    public var deviceCapability: DeviceCapabilityAttribute
    /// Our HT (and VHT) capability elements, sent in an Element Container so the peer can add our station.
    public var capabilityElements: [InformationElement]
    /// The NDC ID we propose.
    public var ndcID: MACAddress
    /// The channels our radio may put in a schedule: a peer's counter-proposal is taken on these only.
    public var usableChannels: [DataPathChannel]
    /// Whether we move our schedule onto a peer's when ours shares few slots with it (default true); false
    /// keeps ours, so a peer with no slot in common gets a counter-proposal (the `swapped` layout's purpose).
    public var realignsOnPeers = true

    /// Creates the description. `usableChannels` defaults to the schedule's own channels.
    public init(
        nmi: MACAddress, schedule: DataPathSchedule, deviceCapability: DeviceCapabilityAttribute,
        capabilityElements: [InformationElement], ndcID: MACAddress, usableChannels: [DataPathChannel]? = nil
    ) {
        self.nmi = nmi
        self.schedule = schedule
        self.deviceCapability = deviceCapability
        self.capabilityElements = capabilityElements
        self.ndcID = ndcID
        self.usableChannels = usableChannels ?? schedule.channels
    }
}

/// Builds the data-path NAFs in the shape deployed stacks send (wpa_supplicant 2.12): Device Capability,
/// NDPE, NAN Availability, NDC, NDL, Element Container.
public enum DataPathMessages {
    /// The OUI and protocol type in front of service info in an NDPE TLV (Wi-Fi Alliance, generic).
    static let serviceInfoPrefix: [UInt8] = [0x50, 0x6f, 0x9a, 0x02]

    static func tlvs(interfaceID: InterfaceIdentifier?, serviceInfo: [UInt8]) -> [NDPETLV] {
        var list: [NDPETLV] = []
        if let interfaceID { list.append(NDPETLV(type: NDPETLV.ipv6LinkLocal, value: interfaceID.bytes[...])) }
        if !serviceInfo.isEmpty {
            list.append(NDPETLV(type: NDPETLV.serviceInfo, value: (serviceInfoPrefix + serviceInfo)[...]))
        }
        return list
    }

    static func elementContainer(_ local: DataPathLocalDevice) -> ElementContainerAttribute? {
        local.capabilityElements.isEmpty
            ? nil : ElementContainerAttribute(mapIDField: 0, elements: local.capabilityElements)
    }

    /// Data Path Request (initiator → responder).
    /// `secured`: the security attributes follow (security present bit), added by the key exchange.
    public static func request(
        _ local: DataPathLocalDevice, id: NDPIdentifier, dialogToken: UInt8, publishID: InstanceID,
        interfaceID: InterfaceIdentifier?, serviceInfo: [UInt8], secured: Bool = false
    ) -> DataPathMessage {
        let ndpe = NDPExtensionAttribute(
            dialogToken: dialogToken, type: .request, initiatorNDI: id.initiatorNDI, ndpID: id.ndpID,
            confirmRequired: true, securityPresent: secured, publishID: publishID,
            tlvs: tlvs(interfaceID: interfaceID, serviceInfo: serviceInfo))
        let ndl = NDLAttribute(dialogToken: dialogToken, type: .request)
        return DataPathMessage(
            subtype: .dataPathRequest, ndp: .ndpExtension(ndpe), deviceCapability: local.deviceCapability,
            availability: [local.schedule.availabilityAttribute], ndl: ndl,
            elementContainer: elementContainer(local))
    }

    /// Data Path Response (responder → initiator), accepting or rejecting. An acceptance after which the
    /// initiator's confirm follows (`confirmFollows`: the request's "confirm required" bit, a `secured` data
    /// path or a `counter`-proposal) has NDP status "continued", as the specification has it and as
    /// wpa_supplicant 2.12 requires (it drops a response to a request asking for a confirm that says
    /// "accepted"); otherwise "accepted".
    /// A `counter` acceptance proposes our schedule instead of the peer's: NDL status "continued", with our
    /// availability and NDC.
    public static func response(
        _ local: DataPathLocalDevice, id: NDPIdentifier, dialogToken: UInt8, responderNDI: MACAddress?,
        accepted: Bool, reason: NANReasonCode = .none, interfaceID: InterfaceIdentifier?,
        serviceInfo: [UInt8], secured: Bool = false, counter: Bool = false,
        confirmFollows: Bool? = nil
    ) -> DataPathMessage {
        let status: NDPStatus = accepted ? (confirmFollows ?? (secured || counter) ? .continued : .accepted) : .rejected
        let ndpe = NDPExtensionAttribute(
            dialogToken: dialogToken, type: .response, status: status, reasonCode: reason,
            initiatorNDI: id.initiatorNDI, ndpID: id.ndpID, securityPresent: accepted && secured,
            responderNDI: responderNDI,
            tlvs: accepted ? tlvs(interfaceID: interfaceID, serviceInfo: serviceInfo) : [])
        guard accepted else { return DataPathMessage(subtype: .dataPathResponse, ndp: .ndpExtension(ndpe)) }
        let ndl = NDLAttribute(
            dialogToken: dialogToken, type: .response, status: counter ? .continued : .accepted,
            ndcAttributePresent: true)
        return DataPathMessage(
            subtype: .dataPathResponse, ndp: .ndpExtension(ndpe), deviceCapability: local.deviceCapability,
            availability: [local.schedule.availabilityAttribute],
            ndl: ndl, ndc: local.schedule.ndcAttribute(ndcID: local.ndcID),
            elementContainer: elementContainer(local))
    }

    /// Data Path Confirm (initiator → responder). A `secured` acceptance (message 3) has status "continued":
    /// the responder's security install ends the exchange. The answer to a counter-proposal (`ndc` given, or
    /// a rejection of one) carries an NDL attribute of type confirm, accepted with the agreed schedule (our
    /// availability) and the NDC, or rejected with `reason`.
    public static func confirm(
        _ local: DataPathLocalDevice, id: NDPIdentifier, dialogToken: UInt8, accepted: Bool,
        reason: NANReasonCode = .none, secured: Bool = false, answeringCounter: Bool = false,
        ndc: NDCAttribute? = nil
    ) -> DataPathMessage {
        let status: NDPStatus = accepted ? (secured ? .continued : .accepted) : .rejected
        let ndpe = NDPExtensionAttribute(
            dialogToken: dialogToken, type: .confirm, status: status, reasonCode: reason,
            initiatorNDI: id.initiatorNDI, ndpID: id.ndpID, securityPresent: accepted && secured)
        let ndl =
            answeringCounter
            ? NDLAttribute(
                dialogToken: dialogToken, type: .confirm, status: accepted ? .accepted : .rejected,
                reasonCode: accepted ? .none : reason, ndcAttributePresent: accepted && ndc != nil)
            : nil
        return DataPathMessage(
            subtype: .dataPathConfirm, ndp: .ndpExtension(ndpe), deviceCapability: local.deviceCapability,
            availability: accepted ? [local.schedule.availabilityAttribute] : [], ndl: ndl,
            ndc: accepted ? ndc : nil)
    }

    /// Data Path Key Install (responder → initiator, message 4 of a secure data path): status accepted.
    public static func keyInstall(
        _ local: DataPathLocalDevice, id: NDPIdentifier, dialogToken: UInt8
    ) -> DataPathMessage {
        let ndpe = NDPExtensionAttribute(
            dialogToken: dialogToken, type: .securityInstall, status: .accepted,
            initiatorNDI: id.initiatorNDI, ndpID: id.ndpID, securityPresent: true)
        return DataPathMessage(
            subtype: .dataPathKeyInstall, ndp: .ndpExtension(ndpe), deviceCapability: local.deviceCapability,
            availability: [local.schedule.availabilityAttribute])
    }

    /// Data Path Termination (either side).
    public static func termination(id: NDPIdentifier, dialogToken: UInt8, reason: NANReasonCode) -> DataPathMessage {
        let ndpe = NDPExtensionAttribute(
            dialogToken: dialogToken, type: .terminate, reasonCode: reason,
            initiatorNDI: id.initiatorNDI, ndpID: id.ndpID)
        return DataPathMessage(subtype: .dataPathTermination, ndp: .ndpExtension(ndpe))
    }

    /// The interface identifier and service info a peer's NDPE (or NDP) carried.
    static func peerExtras(_ descriptor: NDPDescriptor) -> (InterfaceIdentifier?, [UInt8]) {
        switch descriptor {
        case .ndp(let a):
            return (nil, a.specificInfo.map(Array.init) ?? [])
        case .ndpExtension(let a):
            let iid = a.tlvs.first(where: { $0.type == NDPETLV.ipv6LinkLocal }).flatMap {
                InterfaceIdentifier(bytes: $0.value)
            }
            var info: [UInt8] = []
            if let tlv = a.tlvs.first(where: { $0.type == NDPETLV.serviceInfo }) {
                info = tlv.value.count >= 4 ? Array(tlv.value.dropFirst(4)) : []
            }
            return (iid, info)
        }
    }
}

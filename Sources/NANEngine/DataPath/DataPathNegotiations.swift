public import NANWire

/// Everything needed to bring one negotiated data path up on the kernel side.
public struct NDPLink: Hashable, Sendable {
    /// Which data path.
    public var id: NDPIdentifier
    /// Whether we initiated it.
    public var isInitiator: Bool
    /// Our NDI address.
    public var localNDI: MACAddress
    /// The peer's NDI address.
    public var peerNDI: MACAddress
    /// The peer's committed schedule.
    public var peerAvailability: PeerAvailability
    /// The peer's committed DW info (Device Capability), 0x0001 if it sent none.
    public var peerCommittedDW: UInt16
    /// The peer's HT/VHT capability elements, if it sent an Element Container.
    public var peerElements: [InformationElement]
    /// The peer's IPv6 interface identifier, if it sent one.
    public var peerInterfaceID: InterfaceIdentifier?
    /// The service info the peer sent in its NDPE.
    public var peerServiceInfo: [UInt8]
    /// The publish instance the data path is for.
    public var publishID: InstanceID
    /// The pairwise key of a secure data path, installed before the peer's NDI station is authorized; nil
    /// for an open one.
    public var pairwiseKey: DataPathPairwiseKey? = nil
}

/// What the negotiation asks its owner to do.
public enum DataPathAction: Hashable, Sendable {
    /// Send a NAF to the peer's NMI.
    case send(DataPathMessage, to: MACAddress, ndp: NDPIdentifier)
    /// A peer asks for a data path to one of our accepting publishes (reported before we answer).
    case requested(NDPIdentifier, publishID: InstanceID, serviceInfo: [UInt8])
    /// Negotiation done: install the peer schedule and stations, bring the link up.
    case establish(NDPLink)
    /// The data path is over; undo whatever was set up for it.
    case ended(NDPIdentifier, DataPathEndReason, wasEstablished: Bool)
}

/// The NDP/NDL negotiations of one device: a value with no I/O, fed decoded NAFs, local requests and the
/// time, answering with ``DataPathAction``s. Bounded by count (``maximumEntries``) and by age (a setup must
/// finish within ``setupTimeout``); a frame that fits no entry changes nothing.
public struct DataPathNegotiations: Sendable {
    /// Where a data path is.
    public enum Phase: Hashable, Sendable {
        /// Initiator: request sent, waiting for the response.
        case requestSent
        /// Responder: response sent, waiting for the confirm.
        case responseSent
        /// Up.
        case established
    }

    struct Entry: Sendable {
        var isInitiator: Bool
        var phase: Phase
        var dialogToken: UInt8
        var publishID: InstanceID
        var localNDI: MACAddress
        var peerNDI: MACAddress?
        var peerAvailability: [NANAvailabilityAttribute]
        var peerCommittedDW: UInt16
        var peerElements: [InformationElement]
        var peerInterfaceID: InterfaceIdentifier?
        var peerServiceInfo: [UInt8]
        var deadline: ContinuousClock.Instant?
        var lastResponse: DataPathMessage?
    }

    /// At most this many data paths (pending or up) at once.
    public var maximumEntries = 16
    /// How long a setup may take from request to confirm.
    public var setupTimeout: Duration = .seconds(120)
    /// What we say about ourselves.
    public var local: DataPathLocalDevice
    /// Our NDI address (one NDI serves every data path).
    public var localNDI: MACAddress
    /// Publish instances that accept data-path requests.
    public var acceptingPublishes: Set<InstanceID> = []
    /// Per publish, the only peers (NMI addresses) whose requests are accepted; no entry: anyone.
    public var admittedPeers: [InstanceID: Set<MACAddress>] = [:]
    /// Service info we send back in responses, per publish.
    public var responseServiceInfo: [InstanceID: [UInt8]] = [:]

    private(set) var entries: [NDPIdentifier: Entry] = [:]
    private var nextToken: UInt8 = 1

    /// Creates an empty table.
    public init(local: DataPathLocalDevice, localNDI: MACAddress) {
        self.local = local
        self.localNDI = localNDI
    }

    /// The data paths in the table and where each is.
    public var phases: [NDPIdentifier: Phase] { entries.mapValues(\.phase) }

    private var interfaceID: InterfaceIdentifier { InterfaceIdentifier(eui64Of: localNDI) }

    private mutating func token() -> UInt8 {
        defer { nextToken = nextToken == 255 ? 1 : nextToken + 1 }
        return nextToken
    }

    /// An NDP ID not in use with `peer` (1…255), or nil when all are.
    func freeNDPID(for peer: MACAddress) -> UInt8? {
        let used = Set(entries.keys.filter { $0.peer == peer && $0.initiatorNDI == localNDI }.map(\.ndpID))
        return (1...255).lazy.map { UInt8($0) }.first { !used.contains($0) }
    }

    /// Starts a data path to `peer`'s publish `publishID`: the request to send, or nil when the table is full.
    public mutating func initiate(to peer: MACAddress, publishID: InstanceID, serviceInfo: [UInt8],
                                  now: ContinuousClock.Instant) -> (NDPIdentifier, [DataPathAction])? {
        guard entries.count < maximumEntries, let ndpID = freeNDPID(for: peer) else { return nil }
        let id = NDPIdentifier(peer: peer, initiatorNDI: localNDI, ndpID: ndpID)
        let dialog = token()
        entries[id] = Entry(isInitiator: true, phase: .requestSent, dialogToken: dialog, publishID: publishID,
                            localNDI: localNDI, peerAvailability: [], peerCommittedDW: 0x0001, peerElements: [],
                            peerServiceInfo: [], deadline: now.advanced(by: setupTimeout))
        let request = DataPathMessages.request(local, id: id, dialogToken: dialog, publishID: publishID,
                                               interfaceID: interfaceID, serviceInfo: serviceInfo)
        return (id, [.send(request, to: peer, ndp: id)])
    }

    /// Ends a data path from our side: a termination to send (if the peer knows of it) and the end.
    public mutating func terminate(_ id: NDPIdentifier, reason: DataPathEndReason = .init(.localRequest)) -> [DataPathAction] {
        guard let entry = entries.removeValue(forKey: id) else { return [] }
        let message = DataPathMessages.termination(id: id, dialogToken: entry.dialogToken, reason: reason.code)
        return [.send(message, to: id.peer, ndp: id), .ended(id, reason, wasEstablished: entry.phase == .established)]
    }

    /// Ends a data path without telling the peer (it is gone, or the kernel failed under it).
    public mutating func drop(_ id: NDPIdentifier, reason: DataPathEndReason) -> [DataPathAction] {
        guard let entry = entries.removeValue(forKey: id) else { return [] }
        return [.ended(id, reason, wasEstablished: entry.phase == .established)]
    }

    /// Expires setups past their deadline.
    public mutating func tick(now: ContinuousClock.Instant) -> [DataPathAction] {
        let expired = entries.filter { $0.value.deadline.map { now >= $0 } ?? false }.map(\.key)
        return expired.flatMap { terminate($0, reason: DataPathEndReason(.timeout, code: .unspecified)) }
    }

    /// A data-path NAF from `peer` (its NMI), already typed.
    public mutating func receive(_ message: DataPathMessage, from peer: MACAddress, now: ContinuousClock.Instant) -> [DataPathAction] {
        let ndp = message.ndp
        let id = NDPIdentifier(peer: peer, initiatorNDI: ndp.initiatorNDI, ndpID: ndp.ndpID)
        guard peer != local.nmi, ndp.ndpID != 0, ndp.initiatorNDI != .zero, !ndp.initiatorNDI.isBroadcast else { return [] }
        switch message.subtype {
        case .dataPathRequest: return receiveRequest(message, id: id, now: now)
        case .dataPathResponse: return receiveResponse(message, id: id)
        case .dataPathConfirm: return receiveConfirm(message, id: id)
        case .dataPathTermination:
            guard entries[id] != nil else { return [] }
            return drop(id, reason: DataPathEndReason(.peerRequest, code: ndp.reasonCode))
        default: return []
        }
    }

    private mutating func receiveRequest(_ message: DataPathMessage, id: NDPIdentifier, now: ContinuousClock.Instant) -> [DataPathAction] {
        let ndp = message.ndp
        if let existing = entries[id] {
            // A repeat of a request we answered (our response was lost): answer again; anything else is stale.
            if !existing.isInitiator, existing.phase == .responseSent, existing.dialogToken == ndp.dialogToken,
               let response = existing.lastResponse {
                return [.send(response, to: id.peer, ndp: id)]
            }
            return []
        }
        guard id.initiatorNDI != localNDI else { return [] }
        func reject(_ reason: NANReasonCode) -> [DataPathAction] {
            [.send(DataPathMessages.response(local, id: id, dialogToken: ndp.dialogToken, responderNDI: nil, accepted: false,
                                             reason: reason, interfaceID: nil, serviceInfo: []), to: id.peer, ndp: id)]
        }
        guard let publishID = ndp.publishID, acceptingPublishes.contains(publishID),
              admittedPeers[publishID].map({ $0.contains(id.peer) }) ?? true else { return reject(.ndpRejected) }
        if ndp.securityPresentFlag || message.cipherSuiteInfo != nil { return reject(.securityPolicy) }
        guard entries.count < maximumEntries else { return reject(.resourceLimitation) }
        let peerAvailability = PeerAvailability(message.availability)
        guard !peerAvailability.commonSlots(with: local.schedule).isEmpty else { return reject(.ndlUnacceptable) }
        let (iid, info) = DataPathMessages.peerExtras(ndp)
        let info2 = responseServiceInfo[publishID] ?? []
        let response = DataPathMessages.response(local, id: id, dialogToken: ndp.dialogToken, responderNDI: localNDI, accepted: true,
                                                 interfaceID: interfaceID, serviceInfo: info2)
        entries[id] = Entry(isInitiator: false, phase: .responseSent, dialogToken: ndp.dialogToken, publishID: publishID,
                            localNDI: localNDI, peerNDI: id.initiatorNDI, peerAvailability: message.availability,
                            peerCommittedDW: message.deviceCapability?.committedDWInfo ?? 0x0001,
                            peerElements: message.elementContainer?.elements ?? [], peerInterfaceID: iid,
                            peerServiceInfo: info, deadline: now.advanced(by: setupTimeout), lastResponse: response)
        return [.requested(id, publishID: publishID, serviceInfo: info), .send(response, to: id.peer, ndp: id)]
    }

    private mutating func receiveResponse(_ message: DataPathMessage, id: NDPIdentifier) -> [DataPathAction] {
        let ndp = message.ndp
        guard var entry = entries[id], entry.isInitiator, entry.phase == .requestSent, entry.dialogToken == ndp.dialogToken else {
            return []
        }
        guard ndp.status == .accepted else {
            if ndp.status == .rejected {
                return drop(id, reason: DataPathEndReason(.rejected, code: ndp.reasonCode))
            }
            // Continued: a counter-proposal or security step we do not do on an open data path.
            return terminate(id, reason: DataPathEndReason(.protocolError, code: .ndpRejected))
        }
        guard let responderNDI = ndp.responderNDI, responderNDI != .zero, !responderNDI.isBroadcast else {
            return terminate(id, reason: DataPathEndReason(.protocolError, code: .invalidParameters))
        }
        let availability = PeerAvailability(message.availability)
        guard !availability.commonSlots(with: local.schedule).isEmpty else {
            let confirm = DataPathMessages.confirm(local, id: id, dialogToken: entry.dialogToken, accepted: false,
                                                   reason: .ndlUnacceptable)
            return [.send(confirm, to: id.peer, ndp: id)] + drop(id, reason: DataPathEndReason(.protocolError, code: .ndlUnacceptable))
        }
        let (iid, info) = DataPathMessages.peerExtras(ndp)
        entry.peerNDI = responderNDI
        entry.peerAvailability = message.availability
        entry.peerCommittedDW = message.deviceCapability?.committedDWInfo ?? 0x0001
        entry.peerElements = message.elementContainer?.elements ?? []
        entry.peerInterfaceID = iid
        entry.peerServiceInfo = info
        entry.phase = .established
        entry.deadline = nil
        entries[id] = entry
        let confirm = DataPathMessages.confirm(local, id: id, dialogToken: entry.dialogToken, accepted: true)
        return [.send(confirm, to: id.peer, ndp: id), .establish(link(id, entry, peerNDI: responderNDI, availability: availability))]
    }

    private mutating func receiveConfirm(_ message: DataPathMessage, id: NDPIdentifier) -> [DataPathAction] {
        let ndp = message.ndp
        guard var entry = entries[id], !entry.isInitiator, entry.phase == .responseSent, entry.dialogToken == ndp.dialogToken else {
            return []
        }
        guard ndp.status == .accepted else {
            return drop(id, reason: DataPathEndReason(.rejected, code: ndp.reasonCode))
        }
        if !message.availability.isEmpty { entry.peerAvailability = message.availability }
        entry.phase = .established
        entry.deadline = nil
        entry.lastResponse = nil
        entries[id] = entry
        return [.establish(link(id, entry, peerNDI: id.initiatorNDI, availability: PeerAvailability(entry.peerAvailability)))]
    }

    private func link(_ id: NDPIdentifier, _ entry: Entry, peerNDI: MACAddress, availability: PeerAvailability) -> NDPLink {
        NDPLink(id: id, isInitiator: entry.isInitiator, localNDI: entry.localNDI, peerNDI: peerNDI,
                peerAvailability: availability, peerCommittedDW: entry.peerCommittedDW, peerElements: entry.peerElements,
                peerInterfaceID: entry.peerInterfaceID, peerServiceInfo: entry.peerServiceInfo, publishID: entry.publishID)
    }
}

extension NDPDescriptor {
    /// Control bit 2 ("security present") of either attribute.
    var securityPresentFlag: Bool {
        switch self { case .ndp(let a): return a.securityPresent; case .ndpExtension(let a): return a.securityPresent }
    }
}

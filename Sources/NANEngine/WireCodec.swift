import NANSystem
import NANWire

/// The engine's frames in NANWire's byte layout: an 802.11 action header (A3 = cluster ID) and an SDF
/// with one Service Descriptor attribute per announcement, plus a Service Descriptor Extension attribute
/// when the announcement offers a data path.
struct WireCodec: DiscoveryFrameCodec {
    /// A frame that decoded but is not a service discovery frame (a NAN action frame, say).
    struct NotServiceDiscovery: Error {}

    func encode(_ frame: OutgoingDiscoveryFrame, source: MACAddress, cluster: MACAddress) throws -> [UInt8] {
        let messages = frame.announcements.map { item in
            let descriptor = ServiceDescriptorAttribute(
                serviceID: item.serviceID, instanceID: item.instanceID, requestorInstanceID: item.requestorInstanceID,
                controlType: Self.controlType(item.kind), discoveryRangeLimited: item.rangeLimited,
                matchingFilter: item.matchFilter, serviceResponseFilter: item.responseFilter,
                serviceInfo: item.serviceInfo.isEmpty ? nil : item.serviceInfo[...])
            let extensionAttribute =
                item.offersDataPath
                ? ServiceDescriptorExtensionAttribute(
                    instanceID: item.instanceID,
                    control: item.cipherSuites.isEmpty ? .dataPathRequired : [.dataPathRequired, .securityRequired])
                : nil
            return ServiceDiscoveryMessage(descriptor: descriptor, descriptorExtension: extensionAttribute)
        }
        let header = ManagementHeader(destination: frame.destination, source: source, bssid: cluster)
        var extra = frame.deviceAttributes
        let suites = frame.announcements.flatMap { item in
            item.cipherSuites.map { CipherSuiteInfoAttribute.Entry(suite: $0, publishID: item.instanceID) }
        }
        if !suites.isEmpty {
            extra.append(.cipherSuiteInfo(CipherSuiteInfoAttribute(capabilities: 0, entries: suites)))
        }
        extra += frame.identityResolution.map { [.identityResolution($0)] } ?? []
        extra += frame.announcements.compactMap { $0.keyDescriptor.map { .sharedKeyDescriptor($0) } }
        extra += frame.announcements.compactMap { $0.bootstrapping.map { .pairingBootstrapping($0) } }
        let body = NANFrame.serviceDiscovery(
            ServiceDiscoveryFrame(isProtected: frame.isProtected, messages: messages, extra: extra))
        return try NANManagementFrame(header: header, body: body).encoded()
    }

    func decode(_ bytes: [UInt8]) throws -> IncomingDiscoveryFrame {
        let frame = try NANManagementFrame(bytes: bytes)
        guard case .serviceDiscovery(let sdf) = frame.body else { throw NotServiceDiscovery() }
        let nira = sdf.attributes.lazy.compactMap { if case .identityResolution(let a) = $0 { a } else { nil } }.first
        let keyDescriptor = sdf.attributes.lazy.compactMap {
            if case .sharedKeyDescriptor(let a) = $0 { a } else { nil }
        }.first
        let bootstrapping = sdf.attributes.lazy.compactMap {
            if case .pairingBootstrapping(let a) = $0 { a } else { nil }
        }.first
        let announcements = try sdf.messages().map { message in
            let d = message.descriptor
            var announcement = ServiceAnnouncement(
                kind: Self.kind(d.controlType), serviceID: d.serviceID, instanceID: d.instanceID,
                requestorInstanceID: d.requestorInstanceID, matchFilter: d.matchingFilter,
                responseFilter: d.serviceResponseFilter, serviceInfo: Array(message.serviceSpecificInfo ?? []),
                rangeLimited: d.discoveryRangeLimited,
                offersDataPath: message.descriptorExtension?.control.contains(.dataPathRequired) ?? false)
            announcement.identityResolution = nira
            announcement.isProtected = sdf.isProtected
            if announcement.kind == .followUp { announcement.keyDescriptor = keyDescriptor }
            // A publish advertises its methods; a follow-up carries a request or a response.
            switch (announcement.kind, bootstrapping?.type) {
            case (.publish, .advertise?), (.followUp, .request?), (.followUp, .response?):
                announcement.bootstrapping = bootstrapping
            default: break
            }
            return announcement
        }
        let availability = sdf.attributes.compactMap { if case .availability(let a) = $0 { a } else { nil } }
        let capability = sdf.attributes.lazy.compactMap { if case .deviceCapability(let c) = $0 { c } else { nil } }
            .first
        return IncomingDiscoveryFrame(
            source: frame.header.source, announcements: announcements, cluster: frame.header.bssid,
            availability: Array(availability.prefix(PeerAvailability.maximumMaps)),
            committedDW: capability?.committedDWInfo, announcesAvailability: !availability.isEmpty)
    }

    /// A public SDF's header and its subscribes' Service Descriptor attributes only: the other attributes are
    /// framed (a broken attribute list is refused) but not read, and a protected frame is refused. What the
    /// responder answers from on the reader's thread, where the whole decoding costs more than a DW in a debug
    /// build on an emulated machine.
    func decodeSubscribes(_ bytes: [UInt8]) throws -> IncomingDiscoveryFrame {
        var reader = ByteReader(bytes)
        let header = try ManagementHeader(reading: &reader)
        guard header.isAction, header.frameControl & 0x4000 == 0,
            try reader.readBytes(NANFramePrefix.serviceDiscovery.count, "SDF header")
                .elementsEqual(NANFramePrefix.serviceDiscovery)
        else { throw NotServiceDiscovery() }
        var attributes = NANAttributeIterator(ByteReader(reader.readRest(), origin: reader.origin))
        var subscribes: [ServiceAnnouncement] = []
        var announcesAvailability = false
        while let raw = try attributes.next() {
            if raw.id == .availability { announcesAvailability = true }
            guard raw.id == .serviceDescriptor else { continue }
            var body = raw.reader(origin: raw.offset + 3)
            let d = try ServiceDescriptorAttribute(decodingBody: &body)
            guard d.controlType == .subscribe else { continue }
            subscribes.append(
                ServiceAnnouncement(
                    kind: .subscribe, serviceID: d.serviceID, instanceID: d.instanceID,
                    requestorInstanceID: d.requestorInstanceID, matchFilter: d.matchingFilter,
                    responseFilter: d.serviceResponseFilter, serviceInfo: Array(d.serviceInfo ?? []),
                    rangeLimited: d.discoveryRangeLimited))
        }
        return IncomingDiscoveryFrame(
            source: header.source, announcements: subscribes, cluster: header.bssid,
            announcesAvailability: announcesAvailability)
    }

    private static func controlType(_ kind: ServiceAnnouncement.Kind) -> ServiceDescriptorAttribute.ControlType {
        switch kind {
        case .publish: .publish
        case .subscribe: .subscribe
        case .followUp: .followUp
        }
    }

    private static func kind(_ type: ServiceDescriptorAttribute.ControlType) -> ServiceAnnouncement.Kind {
        switch type {
        case .publish: .publish
        case .subscribe: .subscribe
        case .followUp: .followUp
        }
    }
}

/// One-line summaries for logs and the command line, e.g.
/// `SDF [SDA publish c57ed9d5d167 id 5 → 0, SDEA id 5 data-path]`.
extension NANAttribute: CustomStringConvertible {
    /// A short summary naming the attribute and its key fields.
    public var description: String {
        switch self {
        case .serviceDescriptor(let a):
            var text = "SDA \(a.controlType) \(a.serviceID) id \(a.instanceID) → \(a.requestorInstanceID)"
            if let f = a.matchingFilter { text += " filter \(f)" }
            if let srf = a.serviceResponseFilter {
                switch srf.addressSet {
                case .addresses(let list): text += " srf \(srf.include ? "include" : "exclude") \(list.count) addresses"
                case .bloomFilter(let bf):
                    text += " srf \(srf.include ? "include" : "exclude") bloom[\(bf.index)] \(bf.bits.count) bytes"
                }
            }
            if let info = a.serviceInfo { text += " info \(info.count) bytes" }
            return text
        case .serviceDescriptorExtension(let a):
            var text = "SDEA id \(a.instanceID) control 0x\(String(a.control.rawValue, radix: 16))"
            if let info = a.serviceInfo { text += " \(info.protocolType) info \(info.info.count) bytes" }
            return text
        case .ndp(let a):
            return "NDP type \(a.type.rawValue) status \(a.status.rawValue) ndp \(a.ndpID) initiator \(a.initiatorNDI)"
        case .ndpExtension(let a):
            return
                "NDPE type \(a.type.rawValue) status \(a.status.rawValue) ndp \(a.ndpID) initiator \(a.initiatorNDI) \(a.tlvs.count) TLVs"
        case .masterIndication(let a):
            return "Master Indication preference \(a.masterPreference) random \(a.randomFactor)"
        case .cluster(let a):
            return "Cluster hop count \(a.hopCount)"
        case .serviceIDList(let a):
            return "Service ID List \(a.serviceIDs.map(\.description).joined(separator: " "))"
        case .subscribeServiceIDList(let a):
            return "Subscribe Service ID List \(a.serviceIDs.map(\.description).joined(separator: " "))"
        case .deviceCapability(let a):
            return "Device Capability \(a.bands.map(\.description).joined(separator: "+")) \(a.operation.phyMode) "
                + "TX \(a.txAntennas) RX \(a.rxAntennas)"
        case .availability(let a):
            return "NAN Availability map \(a.mapID) seq \(a.sequenceID) \(a.entries.count) entries"
        case .ndc(let a):
            return "NDC \(a.ndcID)\(a.selected ? " selected" : "") \(a.schedule.count) schedule entries"
        case .ndl(let a):
            return "NDL \(a.type) \(a.status)"
        case .ndlQoS(let a):
            return "NDL QoS min slots \(a.minimumTimeSlots) max latency \(a.maximumLatency)"
        case .unalignedSchedule(let a):
            return "Unaligned Schedule id \(a.scheduleID) seq \(a.sequenceID)"
        case .elementContainer(let a):
            return "Element Container \(a.elements.map(\.name).joined(separator: ", "))"
        case .cipherSuiteInfo(let a):
            return "CSIA " + a.entries.map { "\($0.suite) publish \($0.publishID)" }.joined(separator: ", ")
        case .securityContextInfo(let a):
            return "SCIA " + a.entries.map { "\($0.typeName) publish \($0.publishID)" }.joined(separator: ", ")
        case .sharedKeyDescriptor(let a):
            return "Shared-Key Descriptor publish \(a.publishID) \(a.keyDescriptor.count) bytes"
        case .deviceCapabilityExtension(let a):
            var named: [String] = []
            if a.pairingSetupSupported { named.append("pairing setup") }
            if a.npkNIKCachingSupported { named.append("NPK/NIK caching") }
            if let info = a.regulatoryInfo { named.append(DeviceCapabilityExtensionAttribute.regulatoryInfoName(info)) }
            return "DCEA" + (named.isEmpty ? "" : " " + named.joined(separator: ", "))
        case .identityResolution(let a):
            return "NIRA cipher version \(a.cipherVersion)"
        case .pairingBootstrapping(let a):
            return
                "NPBA type \(a.type.rawValue) status \(a.status.rawValue) methods 0x\(String(a.methods.rawValue, radix: 16))"
        case .vendorSpecific(let a):
            return "Vendor Specific \(a.oui) \(a.body.count) bytes"
        case .unknown(let a):
            return "\(a.id) \(a.body.count) bytes"
        }
    }
}

extension ServiceDescriptorAttribute.ControlType: CustomStringConvertible {
    /// `publish`, `subscribe` or `follow-up`.
    public var description: String {
        switch self {
        case .publish: return "publish"
        case .subscribe: return "subscribe"
        case .followUp: return "follow-up"
        }
    }
}

extension ServiceDiscoveryFrame: CustomStringConvertible {
    /// `SDF [attribute, …]` (`protected SDF` for category 9).
    public var description: String {
        "\(isProtected ? "protected " : "")SDF [\(attributes.map(\.description).joined(separator: ", "))]"
    }
}

extension NANActionFrame: CustomStringConvertible {
    /// `NAF data path request [attribute, …]`.
    public var description: String {
        "\(isProtected ? "protected " : "")NAF \(subtype) [\(attributes.map(\.description).joined(separator: ", "))]"
    }
}

extension NANFrame: CustomStringConvertible {
    /// The SDF's or NAF's summary.
    public var description: String {
        switch self {
        case .serviceDiscovery(let f): return f.description
        case .action(let f): return f.description
        }
    }
}

extension NANManagementFrame: CustomStringConvertible {
    /// `source → destination (bssid): body`.
    public var description: String {
        "\(header.source) → \(header.destination) (\(header.bssid)): \(body)"
    }
}

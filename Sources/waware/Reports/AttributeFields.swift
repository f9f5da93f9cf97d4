import NANWire

/// The typed fields `waware decode` shows for each attribute other than the service descriptor and its
/// extension (which ``FrameReport`` lays out itself), named as in the Wi-Fi Aware specification.
///
/// Every value comes from NANWire's typed accessors; nothing here reads attribute bytes.
enum AttributeFields {
    /// What an attribute's fields may depend on besides the attribute itself.
    struct Context {
        /// Names for the service IDs of the hinted services.
        var serviceNames: [ServiceID: String] = [:]
        /// The cipher suite the frame's Cipher Suite Info attribute offers first, which fixes the MIC length
        /// of a Shared-Key Descriptor in the same frame.
        var cipherSuite: NANCipherSuite?
    }

    /// The attribute's fields; nil for the service descriptor and its extension, and for unknown attributes
    /// (shown as bytes).
    static func fields(_ attribute: NANAttribute, _ context: Context) -> [ReportField]? {
        switch attribute {
        case .serviceDescriptor, .serviceDescriptorExtension, .unknown: return nil
        case .masterIndication(let a): return masterIndication(a)
        case .cluster(let a): return cluster(a)
        case .serviceIDList(let a): return serviceIDs(a.serviceIDs, context)
        case .subscribeServiceIDList(let a): return serviceIDs(a.serviceIDs, context)
        case .vendorSpecific(let a): return [.string("oui", "OUI", a.oui.description), .hex("body", "body", a.body)]
        case .deviceCapability(let a): return deviceCapability(a)
        case .availability(let a): return availability(a)
        case .ndc(let a): return ndc(a)
        case .ndl(let a): return ndl(a)
        case .ndlQoS(let a): return ndlQoS(a)
        case .unalignedSchedule(let a): return unalignedSchedule(a)
        case .elementContainer(let a): return elementContainer(a)
        case .ndp(let a): return ndp(a)
        case .ndpExtension(let a): return ndpExtension(a)
        case .cipherSuiteInfo(let a): return cipherSuiteInfo(a)
        case .securityContextInfo(let a): return securityContextInfo(a)
        case .sharedKeyDescriptor(let a): return sharedKeyDescriptor(a, context)
        case .deviceCapabilityExtension(let a): return deviceCapabilityExtension(a)
        case .identityResolution(let a): return identityResolution(a)
        case .pairingBootstrapping(let a): return pairingBootstrapping(a)
        }
    }

    static func masterIndication(_ a: MasterIndicationAttribute) -> [ReportField] {
        [
            .number("masterPreference", "master preference", a.masterPreference),
            .number("randomFactor", "random factor", a.randomFactor),
        ]
    }

    static func cluster(_ a: ClusterAttribute) -> [ReportField] {
        let rank = String(a.anchorMasterRank, radix: 16)
        return [
            .string(
                "anchorMasterRank", "anchor master rank", "0x" + String(repeating: "0", count: 16 - rank.count) + rank),
            .number("hopCount", "hop count", a.hopCount),
            .number(
                "anchorMasterBeaconTransmissionTime", "anchor master beacon transmission time",
                a.anchorMasterBeaconTransmissionTime, text: "\(a.anchorMasterBeaconTransmissionTime) µs"),
        ]
    }

    static func serviceIDs(_ ids: [ServiceID], _ context: Context) -> [ReportField] {
        [
            ReportField(
                key: "serviceIDs", label: "service IDs", value: .strings(ids.map(\.description)),
                text: ids.isEmpty
                    ? "none"
                    : ids.map { id in id.description + (context.serviceNames[id].map { " (\($0))" } ?? "") }
                        .joined(separator: ", "))
        ]
    }
}

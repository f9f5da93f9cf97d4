/// Any NAN attribute, typed. Unknown IDs become ``unknown(_:)`` and re-encode unchanged.
///
/// New cases may be added as more attributes are typed: switch over this enum with a `default`.
public enum NANAttribute: Hashable, Sendable {
    /// Master Indication (0x00).
    case masterIndication(MasterIndicationAttribute)
    /// Cluster (0x01).
    case cluster(ClusterAttribute)
    /// Service ID List (0x02).
    case serviceIDList(ServiceIDListAttribute)
    /// Service Descriptor (0x03).
    case serviceDescriptor(ServiceDescriptorAttribute)
    /// Service Descriptor Extension (0x0E).
    case serviceDescriptorExtension(ServiceDescriptorExtensionAttribute)
    /// Device Capability (0x0F).
    case deviceCapability(DeviceCapabilityAttribute)
    /// NDP (0x10).
    case ndp(NDPAttribute)
    /// NAN Availability (0x12).
    case availability(NANAvailabilityAttribute)
    /// NDC (0x13).
    case ndc(NDCAttribute)
    /// NDL (0x14).
    case ndl(NDLAttribute)
    /// NDL QoS (0x15).
    case ndlQoS(NDLQoSAttribute)
    /// Unaligned Schedule (0x17).
    case unalignedSchedule(UnalignedScheduleAttribute)
    /// Element Container (0x1D).
    case elementContainer(ElementContainerAttribute)
    /// Cipher Suite Info (0x22).
    case cipherSuiteInfo(CipherSuiteInfoAttribute)
    /// Security Context Info (0x23).
    case securityContextInfo(SecurityContextInfoAttribute)
    /// Shared-Key Descriptor (0x24).
    case sharedKeyDescriptor(SharedKeyDescriptorAttribute)
    /// Subscribe Service ID List (0x28).
    case subscribeServiceIDList(SubscribeServiceIDListAttribute)
    /// NDP Extension (0x29).
    case ndpExtension(NDPExtensionAttribute)
    /// Device Capability Extension (0x2A).
    case deviceCapabilityExtension(DeviceCapabilityExtensionAttribute)
    /// NAN Identity Resolution (0x2B).
    case identityResolution(IdentityResolutionAttribute)
    /// NAN Pairing Bootstrapping (0x2C).
    case pairingBootstrapping(PairingBootstrappingAttribute)
    /// Vendor Specific (0xDD).
    case vendorSpecific(VendorSpecificAttribute)
    /// Any other ID, kept as bytes.
    case unknown(UnknownAttribute)

    /// The attribute's ID.
    public var id: NANAttributeID {
        switch self {
        case .masterIndication: return .masterIndication
        case .cluster: return .cluster
        case .serviceIDList: return .serviceIDList
        case .serviceDescriptor: return .serviceDescriptor
        case .serviceDescriptorExtension: return .serviceDescriptorExtension
        case .deviceCapability: return .deviceCapability
        case .ndp: return .ndp
        case .availability: return .availability
        case .ndc: return .ndc
        case .ndl: return .ndl
        case .ndlQoS: return .ndlQoS
        case .unalignedSchedule: return .unalignedSchedule
        case .elementContainer: return .elementContainer
        case .cipherSuiteInfo: return .cipherSuiteInfo
        case .securityContextInfo: return .securityContextInfo
        case .sharedKeyDescriptor: return .sharedKeyDescriptor
        case .subscribeServiceIDList: return .subscribeServiceIDList
        case .ndpExtension: return .ndpExtension
        case .deviceCapabilityExtension: return .deviceCapabilityExtension
        case .identityResolution: return .identityResolution
        case .pairingBootstrapping: return .pairingBootstrapping
        case .vendorSpecific: return .vendorSpecific
        case .unknown(let a): return a.id
        }
    }

    /// Types one framed attribute; `origin` is the index of the decoder input's first byte (for offsets).
    public init(_ raw: RawNANAttribute, origin: Int) throws(NANWireError) {
        var r = raw.reader(origin: origin)
        // Switch on the raw byte: a jump table instead of a chain of struct comparisons.
        switch raw.id.rawValue {
        case 0x00: self = .masterIndication(try .decodeBody(&r))
        case 0x01: self = .cluster(try .decodeBody(&r))
        case 0x02: self = .serviceIDList(try .decodeBody(&r))
        case 0x03: self = .serviceDescriptor(try .decodeBody(&r))
        case 0x0E: self = .serviceDescriptorExtension(try .decodeBody(&r))
        case 0x0F: self = .deviceCapability(try .decodeBody(&r))
        case 0x10: self = .ndp(try .decodeBody(&r))
        case 0x12: self = .availability(try .decodeBody(&r))
        case 0x13: self = .ndc(try .decodeBody(&r))
        case 0x14: self = .ndl(try .decodeBody(&r))
        case 0x15: self = .ndlQoS(try .decodeBody(&r))
        case 0x17: self = .unalignedSchedule(try .decodeBody(&r))
        case 0x1D: self = .elementContainer(try .decodeBody(&r))
        case 0x22: self = .cipherSuiteInfo(try .decodeBody(&r))
        case 0x23: self = .securityContextInfo(try .decodeBody(&r))
        case 0x24: self = .sharedKeyDescriptor(try .decodeBody(&r))
        case 0x28: self = .subscribeServiceIDList(try .decodeBody(&r))
        case 0x29: self = .ndpExtension(try .decodeBody(&r))
        case 0x2A: self = .deviceCapabilityExtension(try .decodeBody(&r))
        case 0x2B: self = .identityResolution(try .decodeBody(&r))
        case 0x2C: self = .pairingBootstrapping(try .decodeBody(&r))
        case 0xDD: self = .vendorSpecific(try .decodeBody(&r))
        default: self = .unknown(UnknownAttribute(id: raw.id, body: raw.body))
        }
    }

    /// Appends the whole attribute (ID, length, body).
    public func encode(into writer: inout ByteWriter) throws(NANWireError) {
        switch self {
        case .masterIndication(let a): try a.encode(into: &writer)
        case .cluster(let a): try a.encode(into: &writer)
        case .serviceIDList(let a): try a.encode(into: &writer)
        case .serviceDescriptor(let a): try a.encode(into: &writer)
        case .serviceDescriptorExtension(let a): try a.encode(into: &writer)
        case .deviceCapability(let a): try a.encode(into: &writer)
        case .ndp(let a): try a.encode(into: &writer)
        case .availability(let a): try a.encode(into: &writer)
        case .ndc(let a): try a.encode(into: &writer)
        case .ndl(let a): try a.encode(into: &writer)
        case .ndlQoS(let a): try a.encode(into: &writer)
        case .unalignedSchedule(let a): try a.encode(into: &writer)
        case .elementContainer(let a): try a.encode(into: &writer)
        case .cipherSuiteInfo(let a): try a.encode(into: &writer)
        case .securityContextInfo(let a): try a.encode(into: &writer)
        case .sharedKeyDescriptor(let a): try a.encode(into: &writer)
        case .subscribeServiceIDList(let a): try a.encode(into: &writer)
        case .ndpExtension(let a): try a.encode(into: &writer)
        case .deviceCapabilityExtension(let a): try a.encode(into: &writer)
        case .identityResolution(let a): try a.encode(into: &writer)
        case .pairingBootstrapping(let a): try a.encode(into: &writer)
        case .vendorSpecific(let a): try a.encode(into: &writer)
        case .unknown(let a):
            try writer.attribute(a.id) { (w: inout ByteWriter) throws(NANWireError) in w.writeBytes(a.body) }
        }
    }

    /// Decodes a whole attribute list (e.g. the part of a frame after its header).
    public static func decodeList(_ reader: ByteReader) throws(NANWireError) -> [NANAttribute] {
        // A first pass over the headers alone checks the framing and sizes the array exactly:
        // one allocation per frame, no regrowth copies.
        var counter = NANAttributeIterator(reader)
        var count = 0
        while try counter.next() != nil { count += 1 }
        var iterator = NANAttributeIterator(reader)
        var list: [NANAttribute] = []
        list.reserveCapacity(count)
        while let raw = try iterator.next() {
            list.append(try NANAttribute(raw, origin: reader.origin))
        }
        return list
    }

    /// Encodes an attribute list.
    public static func encodeList(_ attributes: [NANAttribute], into writer: inout ByteWriter) throws(NANWireError) {
        for attribute in attributes { try attribute.encode(into: &writer) }
    }
}

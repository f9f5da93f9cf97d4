/// The one-byte ID that starts every NAN attribute (Wi-Fi Aware spec, "NAN attributes" table).
///
/// Unknown values are kept as they are; see ``UnknownAttribute``.
public struct NANAttributeID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw ID byte.
    public let rawValue: UInt8
    /// Wraps a raw ID byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Wraps a raw ID byte.
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// Master Indication (0x00).
    public static let masterIndication = NANAttributeID(0x00)
    /// Cluster (0x01).
    public static let cluster = NANAttributeID(0x01)
    /// Service ID List (0x02).
    public static let serviceIDList = NANAttributeID(0x02)
    /// Service Descriptor (0x03).
    public static let serviceDescriptor = NANAttributeID(0x03)
    /// Service Descriptor Extension (0x0E).
    public static let serviceDescriptorExtension = NANAttributeID(0x0E)
    /// Device Capability (0x0F).
    public static let deviceCapability = NANAttributeID(0x0F)
    /// NDP (0x10).
    public static let ndp = NANAttributeID(0x10)
    /// NAN Availability (0x12).
    public static let availability = NANAttributeID(0x12)
    /// NDC (0x13).
    public static let ndc = NANAttributeID(0x13)
    /// NDL (0x14).
    public static let ndl = NANAttributeID(0x14)
    /// NDL QoS (0x15).
    public static let ndlQoS = NANAttributeID(0x15)
    /// Unaligned Schedule (0x17).
    public static let unalignedSchedule = NANAttributeID(0x17)
    /// Element Container (0x1D).
    public static let elementContainer = NANAttributeID(0x1D)
    /// Cipher Suite Info (0x22).
    public static let cipherSuiteInfo = NANAttributeID(0x22)
    /// Security Context Info (0x23).
    public static let securityContextInfo = NANAttributeID(0x23)
    /// Shared-Key Descriptor (0x24).
    public static let sharedKeyDescriptor = NANAttributeID(0x24)
    /// Subscribe Service ID List (0x28).
    public static let subscribeServiceIDList = NANAttributeID(0x28)
    /// NDP Extension (0x29).
    public static let ndpExtension = NANAttributeID(0x29)
    /// Device Capability Extension (0x2A).
    public static let deviceCapabilityExtension = NANAttributeID(0x2A)
    /// NAN Identity Resolution (0x2B).
    public static let identityResolution = NANAttributeID(0x2B)
    /// NAN Pairing Bootstrapping (0x2C).
    public static let pairingBootstrapping = NANAttributeID(0x2C)
    /// Vendor Specific (0xDD).
    public static let vendorSpecific = NANAttributeID(0xDD)

    /// A readable name, e.g. "Service Descriptor (0x03)".
    public var description: String {
        let hex = "0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16, uppercase: true)
        let name: String
        switch self {
        case .masterIndication: name = "Master Indication"
        case .cluster: name = "Cluster"
        case .serviceIDList: name = "Service ID List"
        case .serviceDescriptor: name = "Service Descriptor"
        case .serviceDescriptorExtension: name = "Service Descriptor Extension"
        case .deviceCapability: name = "Device Capability"
        case .ndp: name = "NDP"
        case .availability: name = "NAN Availability"
        case .ndc: name = "NDC"
        case .ndl: name = "NDL"
        case .ndlQoS: name = "NDL QoS"
        case .unalignedSchedule: name = "Unaligned Schedule"
        case .elementContainer: name = "Element Container"
        case .cipherSuiteInfo: name = "Cipher Suite Info"
        case .securityContextInfo: name = "Security Context Info"
        case .sharedKeyDescriptor: name = "Shared-Key Descriptor"
        case .subscribeServiceIDList: name = "Subscribe Service ID List"
        case .ndpExtension: name = "NDP Extension"
        case .deviceCapabilityExtension: name = "Device Capability Extension"
        case .identityResolution: name = "NAN Identity Resolution"
        case .pairingBootstrapping: name = "NAN Pairing Bootstrapping"
        case .vendorSpecific: name = "Vendor Specific"
        default: name = "Attribute"
        }
        return "\(name) (\(hex))"
    }
}

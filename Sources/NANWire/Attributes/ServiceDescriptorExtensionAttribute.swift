/// The protocol that service-specific info is written in (SDEA service info "Service Protocol Type").
public struct ServiceProtocolType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw byte.
    public let rawValue: UInt8
    /// Wraps a raw byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bonjour (1).
    public static let bonjour = ServiceProtocolType(rawValue: 1)
    /// Generic: a list of TLVs (2).
    public static let generic = ServiceProtocolType(rawValue: 2)
    /// CSA Matter (3).
    public static let csaMatter = ServiceProtocolType(rawValue: 3)

    /// Name and number.
    public var description: String {
        switch self {
        case .bonjour: return "bonjour"
        case .generic: return "generic"
        case .csaMatter: return "csa-matter"
        default: return "protocol \(rawValue)"
        }
    }
}

/// The Service Descriptor Extension attribute (SDEA, 0x0E): data-path, security and ranging
/// requirements of a service instance, and its service-specific info with a protocol type.
///
/// Body: Instance ID (1), Control (2, LE), Range Limit (ingress 2 + egress 2, present if control bit 8),
/// Service Update Indicator (1, if bit 9), then optionally Service Info Length (2) + Service Info:
/// OUI (3) + Service Protocol Type (1) + service-specific info.
public struct ServiceDescriptorExtensionAttribute: NANAttributeBody {
    /// The attribute ID, 0x0E.
    public static var attributeID: NANAttributeID { .serviceDescriptorExtension }

    /// SDEA control flags (bits 8 and 9 are derived from ``rangeLimit`` and ``serviceUpdateIndicator``).
    public struct Control: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt16
        /// Wraps raw bits.
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// Further service discovery required (bit 0).
        public static let fsdRequired = Control(rawValue: 1 << 0)
        /// Further service discovery uses GAS (bit 1).
        public static let fsdWithGAS = Control(rawValue: 1 << 1)
        /// A data path is required (bit 2).
        public static let dataPathRequired = Control(rawValue: 1 << 2)
        /// Data path type bit (bit 3): 0 unicast, 1 multicast.
        public static let dataPathMulticast = Control(rawValue: 1 << 3)
        /// Multicast type bit (bit 4).
        public static let multicastType = Control(rawValue: 1 << 4)
        /// QoS required (bit 5).
        public static let qosRequired = Control(rawValue: 1 << 5)
        /// Security required (bit 6).
        public static let securityRequired = Control(rawValue: 1 << 6)
        /// Ranging required (bit 7).
        public static let rangingRequired = Control(rawValue: 1 << 7)
        /// GTK required (bit 10).
        public static let gtkRequired = Control(rawValue: 1 << 10)

        static let rangeLimitPresent: UInt16 = 1 << 8
        static let updateIndicatorPresent: UInt16 = 1 << 9
    }

    /// Ingress and egress range limits in centimetres.
    public struct RangeLimit: Hashable, Sendable {
        /// Ingress limit.
        public var ingress: UInt16
        /// Egress limit.
        public var egress: UInt16
        /// Creates a range limit.
        public init(ingress: UInt16, egress: UInt16) { self.ingress = ingress; self.egress = egress }
    }

    /// Service-specific info with its protocol type.
    public struct ServiceInfo: Hashable, Sendable {
        /// The OUI that defines `protocolType` (normally Wi-Fi Alliance).
        public var oui: OUI
        /// How `info` is structured.
        public var protocolType: ServiceProtocolType
        /// The service-specific info (a slice of the frame when decoded).
        public var info: ArraySlice<UInt8>
        /// Creates service info.
        public init(oui: OUI = .wifiAlliance, protocolType: ServiceProtocolType, info: ArraySlice<UInt8>) {
            self.oui = oui; self.protocolType = protocolType; self.info = info
        }
    }

    /// The instance this extends (matches a Service Descriptor attribute's instance ID).
    public var instanceID: InstanceID
    /// Requirement flags.
    public var control: Control
    /// Range limit, if present.
    public var rangeLimit: RangeLimit?
    /// Service update indicator, if present.
    public var serviceUpdateIndicator: UInt8?
    /// Service info, if present.
    public var serviceInfo: ServiceInfo?

    /// Creates an SDEA.
    public init(
        instanceID: InstanceID, control: Control = [], rangeLimit: RangeLimit? = nil,
        serviceUpdateIndicator: UInt8? = nil, serviceInfo: ServiceInfo? = nil
    ) {
        self.instanceID = instanceID
        self.control = control
        self.rangeLimit = rangeLimit
        self.serviceUpdateIndicator = serviceUpdateIndicator
        self.serviceInfo = serviceInfo
    }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        instanceID = InstanceID(try reader.readU8("Service Descriptor Extension attribute: instance ID"))
        let raw = try reader.readLE16("Service Descriptor Extension attribute: control")
        control = Control(rawValue: raw & ~(Control.rangeLimitPresent | Control.updateIndicatorPresent))
        if raw & Control.rangeLimitPresent != 0 {
            let ingress = try reader.readLE16("Service Descriptor Extension attribute: ingress range limit")
            let egress = try reader.readLE16("Service Descriptor Extension attribute: egress range limit")
            rangeLimit = RangeLimit(ingress: ingress, egress: egress)
        } else {
            rangeLimit = nil
        }
        serviceUpdateIndicator =
            raw & Control.updateIndicatorPresent != 0
            ? try reader.readU8("Service Descriptor Extension attribute: service update indicator") : nil
        if reader.isAtEnd {
            serviceInfo = nil
            return
        }
        let lengthOffset = reader.offset
        let length = Int(try reader.readLE16("Service Descriptor Extension attribute: service info length"))
        guard length >= 4 else {
            throw NANWireError(
                .outOfRange, at: lengthOffset,
                "Service Descriptor Extension attribute: service info length \(length), needs OUI and protocol type (4)"
            )
        }
        var info = try reader.subReader(length, "Service Descriptor Extension attribute: service info")
        let oui = OUI(rawValue: try info.readBE24("Service Descriptor Extension attribute: service info OUI"))
        let type = ServiceProtocolType(
            rawValue: try info.readU8("Service Descriptor Extension attribute: service protocol type"))
        serviceInfo = ServiceInfo(oui: oui, protocolType: type, info: info.readRest())
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(instanceID.rawValue)
        var raw = control.rawValue & ~(Control.rangeLimitPresent | Control.updateIndicatorPresent)
        if rangeLimit != nil { raw |= Control.rangeLimitPresent }
        if serviceUpdateIndicator != nil { raw |= Control.updateIndicatorPresent }
        writer.writeLE16(raw)
        if let rangeLimit {
            writer.writeLE16(rangeLimit.ingress)
            writer.writeLE16(rangeLimit.egress)
        }
        if let serviceUpdateIndicator { writer.writeU8(serviceUpdateIndicator) }
        if let serviceInfo {
            try writer.lengthPrefixedLE16("Service Descriptor Extension attribute: service info") {
                (w: inout ByteWriter) throws(NANWireError) in
                w.writeBE24(serviceInfo.oui.rawValue)
                w.writeU8(serviceInfo.protocolType.rawValue)
                w.writeBytes(serviceInfo.info)
            }
        }
    }
}

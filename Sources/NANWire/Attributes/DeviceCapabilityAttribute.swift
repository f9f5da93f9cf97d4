/// The Device Capability attribute (0x0F), 9 bytes.
///
/// Body: Map ID (1; bit 0 "applies to the given map only", bits 1–4 map ID), Committed DW Info (2),
/// Supported Bands (1; bit 2 2.4 GHz, bit 4 5 GHz, bit 7 6 GHz), Operation Mode (1), Number of
/// Antennas (1; TX low nibble, RX high nibble), Max Channel Switch Time (2, µs), Capabilities (1).
public struct DeviceCapabilityAttribute: NANAttributeBody {
    /// The attribute ID, 0x0F.
    public static var attributeID: NANAttributeID { .deviceCapability }
    /// The raw Map ID byte.
    public var mapIDField: UInt8
    /// Committed DW info: 2.4 GHz wake interval bits 0–2, 5 GHz bits 3–5, overrides bits 6–13.
    public var committedDWInfo: UInt16
    /// Supported bands bitmap.
    public var supportedBands: UInt8
    /// Operation mode (bit 0 VHT, bit 1 80+80, bit 2 160, bit 3 paging NDL, bit 4 HE).
    public var operationMode: UInt8
    /// Number of antennas.
    public var antennas: UInt8
    /// Maximum channel switch time in µs.
    public var maxChannelSwitchTime: UInt16
    /// Capabilities (bit 0 DFS master, 1 extended key ID, 2 simultaneous NDP data reception, 3 NDPE attribute
    /// supported, 4 S3 supported).
    public var capabilities: UInt8

    /// Creates the attribute.
    public init(
        mapIDField: UInt8 = 0, committedDWInfo: UInt16, supportedBands: UInt8, operationMode: UInt8 = 0,
        antennas: UInt8 = 0, maxChannelSwitchTime: UInt16 = 0, capabilities: UInt8 = 0
    ) {
        self.mapIDField = mapIDField
        self.committedDWInfo = committedDWInfo
        self.supportedBands = supportedBands
        self.operationMode = operationMode
        self.antennas = antennas
        self.maxChannelSwitchTime = maxChannelSwitchTime
        self.capabilities = capabilities
    }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        mapIDField = try reader.readU8("Device Capability attribute: map ID")
        committedDWInfo = try reader.readLE16("Device Capability attribute: committed DW info")
        supportedBands = try reader.readU8("Device Capability attribute: supported bands")
        operationMode = try reader.readU8("Device Capability attribute: operation mode")
        antennas = try reader.readU8("Device Capability attribute: number of antennas")
        maxChannelSwitchTime = try reader.readLE16("Device Capability attribute: max channel switch time")
        capabilities = try reader.readU8("Device Capability attribute: capabilities")
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(mapIDField)
        writer.writeLE16(committedDWInfo)
        writer.writeU8(supportedBands)
        writer.writeU8(operationMode)
        writer.writeU8(antennas)
        writer.writeLE16(maxChannelSwitchTime)
        writer.writeU8(capabilities)
    }
}

// MARK: - Fields

extension DeviceCapabilityAttribute {
    /// Map ID bit 0: the capabilities apply only to the map in ``mapID``; clear, they apply to every map.
    public var appliesToOneMapOnly: Bool { mapIDField & 0x01 != 0 }
    /// Map ID bits 1–4: the NAN Availability map the capabilities apply to (meaningful with
    /// ``appliesToOneMapOnly``).
    public var mapID: UInt8 { (mapIDField >> 1) & 0x0F }

    /// The Committed DW Info field, split into its subfields.
    public var committedDW: CommittedDWInfo { CommittedDWInfo(rawValue: committedDWInfo) }
    /// The bands of the Supported Bands bitmap (bit n = band ID n).
    public var bands: [NANBandID] { NANBandID.bands(inBitmap: supportedBands) }
    /// The Operation Mode field's bits.
    public var operation: OperationMode { OperationMode(rawValue: operationMode) }
    /// Number of TX antennas (low nibble; 0 = not known).
    public var txAntennas: UInt8 { antennas & 0x0F }
    /// Number of RX antennas (high nibble; 0 = not known).
    public var rxAntennas: UInt8 { antennas >> 4 }
    /// The Capabilities field's bits.
    public var capabilityFlags: Capabilities { Capabilities(rawValue: capabilities) }

    /// The Committed DW Info field (2 bytes): how often the device wakes for the discovery windows of each
    /// band, and which map's committed schedule those values overwrite.
    ///
    /// Bits 0–2: 2.4 GHz DW wake interval; 3–5: 5 GHz DW wake interval; 6–9: 2.4 GHz DW overwrite (a map
    /// ID); 10–13: 5 GHz DW overwrite (a map ID); 14–15 reserved. A wake interval n of 1…5 means every
    /// 2ⁿ⁻¹-th DW; 0 means the device does not wake for that band's DWs.
    public struct CommittedDWInfo: RawRepresentable, Hashable, Sendable {
        /// The raw 16 bits.
        public let rawValue: UInt16
        /// Wraps the raw bits.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 2.4 GHz DW wake interval code (bits 0–2).
        public var wakeInterval2_4GHz: UInt8 { UInt8(rawValue & 0x7) }
        /// 5 GHz DW wake interval code (bits 3–5).
        public var wakeInterval5GHz: UInt8 { UInt8((rawValue >> 3) & 0x7) }
        /// 2.4 GHz DW overwrite: the map ID the 2.4 GHz value applies to (bits 6–9).
        public var overwriteMapID2_4GHz: UInt8 { UInt8((rawValue >> 6) & 0xF) }
        /// 5 GHz DW overwrite: the map ID the 5 GHz value applies to (bits 10–13).
        public var overwriteMapID5GHz: UInt8 { UInt8((rawValue >> 10) & 0xF) }
        /// Reserved bits 14–15 (0 from a conforming sender).
        public var reservedBits: UInt16 { rawValue & 0xC000 }

        /// The DWs between wakes a wake interval code means: 1, 2, 4, 8 or 16 for codes 1…5; nil for 0
        /// (no wake in that band) and the reserved codes 6 and 7.
        public static func dwsBetweenWakes(_ code: UInt8) -> Int? {
            (1...5).contains(code) ? 1 << (Int(code) - 1) : nil
        }
    }

    /// The Operation Mode field's bits. The PHY mode is HE with bit 4, else VHT with bit 0, else HT.
    public struct OperationMode: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Wraps the raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Bit 0: VHT PHY.
        public static let vht = OperationMode(rawValue: 1 << 0)
        /// Bit 1: HE/VHT 80+80 MHz supported.
        public static let width80Plus80 = OperationMode(rawValue: 1 << 1)
        /// Bit 2: HE/VHT 160 MHz supported.
        public static let width160 = OperationMode(rawValue: 1 << 2)
        /// Bit 3: paging NDL supported.
        public static let pagingNDL = OperationMode(rawValue: 1 << 3)
        /// Bit 4: HE PHY.
        public static let he = OperationMode(rawValue: 1 << 4)
        /// Bits 5–7, reserved.
        public var reservedBits: UInt8 { rawValue & 0xE0 }
        /// `HE`, `VHT` or `HT`.
        public var phyMode: String { contains(.he) ? "HE" : contains(.vht) ? "VHT" : "HT" }
    }

    /// The Capabilities field's bits.
    public struct Capabilities: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Wraps the raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Bit 0: the device is a DFS master.
        public static let dfsMaster = Capabilities(rawValue: 1 << 0)
        /// Bit 1: extended key ID supported.
        public static let extendedKeyID = Capabilities(rawValue: 1 << 1)
        /// Bit 2: simultaneous NDP data reception supported.
        public static let simultaneousNDPDataReception = Capabilities(rawValue: 1 << 2)
        /// Bit 3: the NDPE attribute is supported.
        public static let ndpeAttributeSupported = Capabilities(rawValue: 1 << 3)
        /// Bit 4: S3 supported.
        public static let s3Supported = Capabilities(rawValue: 1 << 4)
        /// Bits 5–7, reserved.
        public var reservedBits: UInt8 { rawValue & 0xE0 }
    }
}

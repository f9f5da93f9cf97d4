/// The Master Indication attribute (0x00): master preference and random factor (2 bytes).
public struct MasterIndicationAttribute: NANAttributeBody {
    /// The attribute ID, 0x00.
    public static var attributeID: NANAttributeID { .masterIndication }
    /// Master preference.
    public var masterPreference: UInt8
    /// Random factor.
    public var randomFactor: UInt8
    /// Creates the attribute.
    public init(masterPreference: UInt8, randomFactor: UInt8) {
        self.masterPreference = masterPreference
        self.randomFactor = randomFactor
    }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        masterPreference = try reader.readU8("Master Indication attribute: master preference")
        randomFactor = try reader.readU8("Master Indication attribute: random factor")
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(masterPreference)
        writer.writeU8(randomFactor)
    }
}

/// The Cluster attribute (0x01): anchor master information (13 bytes).
///
/// Body: Anchor Master Rank (8, little-endian), Hop Count to the anchor master (1), Anchor Master
/// Beacon Transmission Time (4, little-endian; low 32 bits of the anchor master's TSF).
public struct ClusterAttribute: NANAttributeBody {
    /// The attribute ID, 0x01.
    public static var attributeID: NANAttributeID { .cluster }
    /// Anchor master rank: master preference, random factor and the anchor master's NMI.
    public var anchorMasterRank: UInt64
    /// Hops to the anchor master.
    public var hopCount: UInt8
    /// Anchor master beacon transmission time.
    public var anchorMasterBeaconTransmissionTime: UInt32
    /// Creates the attribute.
    public init(anchorMasterRank: UInt64, hopCount: UInt8, anchorMasterBeaconTransmissionTime: UInt32) {
        self.anchorMasterRank = anchorMasterRank
        self.hopCount = hopCount
        self.anchorMasterBeaconTransmissionTime = anchorMasterBeaconTransmissionTime
    }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        anchorMasterRank = try reader.readLE64("Cluster attribute: anchor master rank")
        hopCount = try reader.readU8("Cluster attribute: hop count")
        anchorMasterBeaconTransmissionTime = try reader.readLE32("Cluster attribute: beacon transmission time")
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeLE64(anchorMasterRank)
        writer.writeU8(hopCount)
        writer.writeLE32(anchorMasterBeaconTransmissionTime)
    }
}

/// The Service ID List and Subscribe Service ID List attributes: the same body, service IDs of 6 bytes each.
protocol ServiceIDListBody: NANAttributeBody {
    var serviceIDs: [ServiceID] { get }
    init(serviceIDs: [ServiceID])
}

extension ServiceIDListBody {
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        let what = "\(Self.attributeID) attribute"
        guard reader.remaining % 6 == 0 else {
            throw reader.error(
                .malformed, "\(what): \(reader.remaining) bytes is not a whole number of 6-byte service IDs")
        }
        self.init(
            serviceIDs: try reader.readToEnd { r throws(NANWireError) in try r.readServiceID("\(what): service ID") })
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        for id in serviceIDs { writer.writeServiceID(id) }
    }
}

/// The Service ID List attribute (0x02): service IDs, 6 bytes each.
public struct ServiceIDListAttribute: ServiceIDListBody {
    /// The attribute ID, 0x02.
    public static var attributeID: NANAttributeID { .serviceIDList }
    /// The listed services.
    public var serviceIDs: [ServiceID]
    /// Creates the attribute.
    public init(serviceIDs: [ServiceID]) { self.serviceIDs = serviceIDs }
}

/// The Subscribe Service ID List attribute (0x28): service IDs a device subscribes to, 6 bytes each.
public struct SubscribeServiceIDListAttribute: ServiceIDListBody {
    /// The attribute ID, 0x28.
    public static var attributeID: NANAttributeID { .subscribeServiceIDList }
    /// The listed services.
    public var serviceIDs: [ServiceID]
    /// Creates the attribute.
    public init(serviceIDs: [ServiceID]) { self.serviceIDs = serviceIDs }
}

/// The Vendor Specific attribute (0xDD): an OUI and vendor-defined bytes.
public struct VendorSpecificAttribute: NANAttributeBody {
    /// The attribute ID, 0xDD.
    public static var attributeID: NANAttributeID { .vendorSpecific }
    /// The vendor's OUI.
    public var oui: OUI
    /// Vendor-defined content after the OUI.
    public var body: ArraySlice<UInt8>
    /// Creates the attribute.
    public init(oui: OUI, body: ArraySlice<UInt8>) { self.oui = oui; self.body = body }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        oui = OUI(rawValue: try reader.readBE24("Vendor Specific attribute: OUI"))
        body = reader.readRest()
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeBE24(oui.rawValue)
        writer.writeBytes(body)
    }
}

/// An attribute this codec does not interpret, kept byte for byte so it re-encodes unchanged.
public struct UnknownAttribute: Hashable, Sendable {
    /// Its ID.
    public var id: NANAttributeID
    /// Its body (a slice of the frame when decoded).
    public var body: ArraySlice<UInt8>
    /// Creates the attribute.
    public init(id: NANAttributeID, body: ArraySlice<UInt8>) { self.id = id; self.body = body }
}

/// The Device Capability Extension attribute (DCEA, 0x2A): capability info bits that do not fit the
/// Device Capability attribute.
///
/// Body: Capability Info (2 or more bytes; the first two are little-endian bits: 0 6 GHz regulatory
/// info present, 1–3 regulatory info, 8 pairing setup enabled, 9 NPK/NIK caching enabled).
/// Bytes after the first two are kept as they are. (wpa_supplicant 2.12 sends exactly these two bytes.)
public struct DeviceCapabilityExtensionAttribute: NANAttributeBody {
    /// The attribute ID, 0x2A.
    public static var attributeID: NANAttributeID { .deviceCapabilityExtension }
    /// The first 16 capability bits.
    public var capabilityInfo: UInt16
    /// Further capability bytes from newer spec revisions.
    public var moreCapabilityInfo: ArraySlice<UInt8>

    /// Creates the attribute.
    public init(capabilityInfo: UInt16, moreCapabilityInfo: ArraySlice<UInt8> = [][...]) {
        self.capabilityInfo = capabilityInfo
        self.moreCapabilityInfo = moreCapabilityInfo
    }

    /// Bit 8: NAN pairing setup is supported.
    public var pairingSetupSupported: Bool { capabilityInfo & 0x0100 != 0 }
    /// Bit 9: NPK/NIK caching is supported.
    public var npkNIKCachingSupported: Bool { capabilityInfo & 0x0200 != 0 }
    /// Bits 1–3 when bit 0 is set: the 6 GHz regulatory info (0 indoor AP, 1 standard power, 2 very low power, …).
    public var regulatoryInfo: UInt8? { capabilityInfo & 1 != 0 ? UInt8((capabilityInfo >> 1) & 0x7) : nil }
    /// Bit 0: the 6 GHz regulatory info in bits 1–3 is present (valid).
    public var regulatoryInfoPresent: Bool { capabilityInfo & 1 != 0 }
    /// Capability bits this codec does not name (4–7 and 10–15), kept for display (0 from a sender that
    /// implements only the named ones).
    public var unnamedCapabilityBits: UInt16 { capabilityInfo & 0xFCF0 }

    /// What a 6 GHz regulatory info value (bits 1–3) says the device operates as: `indoor AP` (0),
    /// `standard power AP` (1), `very low power AP` (2), `indoor enabled AP` (3), `indoor standard power AP`
    /// (4), or `reserved (n)`.
    public static func regulatoryInfoName(_ value: UInt8) -> String {
        switch value {
        case 0: return "indoor AP"
        case 1: return "standard power AP"
        case 2: return "very low power AP"
        case 3: return "indoor enabled AP"
        case 4: return "indoor standard power AP"
        default: return "reserved (\(value))"
        }
    }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        capabilityInfo = try reader.readLE16("Device Capability Extension attribute: capability info")
        moreCapabilityInfo = reader.readRest()
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeLE16(capabilityInfo)
        writer.writeBytes(moreCapabilityInfo)
    }
}

/// A NAN cipher suite ID (Cipher Suite Info attribute).
public struct NANCipherSuite: RawRepresentable, Hashable, Sendable {
    /// The raw byte.
    public let rawValue: UInt8
    /// Wraps a raw byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// NCS-SK-128: shared key, CCMP-128 (1).
    public static let skCCM128 = NANCipherSuite(rawValue: 1)
    /// NCS-SK-256: shared key, GCMP-256 (2).
    public static let skGCM256 = NANCipherSuite(rawValue: 2)
    /// NCS-PK-2WDH-128 (3).
    public static let pk2WDH128 = NANCipherSuite(rawValue: 3)
    /// NCS-PK-2WDH-256 (4).
    public static let pk2WDH256 = NANCipherSuite(rawValue: 4)
    /// NCS-GTK-CCMP-128 (5).
    public static let gtkCCMP128 = NANCipherSuite(rawValue: 5)
    /// NCS-GTK-GCMP-256 (6).
    public static let gtkGCMP256 = NANCipherSuite(rawValue: 6)
    /// NCS-PK-PASN-128 (7).
    public static let pkPASN128 = NANCipherSuite(rawValue: 7)
    /// NCS-PK-PASN-256 (8).
    public static let pkPASN256 = NANCipherSuite(rawValue: 8)
}

extension NANCipherSuite: CustomStringConvertible {
    /// The suite's name in the Wi-Fi Aware specification, e.g. `NCS-SK-128`; `cipher suite 9` for others.
    public var description: String {
        switch self {
        case .skCCM128: return "NCS-SK-128"
        case .skGCM256: return "NCS-SK-256"
        case .pk2WDH128: return "NCS-PK-2WDH-128"
        case .pk2WDH256: return "NCS-PK-2WDH-256"
        case .gtkCCMP128: return "NCS-GTK-CCMP-128"
        case .gtkGCMP256: return "NCS-GTK-GCMP-256"
        case .pkPASN128: return "NCS-PK-PASN-128"
        case .pkPASN256: return "NCS-PK-PASN-256"
        default: return "cipher suite \(rawValue)"
        }
    }

    /// The Key MIC length of the RSN key descriptors the suite's handshake carries: 16 bytes for the
    /// 128-bit suites (HMAC-SHA-256-128), 24 for the 256-bit ones (HMAC-SHA-384-192); nil for the group
    /// suites and unknown IDs, which carry no key descriptor.
    public var keyDescriptorMICLength: Int? {
        switch self {
        case .skCCM128, .pk2WDH128, .pkPASN128: return 16
        case .skGCM256, .pk2WDH256, .pkPASN256: return 24
        default: return nil
        }
    }
}

/// The Cipher Suite Info attribute (CSIA, 0x22): capabilities (1) then (cipher suite, publish ID) pairs.
public struct CipherSuiteInfoAttribute: NANAttributeBody {
    /// The attribute ID, 0x22.
    public static var attributeID: NANAttributeID { .cipherSuiteInfo }
    /// One offered cipher suite and the publish instance it applies to.
    public struct Entry: Hashable, Sendable {
        /// The cipher suite.
        public var suite: NANCipherSuite
        /// The publish ID.
        public var publishID: InstanceID
        /// Creates an entry.
        public init(suite: NANCipherSuite, publishID: InstanceID) { self.suite = suite; self.publishID = publishID }
    }
    /// Capabilities (bit 0 16 ND-TKSA replay counters, bits 1–2 GTK support, bit 3 16 GTKSA replay
    /// counters, bit 4 BIP-GMAC-256).
    public var capabilities: UInt8
    /// The offered suites.
    public var entries: [Entry]
    /// Creates the attribute.
    public init(capabilities: UInt8, entries: [Entry]) { self.capabilities = capabilities; self.entries = entries }

    /// The Capabilities field, split into its subfields.
    public var capabilityFields: Capabilities { Capabilities(rawValue: capabilities) }

    /// The Capabilities field (1 byte): bit 0 ND-TKSA replay counters (0: 4, 1: 16), bits 1–2 GTK support
    /// (0 none, 1 GTK and IGTK without BIGTK, 2 GTK, IGTK and BIGTK, 3 reserved), bit 3 GTKSA replay counters
    /// (0: 4, 1: 16), bit 4 IGTK/BIGTK cipher (0 NCS-BIP-128, BIP-CMAC-128; 1 NCS-BIP-256, BIP-GMAC-256),
    /// bits 5–7 reserved.
    public struct Capabilities: RawRepresentable, Hashable, Sendable {
        /// The raw byte.
        public let rawValue: UInt8
        /// Wraps the raw byte.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Number of ND-TKSA replay counters: 4 or 16 (bit 0).
        public var ndTKSAReplayCounters: Int { rawValue & 0x01 != 0 ? 16 : 4 }
        /// GTK support code, bits 1–2.
        public var gtkSupport: UInt8 { (rawValue >> 1) & 0x3 }
        /// What ``gtkSupport`` means: `none`, `GTK and IGTK`, `GTK, IGTK and BIGTK` or `reserved (3)`.
        public var gtkSupportDescription: String {
            switch gtkSupport {
            case 0: return "none"
            case 1: return "GTK and IGTK"
            case 2: return "GTK, IGTK and BIGTK"
            default: return "reserved (\(gtkSupport))"
            }
        }
        /// Number of GTKSA replay counters: 4 or 16 (bit 3).
        public var gtksaReplayCounters: Int { rawValue & 0x08 != 0 ? 16 : 4 }
        /// Bit 4: the IGTK and BIGTK use NCS-BIP-256 (BIP-GMAC-256) rather than NCS-BIP-128 (BIP-CMAC-128).
        public var usesBIPGMAC256: Bool { rawValue & 0x10 != 0 }
        /// Bits 5–7, reserved.
        public var reservedBits: UInt8 { rawValue & 0xE0 }
    }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        capabilities = try reader.readU8("Cipher Suite Info attribute: capabilities")
        guard reader.remaining % 2 == 0 else {
            throw reader.error(
                .malformed,
                "Cipher Suite Info attribute: \(reader.remaining) bytes is not a whole number of 2-byte entries")
        }
        entries = try reader.readToEnd { r throws(NANWireError) in
            let suite = NANCipherSuite(rawValue: try r.readU8("Cipher Suite Info attribute: cipher suite ID"))
            return Entry(suite: suite, publishID: InstanceID(try r.readU8("Cipher Suite Info attribute: publish ID")))
        }
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(capabilities)
        for entry in entries {
            writer.writeU8(entry.suite.rawValue)
            writer.writeU8(entry.publishID.rawValue)
        }
    }
}

/// The Security Context Info attribute (SCIA, 0x23): security context identifiers (e.g. ND-PMKIDs).
///
/// Each entry: Identifier Length (2, LE), Identifier Type (1; 1 = ND-PMKID), Publish ID (1), Identifier.
public struct SecurityContextInfoAttribute: NANAttributeBody {
    /// The attribute ID, 0x23.
    public static var attributeID: NANAttributeID { .securityContextInfo }
    /// One security context identifier.
    public struct Entry: Hashable, Sendable {
        /// Identifier type (1 = ND-PMKID).
        public var type: UInt8
        /// The publish ID it applies to.
        public var publishID: InstanceID
        /// The identifier.
        public var identifier: ArraySlice<UInt8>
        /// Creates an entry.
        public init(type: UInt8, publishID: InstanceID, identifier: ArraySlice<UInt8>) {
            self.type = type; self.publishID = publishID; self.identifier = identifier
        }
        /// Identifier type ND-PMKID (1).
        public static let ndPMKID: UInt8 = 1
        /// The identifier type's name: `ND-PMKID`, or `type 2` for types not defined.
        public var typeName: String { type == Self.ndPMKID ? "ND-PMKID" : "type \(type)" }
    }
    /// The entries.
    public var entries: [Entry]
    /// Creates the attribute.
    public init(entries: [Entry]) { self.entries = entries }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        entries = try reader.readToEnd { r throws(NANWireError) in
            let length = Int(try r.readLE16("Security Context Info attribute: identifier length"))
            let type = try r.readU8("Security Context Info attribute: identifier type")
            let id = InstanceID(try r.readU8("Security Context Info attribute: publish ID"))
            return Entry(
                type: type, publishID: id,
                identifier: try r.readBytes(length, "Security Context Info attribute: identifier"))
        }
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        for entry in entries {
            guard entry.identifier.count <= Int(UInt16.max) else {
                throw NANWireError(.tooLarge, at: writer.count, "Security Context Info attribute: identifier too long")
            }
            writer.writeLE16(UInt16(entry.identifier.count))
            writer.writeU8(entry.type)
            writer.writeU8(entry.publishID.rawValue)
            writer.writeBytes(entry.identifier)
        }
    }
}

/// The Shared-Key Descriptor attribute (0x24): publish ID (1) and an IEEE 802.11 RSNA key descriptor
/// (starting with its Descriptor Type), kept as bytes for the security layer to parse.
public struct SharedKeyDescriptorAttribute: NANAttributeBody {
    /// The attribute ID, 0x24.
    public static var attributeID: NANAttributeID { .sharedKeyDescriptor }
    /// The publish ID.
    public var publishID: InstanceID
    /// The RSNA key descriptor.
    public var keyDescriptor: ArraySlice<UInt8>
    /// Creates the attribute.
    public init(publishID: InstanceID, keyDescriptor: ArraySlice<UInt8>) {
        self.publishID = publishID; self.keyDescriptor = keyDescriptor
    }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        publishID = InstanceID(try reader.readU8("Shared-Key Descriptor attribute: publish ID"))
        keyDescriptor = reader.readRest()
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(publishID.rawValue)
        writer.writeBytes(keyDescriptor)
    }
}

/// The NAN Identity Resolution attribute (NIRA, 0x2B): cipher version (1), nonce (8), tag (8).
///
/// Only cipher version 0 (128-bit NIK, HMAC-SHA-256) is defined; its layout is exactly 17 bytes.
/// Other versions are rejected as out of range.
public struct IdentityResolutionAttribute: NANAttributeBody {
    /// The attribute ID, 0x2B.
    public static var attributeID: NANAttributeID { .identityResolution }
    /// Cipher version (0).
    public var cipherVersion: UInt8
    /// 8-byte nonce.
    public var nonce: ArraySlice<UInt8>
    /// 8-byte tag.
    public var tag: ArraySlice<UInt8>
    /// Creates the attribute; nonce and tag must be 8 bytes each to encode.
    public init(cipherVersion: UInt8 = 0, nonce: ArraySlice<UInt8>, tag: ArraySlice<UInt8>) {
        self.cipherVersion = cipherVersion; self.nonce = nonce; self.tag = tag
    }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        let offset = reader.offset
        cipherVersion = try reader.readU8("NAN Identity Resolution attribute: cipher version")
        guard cipherVersion == 0 else {
            throw NANWireError(
                .outOfRange, at: offset, "NAN Identity Resolution attribute: unknown cipher version \(cipherVersion)")
        }
        nonce = try reader.readBytes(8, "NAN Identity Resolution attribute: nonce")
        tag = try reader.readBytes(8, "NAN Identity Resolution attribute: tag")
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        guard nonce.count == 8, tag.count == 8 else {
            throw NANWireError(
                .outOfRange, at: writer.count, "NAN Identity Resolution attribute: nonce and tag must be 8 bytes each")
        }
        writer.writeU8(cipherVersion)
        writer.writeBytes(nonce)
        writer.writeBytes(tag)
    }
}

/// The NAN Pairing Bootstrapping attribute (NPBA, 0x2C).
///
/// Body: Dialog Token (1), Type and Status (1; type low nibble: 0 advertise, 1 request, 2 response;
/// status high nibble: 0 accepted, 1 rejected, 2 comeback), Reason Code (1), then when status is
/// comeback: Comeback After (2, only in a response) and Cookie Length (1) + Cookie; finally Pairing
/// Bootstrapping Methods (2, bitmap). Bootstrapping travels in SDF follow-ups (as hostap does).
public struct PairingBootstrappingAttribute: NANAttributeBody {
    /// The attribute ID, 0x2C.
    public static var attributeID: NANAttributeID { .pairingBootstrapping }

    /// Advertise, request or response.
    public struct BootstrappingType: RawRepresentable, Hashable, Sendable {
        /// The raw 4-bit value.
        public let rawValue: UInt8
        /// Wraps a 4-bit value.
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }
        /// Advertise (0).
        public static let advertise = BootstrappingType(rawValue: 0)
        /// Request (1).
        public static let request = BootstrappingType(rawValue: 1)
        /// Response (2).
        public static let response = BootstrappingType(rawValue: 2)
    }

    /// Accepted, rejected or comeback.
    public struct Status: RawRepresentable, Hashable, Sendable {
        /// The raw 4-bit value.
        public let rawValue: UInt8
        /// Wraps a 4-bit value.
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }
        /// Accepted (0).
        public static let accepted = Status(rawValue: 0)
        /// Rejected (1).
        public static let rejected = Status(rawValue: 1)
        /// Comeback later (2).
        public static let comeback = Status(rawValue: 2)
    }

    /// Bootstrapping methods bitmap.
    public struct Methods: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt16
        /// Wraps raw bits.
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// Opportunistic bootstrapping (bit 0).
        public static let opportunistic = Methods(rawValue: 1 << 0)
        /// PIN code display (bit 1).
        public static let pinDisplay = Methods(rawValue: 1 << 1)
        /// Passphrase display (bit 2).
        public static let passphraseDisplay = Methods(rawValue: 1 << 2)
        /// QR code display (bit 3).
        public static let qrDisplay = Methods(rawValue: 1 << 3)
        /// NFC tag (bit 4).
        public static let nfcTag = Methods(rawValue: 1 << 4)
        /// Keypad PIN (bit 5).
        public static let pinKeypad = Methods(rawValue: 1 << 5)
        /// Keypad passphrase (bit 6).
        public static let passphraseKeypad = Methods(rawValue: 1 << 6)
        /// QR code scan (bit 7).
        public static let qrScan = Methods(rawValue: 1 << 7)
        /// NFC reader (bit 8).
        public static let nfcReader = Methods(rawValue: 1 << 8)
        /// Service-managed bootstrapping (bit 14).
        public static let serviceManaged = Methods(rawValue: 1 << 14)
        /// Bootstrapping handshakes skipped (bit 15).
        public static let handshakeSkipped = Methods(rawValue: 1 << 15)
    }

    /// Comeback information carried with status comeback.
    public struct Comeback: Hashable, Sendable {
        /// Comeback after (TUs), present in responses.
        public var after: UInt16?
        /// The cookie to echo.
        public var cookie: ArraySlice<UInt8>
        /// Creates comeback information.
        public init(after: UInt16?, cookie: ArraySlice<UInt8>) { self.after = after; self.cookie = cookie }
    }

    /// Dialog token.
    public var dialogToken: UInt8
    /// Advertise, request or response.
    public var type: BootstrappingType
    /// Accepted, rejected or comeback.
    public var status: Status
    /// Reject reason (responses with status rejected).
    public var reasonCode: NANReasonCode
    /// Comeback information: present exactly when the status is comeback.
    public var comeback: Comeback?
    /// Offered or chosen methods.
    public var methods: Methods

    /// Creates the attribute.
    public init(
        dialogToken: UInt8, type: BootstrappingType, status: Status = .accepted, reasonCode: NANReasonCode = .none,
        comeback: Comeback? = nil, methods: Methods
    ) {
        self.dialogToken = dialogToken
        self.type = type
        self.status = status
        self.reasonCode = reasonCode
        self.comeback = comeback
        self.methods = methods
    }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        let what = "NAN Pairing Bootstrapping attribute"
        dialogToken = try reader.readU8("\(what): dialog token")
        let ts = try reader.readU8("\(what): type and status")
        type = BootstrappingType(rawValue: ts & 0x0F)
        status = Status(rawValue: ts >> 4)
        reasonCode = NANReasonCode(rawValue: try reader.readU8("\(what): reason code"))
        if status == .comeback {
            let after = type == .response ? try reader.readLE16("\(what): comeback after") : nil
            comeback = Comeback(after: after, cookie: try reader.readLV8("\(what): cookie"))
        } else {
            comeback = nil
        }
        methods = Methods(rawValue: try reader.readLE16("\(what): bootstrapping methods"))
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        let what = "NAN Pairing Bootstrapping attribute"
        writer.writeU8(dialogToken)
        writer.writeU8(type.rawValue | status.rawValue << 4)
        writer.writeU8(reasonCode.rawValue)
        guard (comeback != nil) == (status == .comeback) else {
            throw NANWireError(
                .outOfRange, at: writer.count,
                "\(what): comeback information goes with status comeback, and only with it")
        }
        if let comeback {
            guard (comeback.after != nil) == (type == .response) else {
                throw NANWireError(
                    .outOfRange, at: writer.count,
                    "\(what): comeback-after is carried by responses only, and always by them")
            }
            if let after = comeback.after { writer.writeLE16(after) }
            try writer.writeLV8(comeback.cookie, "\(what): cookie")
        }
        writer.writeLE16(methods.rawValue)
    }
}

/// An IEEE 802.11 element (ID, length, body) inside an Element Container attribute.
public struct InformationElement: Hashable, Sendable {
    /// Element ID.
    public var id: UInt8
    /// Element body (a slice of the frame when decoded).
    public var body: ArraySlice<UInt8>
    /// Creates an element.
    public init(id: UInt8, body: ArraySlice<UInt8>) { self.id = id; self.body = body }

    /// Reads elements to the end of `reader`; `what` names their container in errors.
    static func readList(_ reader: inout ByteReader, _ what: String) throws(NANWireError) -> [InformationElement] {
        try reader.readToEnd { r throws(NANWireError) in
            let id = try r.readU8("\(what): element ID")
            return InformationElement(id: id, body: try r.readLV8("\(what): element \(id)"))
        }
    }

    /// Writes `elements`; `what` names their container in errors.
    static func writeList(
        _ elements: [InformationElement], _ writer: inout ByteWriter, _ what: String
    ) throws(NANWireError) {
        for element in elements {
            writer.writeU8(element.id)
            try writer.writeLV8(element.body, "\(what): element \(element.id)")
        }
    }
}

/// The Element Container attribute (0x1D): Map ID (1; bit 0 map ID present, bits 1–4 map ID) followed
/// by IEEE 802.11 elements (HT/VHT/HE capabilities and the like).
public struct ElementContainerAttribute: NANAttributeBody {
    /// The attribute ID, 0x1D.
    public static var attributeID: NANAttributeID { .elementContainer }
    /// The raw Map ID byte.
    public var mapIDField: UInt8
    /// The elements.
    public var elements: [InformationElement]
    /// Creates the attribute.
    public init(mapIDField: UInt8 = 0, elements: [InformationElement]) {
        self.mapIDField = mapIDField; self.elements = elements
    }
    /// The map the elements apply to (bits 1–4 of the Map ID field), nil when bit 0 says there is none (they
    /// apply to every map).
    public var mapID: UInt8? { mapIDField & 0x01 != 0 ? (mapIDField >> 1) & 0x0F : nil }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        mapIDField = try reader.readU8("Element Container attribute: map ID")
        elements = try InformationElement.readList(&reader, "Element Container attribute")
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(mapIDField)
        try InformationElement.writeList(elements, &writer, "Element Container attribute")
    }
}

/// The body of a PASN Authentication frame (IEEE 802.11-2024 §9.3.3.12, PASN as Wi-Fi Aware 4.0 pairing
/// uses it): Authentication Algorithm (2, LE; 7 = PASN), Transaction Sequence (2, LE; 1, 2 or 3),
/// Status Code (2, LE), then elements: RSNE (48), RSNXE (244), PASN Parameters (extension 100), Wrapped
/// Data (extension 8; SAE commit/confirm in pairing setup), MIC (140) and others, kept in order.
///
/// The body is what follows the 24-byte management header. Decoding is total: typed errors, never a trap.
public struct PASNAuthenticationFrame: Hashable, Sendable {
    /// Authentication algorithm number of PASN (7).
    public static let algorithmPASN: UInt16 = 7
    /// Element IDs PASN uses.
    public enum ElementID {
        /// RSN element.
        public static let rsn: UInt8 = 48
        /// RSN Extension element.
        public static let rsnExtension: UInt8 = 244
        /// MIC element.
        public static let mic: UInt8 = 140
        /// Element ID Extension (255): the first body byte is the extension ID.
        public static let extensionElement: UInt8 = 255
        /// Extension ID of the PASN Parameters element.
        public static let pasnParameters: UInt8 = 100
        /// Extension ID of the Wrapped Data element.
        public static let wrappedData: UInt8 = 8
    }

    /// 1 (initiator), 2 (responder) or 3 (initiator).
    public var sequence: UInt16
    /// Status code (0 success).
    public var status: UInt16
    /// The elements in frame order.
    public var elements: [InformationElement]

    /// Creates a frame body.
    public init(sequence: UInt16, status: UInt16 = 0, elements: [InformationElement]) {
        self.sequence = sequence; self.status = status; self.elements = elements
    }

    /// Decodes a body; checks the algorithm (7), the sequence (1–3), every element's length, and the PASN
    /// Parameters element when present.
    public init(decoding body: ArraySlice<UInt8>) throws(NANWireError) {
        var r = ByteReader(body)
        let algorithm = try r.readLE16("PASN authentication: algorithm")
        guard algorithm == Self.algorithmPASN else {
            throw r.error(.notThisFrame, "PASN authentication: algorithm \(algorithm) is not PASN (7)")
        }
        sequence = try r.readLE16("PASN authentication: sequence")
        guard (1...3).contains(sequence) else {
            throw r.error(.outOfRange, "PASN authentication: transaction sequence \(sequence)")
        }
        status = try r.readLE16("PASN authentication: status")
        elements = try InformationElement.readList(&r, "PASN authentication")
        if elements.contains(where: { $0.id == ElementID.extensionElement && $0.body.isEmpty }) {
            throw r.error(.malformed, "PASN authentication: extension element without an extension ID")
        }
        _ = try parameters()
    }

    /// Encodes the body.
    public func encoded() throws(NANWireError) -> [UInt8] {
        var w = ByteWriter()
        w.writeLE16(Self.algorithmPASN)
        w.writeLE16(sequence)
        w.writeLE16(status)
        try InformationElement.writeList(elements, &w, "PASN authentication")
        return w.bytes
    }

    /// The body of the first element with `id`.
    public func element(_ id: UInt8) -> ArraySlice<UInt8>? { elements.first { $0.id == id }?.body }

    /// The body (after the extension ID) of the first extension element with `extensionID`.
    public func extensionElement(_ extensionID: UInt8) -> ArraySlice<UInt8>? {
        elements.first { $0.id == ElementID.extensionElement && $0.body.first == extensionID }?.body.dropFirst()
    }

    /// The RSN element's body.
    public var rsne: ArraySlice<UInt8>? { element(ElementID.rsn) }
    /// The MIC element's body.
    public var mic: ArraySlice<UInt8>? { element(ElementID.mic) }
    /// The Wrapped Data element's body (in pairing setup, the SAE commit and confirm).
    public var wrappedData: ArraySlice<UInt8>? { extensionElement(ElementID.wrappedData) }

    /// The decoded PASN Parameters element, nil when absent. The comeback-after field is read only in
    /// frame 2 (from the responder).
    public func parameters() throws(NANWireError) -> PASNParameters? {
        guard let body = extensionElement(ElementID.pasnParameters) else { return nil }
        var r = ByteReader(body)
        let value = try PASNParameters(decodingBody: &r, fromResponder: sequence == 2)
        try r.expectEnd("PASN Parameters element")
        return value
    }
}

/// The PASN Parameters element body (extension ID 100): Control (1; bit 0 comeback info, bit 1 group and
/// key), Wrapped Data Format (1; 0 none, 1 FT, 2 FILS, 3 SAE), optional comeback info (comeback-after (2)
/// in responder frames, cookie length (1), cookie), optional finite cyclic group (2) + key length (1) + key.
public struct PASNParameters: Hashable, Sendable {
    /// Wrapped data format: 0 none, 1 FT, 2 FILS shared key, 3 SAE.
    public var wrappedDataFormat: UInt8
    /// Comeback-after (TUs, responder frames only) and cookie.
    public var comeback: PairingBootstrappingAttribute.Comeback?
    /// The finite cyclic group of the ephemeral key (19 for P-256).
    public var group: UInt16?
    /// The ephemeral public key, as encoded (for P-256 a compressed or uncompressed point).
    public var publicKey: ArraySlice<UInt8>

    /// Wrapped data format SAE (3).
    public static let wrappedSAE: UInt8 = 3

    /// Creates parameters.
    public init(
        wrappedDataFormat: UInt8, comeback: PairingBootstrappingAttribute.Comeback? = nil, group: UInt16?,
        publicKey: ArraySlice<UInt8> = [][...]
    ) {
        self.wrappedDataFormat = wrappedDataFormat; self.comeback = comeback; self.group = group;
        self.publicKey = publicKey
    }

    /// Decodes the body (after the extension ID).
    public init(decodingBody r: inout ByteReader, fromResponder: Bool) throws(NANWireError) {
        let what = "PASN Parameters element"
        let control = try r.readU8("\(what): control")
        wrappedDataFormat = try r.readU8("\(what): wrapped data format")
        guard wrappedDataFormat <= 3 else {
            throw r.error(.outOfRange, "\(what): wrapped data format \(wrappedDataFormat)")
        }
        if control & 0x01 != 0 {
            let after = fromResponder ? try r.readLE16("\(what): comeback after") : nil
            comeback = .init(after: after, cookie: try r.readLV8("\(what): cookie"))
        } else {
            comeback = nil
        }
        if control & 0x02 != 0 {
            group = try r.readLE16("\(what): group")
            publicKey = try r.readLV8("\(what): public key")
        } else {
            group = nil
            publicKey = [][...]
        }
    }

    /// The element body (after the extension ID); `fromResponder` says whether comeback-after is written.
    public func encodeBody(fromResponder: Bool) throws(NANWireError) -> [UInt8] {
        let what = "PASN Parameters element"
        var w = ByteWriter()
        w.writeU8((comeback != nil ? 0x01 : 0) | (group != nil ? 0x02 : 0))
        w.writeU8(wrappedDataFormat)
        if let comeback {
            guard (comeback.after != nil) == fromResponder else {
                throw NANWireError(
                    .outOfRange, at: w.count, "\(what): comeback-after goes in responder frames, and only there")
            }
            if let after = comeback.after { w.writeLE16(after) }
            try w.writeLV8(comeback.cookie, "\(what): cookie")
        }
        if let group {
            w.writeLE16(group)
            try w.writeLV8(publicKey, "\(what): public key")
        }
        return w.bytes
    }

    /// The whole element (ID 255, extension ID 100) for a frame of `sequence`.
    public func element(sequence: UInt16) throws(NANWireError) -> InformationElement {
        let body = try encodeBody(fromResponder: sequence == 2)
        guard body.count < 255 else {
            throw NANWireError(.tooLarge, at: 0, "PASN Parameters element: \(body.count) bytes")
        }
        return InformationElement(
            id: PASNAuthenticationFrame.ElementID.extensionElement,
            body: ([PASNAuthenticationFrame.ElementID.pasnParameters] + body)[...])
    }
}

/// The IEEE 802.11 RSN key descriptor (an EAPOL-Key frame body without the EAPOL header) that a
/// Shared-Key Descriptor attribute carries for the NCS-SK 4-way handshake of a NAN data path.
///
/// Layout (multi-byte integers big-endian, as in IEEE 802.11-2020 §12.7.2): Descriptor Type (1, 2 = RSN),
/// Key Information (2), Key Length (2), Key Replay Counter (8), Key Nonce (32), EAPOL-Key IV (16), Key RSC (8),
/// Reserved (8), Key MIC (16 for NCS-SK-128, 24 for NCS-SK-256), Key Data Length (2), Key Data. The MIC length
/// is not in the bytes: it follows the cipher suite, so decoding takes it as a parameter.
public struct RSNKeyDescriptor: Hashable, Sendable {
    /// Key Information bits (the descriptor version in bits 0–2 is 0: "AKM defined", as NAN uses).
    public struct KeyInformation: OptionSet, Hashable, Sendable {
        /// The raw 16 bits.
        public let rawValue: UInt16
        /// Wraps raw bits.
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        /// Pairwise key (bit 3); NAN data paths always set it.
        public static let pairwise = KeyInformation(rawValue: 1 << 3)
        /// Install (bit 6).
        public static let install = KeyInformation(rawValue: 1 << 6)
        /// Key Ack (bit 7): set by the initiator (the authenticator's role) in messages 1 and 3.
        public static let ack = KeyInformation(rawValue: 1 << 7)
        /// Key MIC (bit 8): the MIC field is valid (messages 2, 3, 4).
        public static let mic = KeyInformation(rawValue: 1 << 8)
        /// Secure (bit 9): set in messages 3 and 4.
        public static let secure = KeyInformation(rawValue: 1 << 9)
        /// Error (bit 10).
        public static let error = KeyInformation(rawValue: 1 << 10)
        /// Request (bit 11); not used by NAN.
        public static let request = KeyInformation(rawValue: 1 << 11)
        /// Encrypted Key Data (bit 12): the key data is AES-key-wrapped under the KEK.
        public static let encryptedKeyData = KeyInformation(rawValue: 1 << 12)
        /// The descriptor version (bits 0–2); 0 means "AKM defined".
        public var descriptorVersion: UInt16 { rawValue & 0x7 }
    }

    /// Descriptor type RSN (2), the only one NAN uses.
    public static let rsnDescriptorType: UInt8 = 2
    /// Bytes before the MIC: type 1 + info 2 + length 2 + replay 8 + nonce 32 + IV 16 + RSC 8 + reserved 8.
    public static let bytesBeforeMIC = 77
    /// The MIC lengths NAN cipher suites use: 16 (HMAC-SHA-256-128) and 24 (HMAC-SHA-384-192).
    public static let micLengths: Set<Int> = [16, 24]

    /// Descriptor type (2 = RSN).
    public var descriptorType: UInt8
    /// Key Information.
    public var keyInformation: KeyInformation
    /// Key Length (NAN sends 0: the length follows from the cipher suite).
    public var keyLength: UInt16
    /// Key Replay Counter.
    public var replayCounter: UInt64
    /// Key Nonce (32 bytes).
    public var nonce: [UInt8]
    /// EAPOL-Key IV (16 bytes, zero in NAN).
    public var iv: [UInt8]
    /// Key RSC (8 bytes).
    public var rsc: [UInt8]
    /// Reserved (8 bytes).
    public var reserved: [UInt8]
    /// Key MIC (16 or 24 bytes).
    public var mic: [UInt8]
    /// Key Data (AES-key-wrapped when ``KeyInformation/encryptedKeyData`` is set).
    public var keyData: [UInt8]

    /// Creates a descriptor; nonce 32 bytes, `mic` 16 or 24 bytes (zeros until the MIC is computed).
    public init(
        keyInformation: KeyInformation, replayCounter: UInt64, nonce: [UInt8], micLength: Int,
        keyData: [UInt8] = [], keyLength: UInt16 = 0
    ) {
        descriptorType = Self.rsnDescriptorType
        self.keyInformation = keyInformation
        self.keyLength = keyLength
        self.replayCounter = replayCounter
        self.nonce = nonce
        iv = [UInt8](repeating: 0, count: 16)
        rsc = [UInt8](repeating: 0, count: 8)
        reserved = [UInt8](repeating: 0, count: 8)
        mic = [UInt8](repeating: 0, count: micLength)
        self.keyData = keyData
    }

    /// Decodes a descriptor whose MIC is `micLength` bytes (16 or 24). Total: bad input ends in a
    /// `NANWireError` (truncated, overlong key data, unknown descriptor type, trailing bytes).
    public init(decoding bytes: ArraySlice<UInt8>, micLength: Int) throws(NANWireError) {
        let what = "Shared-Key Descriptor: RSN key descriptor"
        guard Self.micLengths.contains(micLength) else {
            throw NANWireError(.outOfRange, at: 0, "\(what): MIC length \(micLength) (16 or 24)")
        }
        var reader = ByteReader(bytes, origin: bytes.startIndex)
        descriptorType = try reader.readU8("\(what): descriptor type")
        guard descriptorType == Self.rsnDescriptorType else {
            throw NANWireError(.outOfRange, at: 0, "\(what): descriptor type \(descriptorType), expected 2 (RSN)")
        }
        keyInformation = KeyInformation(rawValue: try reader.readBE16("\(what): key information"))
        keyLength = try reader.readBE16("\(what): key length")
        var counter: UInt64 = 0
        for byte in try reader.readBytes(8, "\(what): replay counter") { counter = counter << 8 | UInt64(byte) }
        replayCounter = counter
        nonce = Array(try reader.readBytes(32, "\(what): key nonce"))
        iv = Array(try reader.readBytes(16, "\(what): key IV"))
        rsc = Array(try reader.readBytes(8, "\(what): key RSC"))
        reserved = Array(try reader.readBytes(8, "\(what): reserved"))
        mic = Array(try reader.readBytes(micLength, "\(what): key MIC"))
        let dataLength = Int(try reader.readBE16("\(what): key data length"))
        guard dataLength <= reader.remaining else {
            throw NANWireError(
                .overlong, at: reader.offset - 2,
                "\(what): key data length \(dataLength), \(reader.remaining) bytes left")
        }
        keyData = Array(try reader.readBytes(dataLength, "\(what): key data"))
        guard reader.isAtEnd else {
            throw NANWireError(.overlong, at: reader.offset, "\(what): \(reader.remaining) bytes after the key data")
        }
    }

    /// The encoded descriptor; throws when a fixed-size field has the wrong length or the key data is
    /// too long for its 16-bit length.
    public func encoded() throws(NANWireError) -> [UInt8] {
        let what = "Shared-Key Descriptor: RSN key descriptor"
        guard nonce.count == 32, iv.count == 16, rsc.count == 8, reserved.count == 8,
            Self.micLengths.contains(mic.count)
        else {
            throw NANWireError(.outOfRange, at: 0, "\(what): nonce 32, IV 16, RSC 8, reserved 8 and MIC 16 or 24 bytes")
        }
        guard keyData.count <= Int(UInt16.max) else {
            throw NANWireError(.tooLarge, at: 0, "\(what): key data of \(keyData.count) bytes")
        }
        var writer = ByteWriter()
        writer.writeU8(descriptorType)
        writer.writeBE16(keyInformation.rawValue)
        writer.writeBE16(keyLength)
        for shift in stride(from: 56, through: 0, by: -8) {
            writer.writeU8(UInt8(truncatingIfNeeded: replayCounter >> UInt64(shift)))
        }
        writer.writeBytes(nonce)
        writer.writeBytes(iv)
        writer.writeBytes(rsc)
        writer.writeBytes(reserved)
        writer.writeBytes(mic)
        writer.writeBE16(UInt16(keyData.count))
        writer.writeBytes(keyData)
        return writer.bytes
    }
}

extension SharedKeyDescriptorAttribute {
    /// Creates the attribute around an encoded RSN key descriptor.
    public init(publishID: InstanceID, descriptor: RSNKeyDescriptor) throws(NANWireError) {
        self.init(publishID: publishID, keyDescriptor: ArraySlice(try descriptor.encoded()))
    }

    /// The carried RSN key descriptor, decoded with the cipher suite's MIC length (16 or 24).
    public func decodedKeyDescriptor(micLength: Int) throws(NANWireError) -> RSNKeyDescriptor {
        try RSNKeyDescriptor(decoding: keyDescriptor, micLength: micLength)
    }

    /// The carried RSN key descriptor for a reader that may not know the cipher suite (a frame's Cipher
    /// Suite Info attribute names it in the request and response, not in the confirm or key install).
    /// With a suite that has a key descriptor, its MIC length; else the one MIC length (16 or 24) the
    /// bytes decode with.
    /// - Throws: the decoding error when neither length fits, or a `malformed` error when both do and
    ///   nothing tells them apart.
    public func decodedKeyDescriptor(suite: NANCipherSuite?) throws(NANWireError) -> RSNKeyDescriptor {
        if let length = suite?.keyDescriptorMICLength { return try decodedKeyDescriptor(micLength: length) }
        let short = Result { () throws(NANWireError) -> RSNKeyDescriptor in try decodedKeyDescriptor(micLength: 16) }
        let long = Result { () throws(NANWireError) -> RSNKeyDescriptor in try decodedKeyDescriptor(micLength: 24) }
        switch (short, long) {
        case (.success(let descriptor), .failure): return descriptor
        case (.failure, .success(let descriptor)): return descriptor
        case (.failure(let error), .failure): throw error
        case (.success, .success):
            throw NANWireError(
                .malformed, at: 0, "Shared-Key Descriptor: the key descriptor fits both a 16- and a 24-byte MIC")
        }
    }
}

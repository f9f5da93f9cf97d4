internal import NANCrypto

/// The keys of a connection's datagrams: AES-256-GCM, one key and nonce salt per direction, derived from
/// 72 bytes of keying material. Under TLS the material is exported from the TLS session
/// (`SSL_export_keying_material`, label ``exporterLabel``, context: both offers), so only the two ends
/// know it; over plain TCP it is HKDF-SHA-256 of both offers' random bytes, which travelled in the clear:
/// it keeps stray and off-path datagrams out, but whoever reads the TCP connection could forge or read
/// datagrams (as it could the messages).
struct DatagramKeys: Sendable {
    static let exporterLabel = "EXPORTER-waware-datagrams-v1"
    static let materialSize = 72

    let sendKey: [UInt8]
    let sendSalt: [UInt8]
    let receiveKey: [UInt8]
    let receiveSalt: [UInt8]
    /// `AES-256-GCM, keys exported from TLS 1.3` or `AES-256-GCM, keys from the plain-TCP offers (no secrecy)`.
    let protection: String

    /// The keys for one side: the initiator sends with the first key and salt, the responder with the second.
    init(material: [UInt8], isInitiator: Bool, protection: String) throws(WAError) {
        guard material.count == Self.materialSize else {
            throw WAError(
                .connectionFailed,
                message: "datagram keying material of \(material.count) bytes, not \(Self.materialSize)")
        }
        let first = Array(material[0..<32]), second = Array(material[32..<64])
        let firstSalt = Array(material[64..<68]), secondSalt = Array(material[68..<72])
        (sendKey, sendSalt) = isInitiator ? (first, firstSalt) : (second, secondSalt)
        (receiveKey, receiveSalt) = isInitiator ? (second, secondSalt) : (first, firstSalt)
        self.protection = protection
    }

    /// The context both ends use: the initiator's offer, then the responder's.
    static func context(initiator: DatagramOffer, responder: DatagramOffer) -> [UInt8] {
        initiator.encoded + responder.encoded
    }

    /// Keying material for plain TCP: HKDF-SHA-256 over both offers' random bytes.
    static func plainMaterial(initiator: DatagramOffer, responder: DatagramOffer) throws(WAError) -> [UInt8] {
        do {
            let key = try HKDF.extract(
                .sha256, salt: Array("waware datagrams v1 plain".utf8),
                inputKeyMaterial: initiator.random + responder.random)
            return try HKDF.expand(
                .sha256, pseudorandomKey: key, info: context(initiator: initiator, responder: responder),
                length: materialSize)
        } catch {
            throw WAError(.connectionFailed, message: "deriving the datagram keys failed: \(error)", underlying: error)
        }
    }
}

/// Why a received datagram was dropped.
enum DatagramRejection: Error, Hashable, Sendable {
    /// Too short, or not this protocol's version.
    case malformed
    /// Longer than this side accepts.
    case tooLarge
    /// Its sequence number was seen already, or is too old to tell.
    case replayed
    /// The tag does not match: another sender, other keys, or altered bytes.
    case unauthenticated
}

/// One datagram on the wire: a version byte (`0xD1`), the sender's 64-bit sequence number (big-endian),
/// then the AES-GCM ciphertext and tag. The nonce is the direction's 4-byte salt and the sequence number;
/// the first 9 bytes are authenticated too.
enum DatagramPacket {
    static let version: UInt8 = 0xD1
    static let headerSize = 9
    /// Bytes added to a payload.
    static let overhead = headerSize + AESGCM.tagSize

    static func header(_ sequence: UInt64) -> [UInt8] {
        [version] + (0..<8).map { UInt8(truncatingIfNeeded: sequence >> (56 - 8 * $0)) }
    }

    static func nonce(salt: [UInt8], sequence: UInt64) -> [UInt8] {
        salt + Array(header(sequence).dropFirst())
    }
}

/// Seals this side's datagrams, numbering them from 0 (a nonce is never used twice under a key).
struct DatagramSealer: Sendable {
    private let aead: AESGCM
    private let salt: [UInt8]
    private(set) var nextSequence: UInt64 = 0

    init(key: [UInt8], salt: [UInt8]) throws(WAError) {
        do { aead = try AESGCM(key: key) } catch {
            throw WAError(.connectionFailed, message: "datagram key: \(error)", underlying: error)
        }
        self.salt = salt
    }

    mutating func seal(_ payload: [UInt8]) throws(WAError) -> [UInt8] {
        guard nextSequence < UInt64.max else {
            throw WAError(
                .connectionTerminated, message: "this connection sent every datagram sequence number; make a new one")
        }
        let sequence = nextSequence
        nextSequence += 1
        let header = DatagramPacket.header(sequence)
        do {
            let sealed = try aead.seal(
                payload, nonce: DatagramPacket.nonce(salt: salt, sequence: sequence), authenticating: header)
            return header + sealed
        } catch {
            throw WAError(.connectionFailed, message: "sealing a datagram failed: \(error)", underlying: error)
        }
    }
}

/// Opens the peer's datagrams: checks the size, the replay window, then the tag (total on any input).
struct DatagramOpener: Sendable {
    private let aead: AESGCM
    private let salt: [UInt8]
    private let maximumSize: Int
    private var window = ReplayWindow()

    init(key: [UInt8], salt: [UInt8], maximumSize: Int) throws(WAError) {
        do { aead = try AESGCM(key: key) } catch {
            throw WAError(.connectionFailed, message: "datagram key: \(error)", underlying: error)
        }
        self.salt = salt
        self.maximumSize = maximumSize
    }

    mutating func open(_ packet: [UInt8]) -> Result<[UInt8], DatagramRejection> {
        guard packet.count >= DatagramPacket.overhead, packet[0] == DatagramPacket.version else {
            return .failure(.malformed)
        }
        guard packet.count - DatagramPacket.overhead <= maximumSize else { return .failure(.tooLarge) }
        let sequence = packet[1..<9].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard window.isFresh(sequence) else { return .failure(.replayed) }
        let header = Array(packet.prefix(DatagramPacket.headerSize))
        guard
            let payload = try? aead.open(
                Array(packet.dropFirst(DatagramPacket.headerSize)),
                nonce: DatagramPacket.nonce(salt: salt, sequence: sequence), authenticating: header)
        else {
            return .failure(.unauthenticated)
        }
        window.record(sequence)
        return .success(payload)
    }
}

/// The sequence numbers seen lately (the highest and the 63 before it, as in IPsec's anti-replay window):
/// a number seen before, or older than the window, is a replay. Datagrams may arrive out of order within it.
struct ReplayWindow: Hashable, Sendable {
    static let width: UInt64 = 64
    private(set) var highest: UInt64?
    private var seen: UInt64 = 0

    func isFresh(_ sequence: UInt64) -> Bool {
        guard let highest else { return true }
        if sequence > highest { return true }
        let age = highest - sequence
        return age < Self.width && seen & (1 << age) == 0
    }

    /// Records an authenticated sequence number (after ``isFresh(_:)`` said yes).
    mutating func record(_ sequence: UInt64) {
        guard let current = highest else {
            highest = sequence
            seen = 1
            return
        }
        if sequence > current {
            let shift = sequence - current
            seen = shift >= Self.width ? 1 : (seen << shift) | 1
            highest = sequence
        } else {
            seen |= 1 << (current - sequence)
        }
    }
}

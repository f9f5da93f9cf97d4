/// An ephemeral P-256 (group 19) key pair for PASN's Diffie–Hellman exchange (IEEE 802.11-2024 §12.13):
/// a random private scalar in [1, r), its public point, and the shared secret with a peer's public key,
/// all computed by libcrypto's EC and BIGNUM. Holds a secret: never printed.
public struct P256EphemeralKey: Sendable, CustomStringConvertible {
    private let privateScalar: [UInt8]
    /// The public point's x coordinate, 32 bytes big-endian.
    public let publicX: [UInt8]
    /// The public point's y coordinate, 32 bytes big-endian.
    public let publicY: [UInt8]

    /// A fresh key from libcrypto's CSPRNG.
    public init() throws(CryptoError) {
        let curve = try P256Curve()
        let one = try BigNumber(word: 1)
        let scalar = try curve.add(curve.random(below: curve.sub(curve.order, one)), one)
        try self.init(privateKey: scalar.bytes(length: 32))
    }

    /// The key with the given private scalar (1 ≤ d < r), for known-answer tests.
    init(privateKey: [UInt8]) throws(CryptoError) {
        let curve = try P256Curve()
        let d = try BigNumber(bytes: privateKey)
        guard !d.isZero, d.compare(curve.order) < 0 else { throw CryptoError(.rejectedPeerValue, "P-256: private key out of range") }
        let point = try curve.coordinates(curve.multiplyGenerator(d))
        privateScalar = try d.bytes(length: 32)
        publicX = try point.x.bytes(length: 32)
        publicY = try point.y.bytes(length: 32)
    }

    /// The public key in the compressed form of RFC 5480 §2.2 (0x02 or 0x03 by y's parity, then x), as
    /// the PASN Parameters element carries it.
    public var compressedPublicKey: [UInt8] { [publicY[31] & 1 == 0 ? 0x02 : 0x03] + publicX }

    /// The shared secret DHss: the x coordinate (32 bytes) of d · Q, Q the peer's public key given as
    /// 0x02/0x03 ‖ x or 0x04 ‖ x ‖ y. Throws for another encoding, a point not on the curve, or the identity.
    public func sharedSecret(peerPublicKey encoded: some Collection<UInt8>) throws(CryptoError) -> [UInt8] {
        let key = Array(encoded)
        let curve = try P256Curve()
        let peer: P256Curve.Point
        switch (key.first, key.count) {
        case (0x02, 33), (0x03, 33):
            peer = try curve.point(x: BigNumber(bytes: Array(key[1..<33])), yOdd: key[0] == 0x03)
        case (0x04, 65):
            peer = try curve.point(x: BigNumber(bytes: Array(key[1..<33])), y: BigNumber(bytes: Array(key[33..<65])))
        default:
            throw CryptoError(.invalidLength, "P-256 public key: \(key.count) bytes starting \(key.first.map { String($0, radix: 16) } ?? "none")")
        }
        let shared = try curve.multiply(peer, BigNumber(bytes: privateScalar))
        guard !curve.isAtInfinity(shared) else { throw CryptoError(.rejectedPeerValue, "P-256: shared point is the identity") }
        return try curve.coordinates(shared).x.bytes(length: 32)
    }

    /// Redacted.
    public var description: String { "P256EphemeralKey(redacted)" }
}

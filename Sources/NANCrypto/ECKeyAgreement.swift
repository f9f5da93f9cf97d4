/// An ephemeral key pair on P-256 (group 19) or P-384 (group 20) for PASN's Diffie–Hellman exchange
/// (IEEE 802.11-2024 §12.13): a random private scalar in [1, r), its public point, and the shared secret
/// with a peer's public key, all computed by libcrypto's EC and BIGNUM. Holds a secret: never printed.
public struct ECEphemeralKey: Sendable, CustomStringConvertible {
    /// The curve.
    public let group: ECGroup
    private let privateScalar: [UInt8]
    /// The public point's x coordinate, big-endian, the group's length.
    public let publicX: [UInt8]
    /// The public point's y coordinate, big-endian, the group's length.
    public let publicY: [UInt8]

    /// A fresh key from libcrypto's CSPRNG.
    public init(group: ECGroup = .p256) throws(CryptoError) {
        let curve = try ECCurve(group)
        let one = try BigNumber(word: 1)
        let scalar = try curve.add(curve.random(below: curve.sub(curve.order, one)), one)
        try self.init(group: group, privateKey: scalar.bytes(length: group.length))
    }

    /// The key with the given private scalar (1 ≤ d < r), for known-answer tests.
    init(group: ECGroup = .p256, privateKey: [UInt8]) throws(CryptoError) {
        let curve = try ECCurve(group)
        let d = try BigNumber(bytes: privateKey)
        guard !d.isZero, d.compare(curve.order) < 0 else {
            throw CryptoError(.rejectedPeerValue, "\(group): private key out of range")
        }
        let point = try curve.coordinates(curve.multiplyGenerator(d))
        self.group = group
        privateScalar = try d.bytes(length: group.length)
        publicX = try point.x.bytes(length: group.length)
        publicY = try point.y.bytes(length: group.length)
    }

    /// The public key in the compressed form of RFC 5480 §2.2 (0x02 or 0x03 by y's parity, then x), as
    /// the PASN Parameters element carries it.
    public var compressedPublicKey: [UInt8] { [publicY[group.length - 1] & 1 == 0 ? 0x02 : 0x03] + publicX }

    /// The shared secret DHss: the x coordinate (the group's length) of d · Q, Q the peer's public key
    /// given as 0x02/0x03 ‖ x or 0x04 ‖ x ‖ y on the same curve. Throws for another encoding or length, a
    /// point not on the curve, or the identity.
    public func sharedSecret(peerPublicKey encoded: some Collection<UInt8>) throws(CryptoError) -> [UInt8] {
        let key = Array(encoded)
        let curve = try ECCurve(group)
        let n = group.length
        let peer: ECCurve.Point
        switch (key.first, key.count) {
        case (0x02, 1 + n), (0x03, 1 + n):
            peer = try curve.point(x: BigNumber(bytes: Array(key[1...n])), yOdd: key[0] == 0x03)
        case (0x04, 1 + 2 * n):
            peer = try curve.point(x: BigNumber(bytes: Array(key[1...n])), y: BigNumber(bytes: Array(key[(n + 1)...])))
        default:
            throw CryptoError(
                .invalidLength,
                "\(group) public key: \(key.count) bytes starting \(key.first.map { String($0, radix: 16) } ?? "none")")
        }
        let shared = try curve.multiply(peer, BigNumber(bytes: privateScalar))
        guard !curve.isAtInfinity(shared) else {
            throw CryptoError(.rejectedPeerValue, "\(group): shared point is the identity")
        }
        return try curve.coordinates(shared).x.bytes(length: n)
    }

    /// Redacted.
    public var description: String { "ECEphemeralKey(\(group), redacted)" }
}

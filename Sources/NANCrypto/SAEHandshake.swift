/// An SAE commit on P-256 (IEEE 802.11-2020 §12.4.7.4): the group (19), the commit scalar and the commit
/// element, as they travel (in PASN, inside the wrapped data of the first two frames).
public struct SAECommit: Hashable, Sendable {
    /// IKE group 19, NIST P-256: the only group waware offers.
    public static let groupP256: UInt16 = 19
    /// The finite cyclic group.
    public var group: UInt16
    /// The commit scalar, 32 bytes big-endian.
    public var scalar: [UInt8]
    /// The commit element: x ‖ y, 32 bytes each, big-endian.
    public var element: [UInt8]

    /// Creates a commit from its fields.
    public init(group: UInt16 = SAECommit.groupP256, scalar: [UInt8], element: [UInt8]) {
        self.group = group; self.scalar = scalar; self.element = element
    }

    /// Decodes group (2, little-endian), scalar (32) and element (64) from the start of `bytes`; what follows
    /// (password identifier, rejected groups, token elements) is returned as `trailing`. Total: a short
    /// input or another group is a typed error.
    public static func decode(_ bytes: some Collection<UInt8>) throws(CryptoError) -> (commit: SAECommit, trailing: [UInt8]) {
        let b = Array(bytes)
        guard b.count >= 2 else { throw CryptoError(.invalidLength, "SAE commit: \(b.count) bytes") }
        let group = UInt16(b[0]) | UInt16(b[1]) << 8
        guard group == groupP256 else { throw CryptoError(.rejectedPeerValue, "SAE commit: unsupported group \(group)") }
        guard b.count >= 98 else { throw CryptoError(.invalidLength, "SAE commit: \(b.count) bytes, 98 needed for group 19") }
        return (SAECommit(group: group, scalar: Array(b[2..<34]), element: Array(b[34..<98])), Array(b[98...]))
    }

    /// group (LE16) ‖ scalar ‖ element.
    public func encoded() -> [UInt8] { [UInt8(group & 0xFF), UInt8(group >> 8)] + scalar + element }
}

/// The keys SAE yields: KCK (32 bytes, keys the confirms), PMK (32 bytes; in NAN pairing the NPK comes
/// from PASN over it) and the PMKID (16 bytes). Never printed.
public struct SAEKeys: Sendable, CustomStringConvertible {
    /// Key confirmation key.
    public let kck: [UInt8]
    /// Pairwise master key.
    public let pmk: [UInt8]
    /// PMK identifier: the first 128 bits of (scalar + peer scalar) mod r.
    public let pmkid: [UInt8]
    /// Redacted.
    public var description: String { "SAEKeys(redacted)" }
}

/// One side of an SAE exchange on P-256 (IEEE 802.11-2020 §12.4.5): make a commit, take the peer's commit
/// to derive KCK, PMK and PMKID, then exchange confirms. A pure value over libcrypto's EC and BIGNUM; no
/// I/O, no timers (PASN and the pairing state machine carry it). Holds secrets: never printed.
public struct SAEHandshake: Sendable, CustomStringConvertible {
    private let pwe: SAEPasswordElement
    private let rand: [UInt8]
    /// Our commit, to send.
    public let commit: SAECommit
    /// The peer's commit, once received.
    public private(set) var peerCommit: SAECommit?
    /// The derived keys, once the peer's commit is processed.
    public private(set) var keys: SAEKeys?

    /// A new exchange with fresh random rand and mask (1 < rand, mask < r; scalar = (rand + mask) mod r
    /// > 1; element = −(mask · PWE)).
    public init(element: SAEPasswordElement) throws(CryptoError) {
        let curve = try P256Curve()
        let two = try BigNumber(word: 2)
        let span = try curve.sub(curve.order, two)
        while true {
            let rand = try curve.add(curve.random(below: span), two)
            let mask = try curve.add(curve.random(below: span), two)
            let scalar = try curve.addMod(rand, mask, curve.order)
            guard scalar.compare(try BigNumber(word: 1)) > 0 else { continue }
            self = try SAEHandshake(element: element, rand: rand.bytes(length: 32), mask: mask.bytes(length: 32))
            return
        }
    }

    /// An exchange with given rand and mask, for known-answer tests.
    init(element: SAEPasswordElement, rand: [UInt8], mask: [UInt8]) throws(CryptoError) {
        let curve = try P256Curve()
        pwe = element
        self.rand = rand
        let scalar = try curve.addMod(BigNumber(bytes: rand), BigNumber(bytes: mask), curve.order)
        let pwePoint = try curve.point(x: BigNumber(bytes: element.x), y: BigNumber(bytes: element.y))
        let e = try curve.coordinates(curve.invert(curve.multiply(pwePoint, BigNumber(bytes: mask))))
        commit = SAECommit(scalar: try scalar.bytes(length: 32), element: try e.x.bytes(length: 32) + e.y.bytes(length: 32))
    }

    /// Processes the peer's commit: checks 1 < scalar < r, the element on the curve and not the identity,
    /// and that it is not our own commit reflected; then K = rand · (scalar_peer · PWE + element_peer),
    /// k = x(K), keyseed = HMAC-SHA-256(0³², k), KCK ‖ PMK = KDF-SHA-256-512(keyseed, "SAE KCK and PMK",
    /// (scalar + scalar_peer) mod r). Returns the keys; the state is unchanged on error.
    @discardableResult
    public mutating func receive(_ peer: SAECommit) throws(CryptoError) -> SAEKeys {
        guard keys == nil else { throw CryptoError(.rejectedPeerValue, "SAE: a commit was already processed") }
        guard peer.group == SAECommit.groupP256, peer.scalar.count == 32, peer.element.count == 64 else {
            throw CryptoError(.invalidLength, "SAE commit: wrong group or field lengths")
        }
        let curve = try P256Curve()
        let peerScalar = try BigNumber(bytes: peer.scalar)
        guard peerScalar.compare(try BigNumber(word: 1)) > 0, peerScalar.compare(curve.order) < 0 else {
            throw CryptoError(.rejectedPeerValue, "SAE commit: scalar out of range")
        }
        let peerElement = try curve.point(x: BigNumber(bytes: Array(peer.element[0..<32])),
                                          y: BigNumber(bytes: Array(peer.element[32..<64])))
        guard !(ConstantTime.equal(peer.scalar, commit.scalar) && ConstantTime.equal(peer.element, commit.element)) else {
            throw CryptoError(.rejectedPeerValue, "SAE commit: our own commit reflected")
        }
        let pwePoint = try curve.point(x: BigNumber(bytes: pwe.x), y: BigNumber(bytes: pwe.y))
        let sum = try curve.add(curve.multiply(pwePoint, peerScalar), peerElement)
        let bigK = try curve.multiply(sum, BigNumber(bytes: rand))
        guard !curve.isAtInfinity(bigK) else { throw CryptoError(.rejectedPeerValue, "SAE: K is the identity") }
        let k = try curve.coordinates(bigK).x.bytes(length: 32)
        let keyseed = try HKDF.extract(.sha256, salt: [UInt8](repeating: 0, count: 32), inputKeyMaterial: k)
        let context = try curve.addMod(BigNumber(bytes: commit.scalar), peerScalar, curve.order).bytes(length: 32)
        let material = try IEEE80211KDF.derive(.sha256, key: keyseed, label: "SAE KCK and PMK", context: context, length: 64)
        let derived = SAEKeys(kck: Array(material[0..<32]), pmk: Array(material[32..<64]), pmkid: Array(context[0..<16]))
        peerCommit = peer
        keys = derived
        return derived
    }

    /// Our confirm: HMAC-SHA-256(KCK, send-confirm (LE16) ‖ scalar ‖ element ‖ peer scalar ‖ peer element).
    public func confirm(sendConfirm: UInt16) throws(CryptoError) -> [UInt8] {
        guard let keys, let peerCommit else { throw CryptoError(.rejectedPeerValue, "SAE: confirm before the peer's commit") }
        return try Self.confirmValue(keys.kck, sendConfirm, commit, peerCommit)
    }

    /// Checks the peer's confirm (its send-confirm, its commit first), in constant time.
    public func verify(peerConfirm: [UInt8], peerSendConfirm: UInt16) throws(CryptoError) {
        guard let keys, let peerCommit else { throw CryptoError(.rejectedPeerValue, "SAE: confirm before the peer's commit") }
        let expected = try Self.confirmValue(keys.kck, peerSendConfirm, peerCommit, commit)
        guard ConstantTime.equal(expected, peerConfirm) else { throw CryptoError(.rejectedPeerValue, "SAE: peer's confirm does not verify") }
    }

    private static func confirmValue(_ kck: [UInt8], _ sc: UInt16, _ first: SAECommit, _ second: SAECommit) throws(CryptoError) -> [UInt8] {
        try HMAC.sha256(key: kck, message: [UInt8(sc & 0xFF), UInt8(sc >> 8)] + first.scalar + first.element + second.scalar + second.element)
    }

    /// Redacted.
    public var description: String { "SAEHandshake(P-256, redacted)" }
}

/// An SAE commit (IEEE 802.11-2020 §12.4.7.4): the group (19 or 20), the commit scalar and the commit
/// element, as they travel (in PASN, inside the wrapped data of the first two frames).
public struct SAECommit: Hashable, Sendable {
    /// IKE group 19, NIST P-256 (NCS-PK-PASN-128).
    public static let groupP256: UInt16 = 19
    /// IKE group 20, NIST P-384 (NCS-PK-PASN-256).
    public static let groupP384: UInt16 = 20
    /// The finite cyclic group.
    public var group: UInt16
    /// The commit scalar, big-endian, the group's length (32 or 48 bytes).
    public var scalar: [UInt8]
    /// The commit element: x ‖ y, each the group's length, big-endian.
    public var element: [UInt8]

    /// Creates a commit from its fields.
    public init(group: UInt16 = SAECommit.groupP256, scalar: [UInt8], element: [UInt8]) {
        self.group = group; self.scalar = scalar; self.element = element
    }

    /// Decodes group (2, little-endian), scalar and element (their lengths fixed by the group) from the
    /// start of `bytes`; what follows (password identifier, rejected groups, token elements) is returned as
    /// `trailing`. Total: a short input or a group other than 19 and 20 is a typed error.
    public static func decode(
        _ bytes: some Collection<UInt8>
    ) throws(CryptoError) -> (commit: SAECommit, trailing: [UInt8]) {
        let b = Array(bytes)
        guard b.count >= 2 else { throw CryptoError(.invalidLength, "SAE commit: \(b.count) bytes") }
        let group = UInt16(b[0]) | UInt16(b[1]) << 8
        guard let curve = ECGroup(ikeGroup: group) else {
            throw CryptoError(.rejectedPeerValue, "SAE commit: unsupported group \(group)")
        }
        let n = curve.length
        guard b.count >= 2 + 3 * n else {
            throw CryptoError(.invalidLength, "SAE commit: \(b.count) bytes, \(2 + 3 * n) needed for group \(group)")
        }
        return (
            SAECommit(group: group, scalar: Array(b[2..<(2 + n)]), element: Array(b[(2 + n)..<(2 + 3 * n)])),
            Array(b[(2 + 3 * n)...])
        )
    }

    /// group (LE16) ‖ scalar ‖ element.
    public func encoded() -> [UInt8] { [UInt8(group & 0xFF), UInt8(group >> 8)] + scalar + element }
}

/// The keys SAE yields: KCK (the group's hash length: 32 bytes on P-256, 48 on P-384; keys the confirms),
/// PMK (32 bytes, as AKM 00-0F-AC:8 fixes it; in NAN pairing it is the NPK) and the PMKID (16 bytes).
/// Never printed.
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

/// One side of an SAE exchange on P-256 or P-384 (IEEE 802.11-2020 §12.4.5): make a commit, take the
/// peer's commit to derive KCK, PMK and PMKID, then exchange confirms. The hash is the group's (SHA-256 on
/// P-256, SHA-384 on P-384, as for a hash-to-element PWE; NAN pairing uses no other). A pure value over
/// libcrypto's EC and BIGNUM; no I/O, no timers (PASN and the pairing state machine carry it). Holds
/// secrets: never printed.
public struct SAEHandshake: Sendable, CustomStringConvertible {
    private let pwe: SAEPasswordElement
    private let rand: [UInt8]
    /// The curve (the password element's).
    public var group: ECGroup { pwe.group }
    /// Our commit, to send.
    public let commit: SAECommit
    /// The peer's commit, once received.
    public private(set) var peerCommit: SAECommit?
    /// The derived keys, once the peer's commit is processed.
    public private(set) var keys: SAEKeys?

    /// A new exchange with fresh random rand and mask (1 < rand, mask < r; scalar = (rand + mask) mod r
    /// > 1; element = −(mask · PWE)).
    public init(element: SAEPasswordElement) throws(CryptoError) {
        let curve = try ECCurve(element.group)
        let two = try BigNumber(word: 2)
        let span = try curve.sub(curve.order, two)
        while true {
            let rand = try curve.add(curve.random(below: span), two)
            let mask = try curve.add(curve.random(below: span), two)
            let scalar = try curve.addMod(rand, mask, curve.order)
            guard scalar.compare(try BigNumber(word: 1)) > 0 else { continue }
            self = try SAEHandshake(
                element: element, rand: rand.bytes(length: curve.length), mask: mask.bytes(length: curve.length))
            return
        }
    }

    /// An exchange with given rand and mask, for known-answer tests.
    init(element: SAEPasswordElement, rand: [UInt8], mask: [UInt8]) throws(CryptoError) {
        let curve = try ECCurve(element.group)
        let n = curve.length
        pwe = element
        self.rand = rand
        let scalar = try curve.addMod(BigNumber(bytes: rand), BigNumber(bytes: mask), curve.order)
        let pwePoint = try curve.point(x: BigNumber(bytes: element.x), y: BigNumber(bytes: element.y))
        let e = try curve.coordinates(curve.invert(curve.multiply(pwePoint, BigNumber(bytes: mask))))
        commit = SAECommit(
            group: element.group.ikeGroup, scalar: try scalar.bytes(length: n),
            element: try e.x.bytes(length: n) + e.y.bytes(length: n))
    }

    /// Processes the peer's commit: checks its group is ours, 1 < scalar < r, the element on the curve and
    /// not the identity, and that it is not our own commit reflected; then K = rand · (scalar_peer · PWE +
    /// element_peer), k = x(K), keyseed = HMAC-H(0^hlen, k), KCK ‖ PMK = KDF-H(keyseed, "SAE KCK and PMK",
    /// (scalar + scalar_peer) mod r, hlen + 32 bytes), H the group's hash. Returns the keys; the state is
    /// unchanged on error.
    @discardableResult
    public mutating func receive(_ peer: SAECommit) throws(CryptoError) -> SAEKeys {
        guard keys == nil else { throw CryptoError(.rejectedPeerValue, "SAE: a commit was already processed") }
        let n = group.length, hash = group.hash
        guard peer.group == group.ikeGroup, peer.scalar.count == n, peer.element.count == 2 * n else {
            throw CryptoError(
                .invalidLength, "SAE commit: group \(peer.group) or field lengths, expected group \(group.ikeGroup)")
        }
        let curve = try ECCurve(group)
        let peerScalar = try BigNumber(bytes: peer.scalar)
        guard peerScalar.compare(try BigNumber(word: 1)) > 0, peerScalar.compare(curve.order) < 0 else {
            throw CryptoError(.rejectedPeerValue, "SAE commit: scalar out of range")
        }
        let peerElement = try curve.point(
            x: BigNumber(bytes: Array(peer.element[0..<n])),
            y: BigNumber(bytes: Array(peer.element[n..<(2 * n)])))
        guard !(ConstantTime.equal(peer.scalar, commit.scalar) && ConstantTime.equal(peer.element, commit.element))
        else {
            throw CryptoError(.rejectedPeerValue, "SAE commit: our own commit reflected")
        }
        let pwePoint = try curve.point(x: BigNumber(bytes: pwe.x), y: BigNumber(bytes: pwe.y))
        let sum = try curve.add(curve.multiply(pwePoint, peerScalar), peerElement)
        let bigK = try curve.multiply(sum, BigNumber(bytes: rand))
        guard !curve.isAtInfinity(bigK) else { throw CryptoError(.rejectedPeerValue, "SAE: K is the identity") }
        let k = try curve.coordinates(bigK).x.bytes(length: n)
        let keyseed = try HKDF.extract(hash, salt: [UInt8](repeating: 0, count: hash.outputSize), inputKeyMaterial: k)
        let context = try curve.addMod(BigNumber(bytes: commit.scalar), peerScalar, curve.order).bytes(length: n)
        let kckLength = hash.outputSize
        let material = try IEEE80211KDF.derive(
            hash, key: keyseed, label: "SAE KCK and PMK", context: context, length: kckLength + 32)
        let derived = SAEKeys(
            kck: Array(material[0..<kckLength]), pmk: Array(material[kckLength...]), pmkid: Array(context[0..<16]))
        peerCommit = peer
        keys = derived
        return derived
    }

    /// Our confirm (the group's hash length: 32 or 48 bytes): HMAC-H(KCK, send-confirm (LE16) ‖ scalar ‖
    /// element ‖ peer scalar ‖ peer element).
    public func confirm(sendConfirm: UInt16) throws(CryptoError) -> [UInt8] {
        guard let keys, let peerCommit else {
            throw CryptoError(.rejectedPeerValue, "SAE: confirm before the peer's commit")
        }
        return try Self.confirmValue(group.hash, keys.kck, sendConfirm, commit, peerCommit)
    }

    /// Checks the peer's confirm (its send-confirm, its commit first), in constant time.
    public func verify(peerConfirm: [UInt8], peerSendConfirm: UInt16) throws(CryptoError) {
        guard let keys, let peerCommit else {
            throw CryptoError(.rejectedPeerValue, "SAE: confirm before the peer's commit")
        }
        let expected = try Self.confirmValue(group.hash, keys.kck, peerSendConfirm, peerCommit, commit)
        guard ConstantTime.equal(expected, peerConfirm) else {
            throw CryptoError(.rejectedPeerValue, "SAE: peer's confirm does not verify")
        }
    }

    private static func confirmValue(
        _ hash: HashFunction, _ kck: [UInt8], _ sc: UInt16, _ first: SAECommit, _ second: SAECommit
    ) throws(CryptoError) -> [UInt8] {
        try HMAC.compute(
            hash, key: kck,
            message: [UInt8(sc & 0xFF), UInt8(sc >> 8)] + first.scalar + first.element + second.scalar + second.element)
    }

    /// Redacted.
    public var description: String { "SAEHandshake(\(group), redacted)" }
}

public import NANWire

extension CryptoError.Code {
    /// A curve point that is not on the curve, is the identity, or has out-of-range coordinates.
    public static let invalidPoint = CryptoError.Code("invalid point")
    /// A peer's SAE value that the protocol refuses: a scalar out of range, a reflected commit, a confirm
    /// that does not verify.
    public static let rejectedPeerValue = CryptoError.Code("rejected peer value")
}

/// SAE's password token PT on P-256 or P-384 (IEEE 802.11-2020 §12.4.4.2.3, hash-to-element), derived
/// once per password, SSID and group. Wi-Fi Aware 4.0 pairing uses hash-to-element only, with the SSID
/// `516F9A010000` (ASCII, as hostap's NAN pairing passes it). Holds a secret: never printed.
public struct SAEPasswordToken: Sendable, CustomStringConvertible {
    /// The curve.
    public let group: ECGroup
    /// PT's affine coordinates, the group's length each.
    let x: [UInt8], y: [UInt8]

    /// The SSID NAN pairing derives PT with: the 12 ASCII characters `516F9A010000`.
    public static let nanPairingSSID: [UInt8] = Array("516F9A010000".utf8)

    /// PT on `group` for `password` (and optional password identifier) under `ssid`, H the group's hash:
    /// pwd-seed = HKDF-Extract-H(ssid, password ‖ identifier); u1, u2 = HKDF-Expand-H(pwd-seed,
    /// "SAE Hash to Element u1 P1" / "… u2 P2", len(p) + len(p)/2) mod p; PT = SSWU(u1) + SSWU(u2).
    public init(
        group: ECGroup = .p256, password: [UInt8], ssid: [UInt8] = SAEPasswordToken.nanPairingSSID,
        identifier: [UInt8]? = nil
    ) throws(CryptoError) {
        let curve = try ECCurve(group)
        let seed = try HKDF.extract(group.hash, salt: ssid, inputKeyMaterial: password + (identifier ?? []))
        let length = curve.length + (curve.length + 1) / 2
        var points: [ECCurve.Point] = []
        for label in ["SAE Hash to Element u1 P1", "SAE Hash to Element u2 P2"] {
            let value = try HKDF.expand(group.hash, pseudorandomKey: seed, info: Array(label.utf8), length: length)
            let u = try curve.mod(BigNumber(bytes: value), curve.prime)
            points.append(try Self.simplifiedSWU(curve, u))
        }
        let pt = try curve.add(points[0], points[1])
        let (px, py) = try curve.coordinates(pt)
        self.group = group
        x = try px.bytes(length: curve.length)
        y = try py.bytes(length: curve.length)
    }

    /// The simplified SWU map (RFC 9380 §6.6.2; Z = −10 on P-256, −12 on P-384), the selections done by
    /// masking.
    static func simplifiedSWU(_ c: ECCurve, _ u: BigNumber) throws(CryptoError) -> ECCurve.Point {
        let p = c.prime
        let z = try c.sub(p, BigNumber(word: c.name.swuZ))
        let one = try BigNumber(word: 1), two = try BigNumber(word: 2), three = try BigNumber(word: 3)
        let u2 = try c.mulMod(u, u, p)
        let zu2 = try c.mulMod(z, u2, p)
        let m = try c.addMod(zu2, c.mulMod(zu2, zu2, p), p)
        let t = try c.expMod(m, c.sub(p, two), p)  // 1/m, or 0 when m is 0
        let x1a = try c.mulMod(c.b, c.expMod(c.mulMod(z, c.a, p), c.sub(p, two), p), p)  // b / (z·a)
        let minusBOverA = try c.mulMod(c.sub(p, c.b), c.expMod(c.a, c.sub(p, two), p), p)
        let x1b = try c.mulMod(minusBOverA, c.addMod(one, t, p), p)  // (-b/a)·(1 + t)
        let x1 = try BigNumber(bytes: select(m.isZero, x1a.bytes(length: c.length), x1b.bytes(length: c.length)))
        func g(_ x: BigNumber) throws(CryptoError) -> BigNumber {
            try c.addMod(c.addMod(c.expMod(x, three, p), c.mulMod(c.a, x, p), p), c.b, p)
        }
        let gx1 = try g(x1)
        let x2 = try c.mulMod(zu2, x1, p)
        let gx2 = try g(x2)
        let legendre = try c.expMod(gx1, c.shiftRight(c.sub(p, one), 1), p)
        let gx1IsSquare = legendre.isZero || legendre.isOne
        let v = try BigNumber(bytes: select(gx1IsSquare, gx1.bytes(length: c.length), gx2.bytes(length: c.length)))
        let x = select(gx1IsSquare, try x1.bytes(length: c.length), try x2.bytes(length: c.length))
        // p ≡ 3 (mod 4) on both curves: sqrt(v) = v^((p+1)/4).
        let y = try c.expMod(v, c.shiftRight(c.add(p, one), 2), p)
        let minusY = try c.subMod(p, y, p)
        let y2 = select(u.isOdd == y.isOdd, try y.bytes(length: c.length), try minusY.bytes(length: c.length))
        return try c.point(x: BigNumber(bytes: x), y: BigNumber(bytes: y2))
    }

    /// `flag ? a : b` over equal-length byte strings without a data-dependent branch.
    static func select(_ flag: Bool, _ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        let mask: UInt8 = 0 &- (flag ? 1 : 0)
        return zip(a, b).map { ($0 & mask) | ($1 & ~mask) }
    }

    /// PWE for the two stations: val = HKDF-Extract-H(0^hlen, max(A, B) ‖ min(A, B)) mod (r − 1) + 1,
    /// PWE = val · PT.
    public func passwordElement(
        _ addressA: MACAddress, _ addressB: MACAddress
    ) throws(CryptoError) -> SAEPasswordElement {
        let curve = try ECCurve(group)
        let (high, low) = addressA > addressB ? (addressA, addressB) : (addressB, addressA)
        let hash = try HKDF.extract(
            group.hash, salt: [UInt8](repeating: 0, count: group.hash.outputSize),
            inputKeyMaterial: high.bytes + low.bytes)
        let one = try BigNumber(word: 1)
        let val = try curve.add(curve.mod(BigNumber(bytes: hash), curve.sub(curve.order, one)), one)
        let pt = try curve.point(x: BigNumber(bytes: x), y: BigNumber(bytes: y))
        return try SAEPasswordElement(curve, curve.multiply(pt, val))
    }

    /// Redacted.
    public var description: String { "SAEPasswordToken(\(group), redacted)" }
}

/// SAE's password element PWE on P-256 or P-384 for one pair of stations. Holds a secret: never printed.
public struct SAEPasswordElement: Sendable, CustomStringConvertible {
    /// The curve.
    public let group: ECGroup
    /// PWE's affine coordinates, the group's length each.
    let x: [UInt8], y: [UInt8]

    init(_ curve: ECCurve, _ point: ECCurve.Point) throws(CryptoError) {
        let (px, py) = try curve.coordinates(point)
        group = curve.name
        x = try px.bytes(length: curve.length)
        y = try py.bytes(length: curve.length)
    }

    /// PWE by IEEE 802.11's original looping method ("hunting and pecking"), only to check the commit, key
    /// and PMKID derivation against IEEE 802.11-2020 Annex J.10, whose vector uses it. NAN pairing never
    /// uses it, and this version is not hardened against timing: do not use it with real passwords.
    static func huntingAndPecking(
        password: [UInt8], _ addressA: MACAddress, _ addressB: MACAddress
    ) throws(CryptoError) -> SAEPasswordElement {
        let curve = try ECCurve(.p256)
        let (high, low) = addressA > addressB ? (addressA, addressB) : (addressB, addressA)
        let prime = try curve.prime.bytes(length: curve.length)
        for counter in UInt8(1)...40 {
            let seed = try HMAC.sha256(key: high.bytes + low.bytes, message: password + [counter])
            let value = try IEEE80211KDF.derive(
                .sha256, key: seed, label: "SAE Hunting and Pecking", context: prime, length: 32)
            let x = try BigNumber(bytes: value)
            guard x.compare(curve.prime) < 0,
                let point = try? curve.point(x: x, yOdd: seed[31] & 1 == 1)
            else { continue }
            return try SAEPasswordElement(curve, point)
        }
        throw CryptoError(.invalidPoint, "SAE hunting and pecking: no element in 40 rounds")
    }

    /// Redacted.
    public var description: String { "SAEPasswordElement(\(group), redacted)" }
}

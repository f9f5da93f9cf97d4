internal import CCrypto

/// A libcrypto `BIGNUM` owned by Swift; cleared (`BN_clear_free`) when released. Internal to NANCrypto.
final class BigNumber {
    let raw: OpaquePointer

    /// Zero.
    init() throws(CryptoError) {
        guard let bn = BN_secure_new() ?? BN_new() else { throw CryptoError(.libcrypto, "BN_new failed") }
        raw = bn
    }

    /// The unsigned big-endian integer `bytes`.
    convenience init(bytes: [UInt8]) throws(CryptoError) {
        try self.init()
        let ok = OpenSSL.withBytes(bytes) { pointer, count in BN_bin2bn(pointer, Int32(count), raw) != nil }
        guard ok else { throw CryptoError(.libcrypto, "BN_bin2bn: \(OpenSSL.lastError())") }
    }

    /// A small value.
    convenience init(word: UInt) throws(CryptoError) {
        try self.init()
        guard BN_set_word(raw, numericCast(word)) == 1 else { throw CryptoError(.libcrypto, "BN_set_word failed") }
    }

    deinit { BN_clear_free(raw) }

    /// Big-endian bytes, left-padded with zeros to `length`; fails when the value does not fit.
    func bytes(length: Int) throws(CryptoError) -> [UInt8] {
        let result = OpenSSL.output(length) { out in BN_bn2binpad(raw, out, Int32(length)) == Int32(length) }
        guard let result else { throw CryptoError(.invalidLength, "big number wider than \(length) bytes") }
        return result
    }

    /// Whether the value is zero.
    var isZero: Bool { BN_is_zero(raw) == 1 }
    /// Whether the value is one.
    var isOne: Bool { BN_is_one(raw) == 1 }
    /// -1, 0 or 1 as `self` is below, equal to or above `other`.
    func compare(_ other: BigNumber) -> Int { Int(BN_cmp(raw, other.raw)) }
    /// The least significant bit.
    var isOdd: Bool { BN_is_odd(raw) == 1 }
}

/// A prime curve of NAN pairing (``ECGroup``: P-256 or P-384) and a `BN_CTX` for arithmetic on it and
/// modulo its prime and order. Not shared between threads: each SAE computation makes its own. Internal
/// to NANCrypto.
final class ECCurve {
    let group: OpaquePointer
    let context: OpaquePointer
    /// The field prime p, the coefficients a and b, and the group order r.
    let prime: BigNumber, a: BigNumber, b: BigNumber, order: BigNumber
    /// Which curve.
    let name: ECGroup
    /// The length in bytes of a field element and of a scalar (32 or 48).
    var length: Int { name.length }

    init(_ name: ECGroup) throws(CryptoError) {
        guard let context = BN_CTX_secure_new() ?? BN_CTX_new() else {
            throw CryptoError(.libcrypto, "BN_CTX_new failed")
        }
        guard let group = EC_GROUP_new_by_curve_name(name.nid) else {
            BN_CTX_free(context)
            throw CryptoError(.libcrypto, "\(name) unavailable: \(OpenSSL.lastError())")
        }
        self.name = name
        self.context = context
        self.group = group
        prime = try BigNumber()
        a = try BigNumber()
        b = try BigNumber()
        order = try BigNumber()
        guard EC_GROUP_get_curve(group, prime.raw, a.raw, b.raw, context) == 1,
            let r = EC_GROUP_get0_order(group), BN_copy(order.raw, r) != nil
        else {
            throw CryptoError(.libcrypto, "\(name) parameters: \(OpenSSL.lastError())")
        }
    }

    deinit {
        EC_GROUP_free(group)
        BN_CTX_free(context)
    }

    // MARK: Arithmetic

    private func check(_ result: Int32, _ what: String) throws(CryptoError) {
        guard result == 1 else { throw CryptoError(.libcrypto, "\(what): \(OpenSSL.lastError())") }
    }

    /// A new number that `operation` (the libcrypto call `what`, given the result's `BIGNUM`) sets.
    private func number(_ what: String, _ operation: (OpaquePointer) -> Int32) throws(CryptoError) -> BigNumber {
        let r = try BigNumber()
        try check(operation(r.raw), what)
        return r
    }

    /// `x mod m` (non-negative).
    func mod(_ x: BigNumber, _ m: BigNumber) throws(CryptoError) -> BigNumber {
        try number("BN_nnmod") { BN_nnmod($0, x.raw, m.raw, context) }
    }
    /// `(x + y) mod m`.
    func addMod(_ x: BigNumber, _ y: BigNumber, _ m: BigNumber) throws(CryptoError) -> BigNumber {
        try number("BN_mod_add") { BN_mod_add($0, x.raw, y.raw, m.raw, context) }
    }
    /// `(x - y) mod m`.
    func subMod(_ x: BigNumber, _ y: BigNumber, _ m: BigNumber) throws(CryptoError) -> BigNumber {
        try number("BN_mod_sub") { BN_mod_sub($0, x.raw, y.raw, m.raw, context) }
    }
    /// `x * y mod m`.
    func mulMod(_ x: BigNumber, _ y: BigNumber, _ m: BigNumber) throws(CryptoError) -> BigNumber {
        try number("BN_mod_mul") { BN_mod_mul($0, x.raw, y.raw, m.raw, context) }
    }
    /// `x ^ e mod m`, in constant time with respect to the exponent (Montgomery, `BN_FLG_CONSTTIME`).
    func expMod(_ x: BigNumber, _ e: BigNumber, _ m: BigNumber) throws(CryptoError) -> BigNumber {
        let base = try mod(x, m)
        return try number("BN_mod_exp_mont_consttime") {
            BN_mod_exp_mont_consttime($0, base.raw, e.raw, m.raw, context, nil)
        }
    }
    /// `x - y` (plain subtraction; the caller knows the sign).
    func sub(_ x: BigNumber, _ y: BigNumber) throws(CryptoError) -> BigNumber {
        try number("BN_sub") { BN_sub($0, x.raw, y.raw) }
    }
    /// `x + y`.
    func add(_ x: BigNumber, _ y: BigNumber) throws(CryptoError) -> BigNumber {
        try number("BN_add") { BN_add($0, x.raw, y.raw) }
    }
    /// `x >> 1`... `x >> n`.
    func shiftRight(_ x: BigNumber, _ n: Int32) throws(CryptoError) -> BigNumber {
        try number("BN_rshift") { BN_rshift($0, x.raw, n) }
    }
    /// A uniformly random value in [0, range) from libcrypto's CSPRNG.
    func random(below range: BigNumber) throws(CryptoError) -> BigNumber {
        try number("BN_priv_rand_range") { BN_priv_rand_range($0, range.raw) }
    }

    // MARK: Points

    /// A point on the curve; cleared when released.
    final class Point {
        let raw: OpaquePointer
        init(_ raw: OpaquePointer) { self.raw = raw }
        deinit { EC_POINT_clear_free(raw) }
    }

    /// A new point; `operation`, when given, is the libcrypto call `what` that sets it.
    private func newPoint(
        _ what: String = "EC_POINT_new", _ operation: (OpaquePointer) -> Int32 = { _ in 1 }
    ) throws(CryptoError) -> Point {
        guard let p = EC_POINT_new(group) else { throw CryptoError(.libcrypto, "EC_POINT_new failed") }
        let point = Point(p)
        try check(operation(p), what)
        return point
    }

    /// The point (x, y); fails unless it is on the curve (libcrypto checks) and x, y are field elements.
    func point(x: BigNumber, y: BigNumber) throws(CryptoError) -> Point {
        guard x.compare(prime) < 0, y.compare(prime) < 0 else {
            throw CryptoError(.invalidPoint, "\(name): coordinate not below the prime")
        }
        let p = try newPoint()
        guard EC_POINT_set_affine_coordinates(group, p.raw, x.raw, y.raw, context) == 1,
            EC_POINT_is_on_curve(group, p.raw, context) == 1
        else {
            ERR_clear_error()
            throw CryptoError(.invalidPoint, "\(name): point not on the curve")
        }
        return p
    }

    /// The point with abscissa x and the y whose low bit is `yOdd`; fails when x is not on the curve.
    func point(x: BigNumber, yOdd: Bool) throws(CryptoError) -> Point {
        let p = try newPoint()
        guard EC_POINT_set_compressed_coordinates(group, p.raw, x.raw, yOdd ? 1 : 0, context) == 1 else {
            ERR_clear_error()
            throw CryptoError(.invalidPoint, "\(name): no point with this x")
        }
        return p
    }

    /// The affine coordinates, each `length` bytes big-endian; fails for the point at infinity.
    func coordinates(_ p: Point) throws(CryptoError) -> (x: BigNumber, y: BigNumber) {
        let x = try BigNumber(), y = try BigNumber()
        guard EC_POINT_is_at_infinity(group, p.raw) == 0,
            EC_POINT_get_affine_coordinates(group, p.raw, x.raw, y.raw, context) == 1
        else {
            ERR_clear_error()
            throw CryptoError(.invalidPoint, "\(name): point at infinity has no coordinates")
        }
        return (x, y)
    }

    /// `scalar * p`.
    func multiply(_ p: Point, _ scalar: BigNumber) throws(CryptoError) -> Point {
        try newPoint("EC_POINT_mul") { EC_POINT_mul(group, $0, nil, p.raw, scalar.raw, context) }
    }
    /// `scalar * G`, G the curve's generator.
    func multiplyGenerator(_ scalar: BigNumber) throws(CryptoError) -> Point {
        try newPoint("EC_POINT_mul") { EC_POINT_mul(group, $0, scalar.raw, nil, nil, context) }
    }
    /// `p + q`.
    func add(_ p: Point, _ q: Point) throws(CryptoError) -> Point {
        try newPoint("EC_POINT_add") { EC_POINT_add(group, $0, p.raw, q.raw, context) }
    }
    /// `-p`.
    func invert(_ p: Point) throws(CryptoError) -> Point {
        let r = try newPoint("EC_POINT_copy") { EC_POINT_copy($0, p.raw) }
        try check(EC_POINT_invert(group, r.raw, context), "EC_POINT_invert")
        return r
    }
    /// Whether `p` is the point at infinity (the identity).
    func isAtInfinity(_ p: Point) -> Bool { EC_POINT_is_at_infinity(group, p.raw) == 1 }
    /// Whether `p` and `q` are the same point.
    func equal(_ p: Point, _ q: Point) -> Bool { EC_POINT_cmp(group, p.raw, q.raw, context) == 0 }
}

extension OpenSSL {
    /// HKDF (RFC 5869) through libcrypto's `EVP_PKEY_HKDF`: extract-only when `info` is nil (output is the
    /// PRK, hash-length bytes), expand-only with `key` as the PRK otherwise.
    static func hkdf(
        _ hash: HashFunction, key: [UInt8], salt: [UInt8], info: [UInt8]?, length: Int
    ) throws(CryptoError) -> [UInt8] {
        let what = info == nil ? "HKDF-Extract" : "HKDF-Expand"
        guard let pctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else {
            throw CryptoError(.libcrypto, "\(what): EVP_PKEY_CTX_new_id failed")
        }
        defer { EVP_PKEY_CTX_free(pctx) }
        var outLength = length
        let mode = info == nil ? EVP_KDF_HKDF_MODE_EXTRACT_ONLY : EVP_KDF_HKDF_MODE_EXPAND_ONLY
        let result = withBytes(key) { k, kc in
            withBytes(salt) { s, sc in
                withBytes(info ?? []) { i, ic in
                    output(length) { out in
                        guard EVP_PKEY_derive_init(pctx) == 1,
                            EVP_PKEY_CTX_set_hkdf_mode(pctx, mode) == 1,
                            EVP_PKEY_CTX_set_hkdf_md(pctx, messageDigest(hash)) == 1,
                            EVP_PKEY_CTX_set1_hkdf_key(pctx, k, Int32(kc)) == 1
                        else { return false }
                        if info == nil {
                            guard EVP_PKEY_CTX_set1_hkdf_salt(pctx, s, Int32(sc)) == 1 else { return false }
                        } else if ic > 0 {
                            guard EVP_PKEY_CTX_add1_hkdf_info(pctx, i, Int32(ic)) == 1 else { return false }
                        }
                        return EVP_PKEY_derive(pctx, out, &outLength) == 1
                    }
                }
            }
        }
        guard let result, outLength == length else { throw CryptoError(.libcrypto, "\(what): \(lastError())") }
        return result
    }
}

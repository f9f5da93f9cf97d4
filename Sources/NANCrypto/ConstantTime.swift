/// Comparisons whose time does not depend on where two secrets differ (libcrypto's `CRYPTO_memcmp`). Use
/// them for MICs, PMKIDs and tags received from the air.
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes. Lengths are not secret: different lengths return false
    /// at once.
    public static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return OpenSSL.memoryEqual(Array(a), Array(b))
    }
}

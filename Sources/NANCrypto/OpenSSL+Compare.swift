internal import CCrypto

extension OpenSSL {
    /// `CRYPTO_memcmp` of two arrays of the same length.
    static func memoryEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        precondition(a.count == b.count, "memoryEqual: callers compare lengths first")
        return withBytes(a) { left, count in
            withBytes(b) { right, _ in CRYPTO_memcmp(left, right, count) == 0 }
        }
    }
}

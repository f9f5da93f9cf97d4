internal import CCrypto

extension OpenSSL {
    /// `RAND_bytes`; the caller has checked `count` fits Int32.
    static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        guard count > 0 else { return [] }
        guard let result = output(count, { RAND_bytes($0, Int32(count)) == 1 }) else {
            throw CryptoError(.libcrypto, "RAND_bytes(\(count)): \(lastError())")
        }
        return result
    }
}

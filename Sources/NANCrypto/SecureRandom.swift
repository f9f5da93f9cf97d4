/// Random bytes from libcrypto's CSPRNG (`RAND_bytes`, seeded by the kernel): for nonces and keys.
public enum SecureRandom {
    /// `count` random bytes (0 gives an empty array).
    public static func bytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        guard count >= 0, count <= Int(Int32.max) else {
            throw CryptoError(.invalidLength, "random bytes: \(count) requested")
        }
        return try OpenSSL.randomBytes(count)
    }
}

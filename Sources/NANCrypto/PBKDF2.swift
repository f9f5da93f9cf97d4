/// PBKDF2 (RFC 8018 §5.2) with HMAC-SHA-256 or HMAC-SHA-384 as the pseudo-random function, by libcrypto.
public enum PBKDF2 {
    /// Derives `length` bytes from `password` and `salt` with `iterations` rounds.
    ///
    /// Throws ``CryptoError/Code/invalidLength`` when `iterations` or `length` is below 1 or beyond what
    /// libcrypto takes (Int32).
    public static func deriveKey(
        _ hash: HashFunction, password: [UInt8], salt: [UInt8], iterations: Int,
        length: Int
    ) throws(CryptoError) -> [UInt8] {
        guard (1...Int(Int32.max)).contains(iterations), (1...Int(Int32.max)).contains(length),
            password.count <= Int(Int32.max), salt.count <= Int(Int32.max)
        else {
            throw CryptoError(.invalidLength, "PBKDF2-HMAC-\(hash): \(iterations) iterations, \(length) bytes")
        }
        return try OpenSSL.pbkdf2(hash, password: password, salt: salt, iterations: iterations, length: length)
    }
}

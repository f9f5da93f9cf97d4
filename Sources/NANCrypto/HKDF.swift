/// HKDF (RFC 5869) over SHA-256 or SHA-384, computed by libcrypto; SAE hash-to-element uses both halves.
public enum HKDF {
    /// HKDF-Extract(salt, IKM): the pseudorandom key, hash-length bytes.
    public static func extract(
        _ hash: HashFunction, salt: [UInt8], inputKeyMaterial: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        try OpenSSL.hkdf(hash, key: inputKeyMaterial, salt: salt, info: nil, length: hash.outputSize)
    }

    /// HKDF-Expand(PRK, info, L): `length` bytes (1...255 × hash length).
    public static func expand(
        _ hash: HashFunction, pseudorandomKey: [UInt8], info: [UInt8], length: Int
    ) throws(CryptoError) -> [UInt8] {
        guard (1...(255 * hash.outputSize)).contains(length) else {
            throw CryptoError(.invalidLength, "HKDF-Expand-\(hash): output of \(length) bytes")
        }
        return try OpenSSL.hkdf(hash, key: pseudorandomKey, salt: [], info: info, length: length)
    }
}

/// HMAC (RFC 2104) over SHA-256 or SHA-384, computed by libcrypto.
public enum HMAC {
    /// The full-length HMAC of `message` under `key` (32 bytes for SHA-256, 48 for SHA-384).
    public static func compute(_ hash: HashFunction, key: [UInt8], message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try OpenSSL.hmac(hash, key: key, message: message)
    }

    /// HMAC-SHA-256 of `message` under `key`.
    public static func sha256(key: [UInt8], message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try compute(.sha256, key: key, message: message)
    }

    /// HMAC-SHA-384 of `message` under `key`.
    public static func sha384(key: [UInt8], message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try compute(.sha384, key: key, message: message)
    }
}

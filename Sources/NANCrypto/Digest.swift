/// Message digests computed by OpenSSL's libcrypto. Nothing here is hand-rolled.
public enum Digest {
    /// The error digests throw (kept under this name for callers of the earlier NANSystem API).
    public typealias Failure = CryptoError

    /// The digest of `data` with `function`.
    public static func hash(_ function: HashFunction, _ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        try OpenSSL.digest(function, data)
    }

    /// SHA-256 of `data` (32 bytes).
    public static func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8] { try hash(.sha256, data) }

    /// SHA-384 of `data` (48 bytes).
    public static func sha384(_ data: [UInt8]) throws(CryptoError) -> [UInt8] { try hash(.sha384, data) }
}

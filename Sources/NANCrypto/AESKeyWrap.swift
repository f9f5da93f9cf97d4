/// AES key wrap (RFC 3394, NIST SP 800-38F KW) with the default initial value, by libcrypto. Used for the
/// key data of EAPOL-Key-style descriptors (GTK, IGTK) encrypted under the KEK.
public enum AESKeyWrap {
    /// Wraps `plaintext` (a multiple of 8 bytes, at least 16) under `kek` (16, 24 or 32 bytes); the result
    /// is 8 bytes longer.
    public static func wrap(_ plaintext: [UInt8], kek: [UInt8]) throws(CryptoError) -> [UInt8] {
        try checkKey(kek)
        guard plaintext.count >= 16, plaintext.count % 8 == 0 else {
            throw CryptoError(
                .invalidLength, "AES key wrap: plaintext of \(plaintext.count) bytes (a multiple of 8, at least 16)")
        }
        return try OpenSSL.aesKeyWrap(encrypt: true, kek: kek, input: plaintext)
    }

    /// Unwraps `ciphertext` (a multiple of 8 bytes, at least 24) under `kek`; throws
    /// ``CryptoError/Code/integrityCheckFailed`` when the key is wrong or the data was altered.
    public static func unwrap(_ ciphertext: [UInt8], kek: [UInt8]) throws(CryptoError) -> [UInt8] {
        try checkKey(kek)
        guard ciphertext.count >= 24, ciphertext.count % 8 == 0 else {
            throw CryptoError(
                .invalidLength, "AES key unwrap: ciphertext of \(ciphertext.count) bytes (a multiple of 8, at least 24)"
            )
        }
        return try OpenSSL.aesKeyWrap(encrypt: false, kek: kek, input: ciphertext)
    }

    private static func checkKey(_ kek: [UInt8]) throws(CryptoError) {
        guard [16, 24, 32].contains(kek.count) else {
            throw CryptoError(.invalidLength, "AES key wrap: key of \(kek.count) bytes (16, 24 or 32)")
        }
    }
}

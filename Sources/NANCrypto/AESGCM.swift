/// AES-GCM (NIST SP 800-38D) with a 96-bit nonce and a 128-bit tag, computed by libcrypto: the AEAD that
/// protects a connection's datagrams. A key may seal many messages, each under a nonce it never used
/// before (the caller's sequence number makes it so).
public struct AESGCM: Sendable {
    /// The nonce length, in bytes.
    public static let nonceSize = 12
    /// The tag length, in bytes (appended to the ciphertext).
    public static let tagSize = 16

    private let key: [UInt8]

    /// A sealer/opener with a 16- or 32-byte key (AES-128-GCM or AES-256-GCM).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidLength`` for another key length.
    public init(key: [UInt8]) throws(CryptoError) {
        guard key.count == 16 || key.count == 32 else {
            throw CryptoError(.invalidLength, "AES-GCM: key of \(key.count) bytes (16 or 32)")
        }
        self.key = key
    }

    /// Encrypts `plaintext` and authenticates it with `additionalData`: the ciphertext followed by the tag.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidLength`` for a nonce that is not 12 bytes.
    public func seal(
        _ plaintext: [UInt8], nonce: [UInt8], authenticating additionalData: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        guard nonce.count == Self.nonceSize else {
            throw CryptoError(.invalidLength, "AES-GCM: nonce of \(nonce.count) bytes")
        }
        return try OpenSSL.aesGCMSeal(key: key, nonce: nonce, additionalData: additionalData, plaintext: plaintext)
    }

    /// Checks and decrypts what ``seal(_:nonce:authenticating:)`` made (ciphertext and tag).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/integrityCheckFailed`` when the tag does not match (another
    ///   key, nonce or additional data, or altered bytes); ``CryptoError/Code-swift.struct/invalidLength`` for
    ///   input shorter than a tag or a nonce that is not 12 bytes.
    public func open(
        _ sealed: [UInt8], nonce: [UInt8], authenticating additionalData: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        guard nonce.count == Self.nonceSize else {
            throw CryptoError(.invalidLength, "AES-GCM: nonce of \(nonce.count) bytes")
        }
        guard sealed.count >= Self.tagSize else {
            throw CryptoError(.invalidLength, "AES-GCM: \(sealed.count) bytes, shorter than a tag")
        }
        return try OpenSSL.aesGCMOpen(
            key: key, nonce: nonce, additionalData: additionalData,
            ciphertext: Array(sealed.dropLast(Self.tagSize)), tag: Array(sealed.suffix(Self.tagSize)))
    }
}

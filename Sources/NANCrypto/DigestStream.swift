internal import CCrypto

/// A digest computed piece by piece (a file sent in chunks): `update` with each piece, then `finish`.
/// libcrypto's `EVP_DigestInit_ex` / `Update` / `Final_ex`; the context is freed when released.
public final class DigestStream: @unchecked Sendable {
    private let context: OpaquePointer
    private let function: HashFunction
    private var finished = false

    /// Starts a digest with `function` (SHA-256 for resources).
    public init(_ function: HashFunction) throws(CryptoError) {
        guard let context = EVP_MD_CTX_new() else {
            throw CryptoError(.libcrypto, "EVP_MD_CTX_new: \(OpenSSL.lastError())")
        }
        guard EVP_DigestInit_ex(context, OpenSSL.messageDigest(function), nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw CryptoError(.libcrypto, "EVP_DigestInit_ex(\(function)): \(OpenSSL.lastError())")
        }
        self.context = context
        self.function = function
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes.
    public func update(_ bytes: [UInt8]) throws(CryptoError) {
        guard !bytes.isEmpty else { return }
        let ok = bytes.withUnsafeBufferPointer { EVP_DigestUpdate(context, $0.baseAddress, $0.count) == 1 }
        guard ok else { throw CryptoError(.libcrypto, "EVP_DigestUpdate: \(OpenSSL.lastError())") }
    }

    /// The digest of everything added (once).
    public func finish() throws(CryptoError) -> [UInt8] {
        guard !finished else { throw CryptoError(.libcrypto, "the digest was already finished") }
        finished = true
        var length: UInt32 = 0
        guard let result = OpenSSL.output(function.outputSize, { EVP_DigestFinal_ex(context, $0, &length) == 1 }),
            Int(length) == function.outputSize
        else {
            throw CryptoError(.libcrypto, "EVP_DigestFinal_ex: \(OpenSSL.lastError())")
        }
        return result
    }
}

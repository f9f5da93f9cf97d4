internal import CCrypto

extension OpenSSL {
    /// `EVP_Digest` of `data`; SHA-256 through ``sha256(_:)``.
    static func digest(_ function: HashFunction, _ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        if function == .sha256 { return try sha256(data) }
        var length: UInt32 = 0
        let result = withBytes(data) { input, count in
            output(function.outputSize) { out in
                EVP_Digest(input, count, out, &length, messageDigest(function), nil) == 1
            }
        }
        guard let result, Int(length) == function.outputSize else {
            throw CryptoError(.libcrypto, "EVP_Digest(\(function)): \(lastError())")
        }
        return result
    }

    /// SHA-256 of `data` by libcrypto's `SHA256_*` functions, without EVP: EVP's first digest initialises
    /// OpenSSL's providers, and an idle publisher's only use of libcrypto is this hash of its service names
    /// (CCrypto.h, `waware_sha256`).
    static func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        let result = withBytes(data) { input, count in
            output(HashFunction.sha256.outputSize) { waware_sha256(input, count, $0) == 1 }
        }
        guard let result else { throw CryptoError(.libcrypto, "SHA256: \(lastError())") }
        return result
    }
}

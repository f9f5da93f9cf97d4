internal import CCrypto

extension OpenSSL {
    /// `EVP_Digest` of `data`.
    static func digest(_ function: HashFunction, _ data: [UInt8]) throws(CryptoError) -> [UInt8] {
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
}

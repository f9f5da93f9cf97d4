internal import CCrypto

extension OpenSSL {
    /// One-shot `HMAC()` of `message` under `key`.
    static func hmac(_ hash: HashFunction, key: [UInt8], message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard key.count <= Int(Int32.max) else {
            throw CryptoError(.invalidLength, "HMAC-\(hash): key of \(key.count) bytes")
        }
        var length: UInt32 = 0
        let result = withBytes(key) { keyBytes, keyCount in
            withBytes(message) { messageBytes, messageCount in
                output(hash.outputSize) { out in
                    CCrypto.HMAC(
                        messageDigest(hash), keyBytes, Int32(keyCount), messageBytes, messageCount, out, &length) != nil
                }
            }
        }
        guard let result, Int(length) == hash.outputSize else {
            throw CryptoError(.libcrypto, "HMAC-\(hash): \(lastError())")
        }
        return result
    }
}

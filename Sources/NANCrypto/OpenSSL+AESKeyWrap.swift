internal import CCrypto

extension OpenSSL {
    /// AES-{128,192,256}-wrap through an `EVP_CIPHER_CTX`; the caller has checked the lengths.
    static func aesKeyWrap(encrypt: Bool, kek: [UInt8], input: [UInt8]) throws(CryptoError) -> [UInt8] {
        let what = encrypt ? "AES key wrap" : "AES key unwrap"
        let cipher: OpaquePointer? =
            switch kek.count {
            case 16: EVP_aes_128_wrap()
            case 24: EVP_aes_192_wrap()
            default: EVP_aes_256_wrap()
            }
        guard let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError(.libcrypto, "\(what): EVP_CIPHER_CTX_new failed")
        }
        defer { EVP_CIPHER_CTX_free(context) }
        EVP_CIPHER_CTX_set_flags(context, Int32(EVP_CIPHER_CTX_FLAG_WRAP_ALLOW))
        let expected = encrypt ? input.count + 8 : input.count - 8
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        let result = withBytes(kek) { key, _ in
            withBytes(input) { bytes, count in
                output(expected + 16) { out in
                    guard EVP_CipherInit_ex(context, cipher, nil, key, nil, encrypt ? 1 : 0) == 1,
                        EVP_CipherUpdate(context, out, &written, bytes, Int32(count)) == 1,
                        written >= 0
                    else { return false }
                    return EVP_CipherFinal_ex(context, out + Int(written), &finalWritten) == 1
                }
            }
        }
        guard let result, Int(written + finalWritten) == expected else {
            let reason = lastError()
            if !encrypt { throw CryptoError(.integrityCheckFailed, "\(what): \(reason)") }
            throw CryptoError(.libcrypto, "\(what): \(reason)")
        }
        return Array(result.prefix(expected))
    }
}

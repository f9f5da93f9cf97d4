internal import CCrypto

extension OpenSSL {
    private static func gcmCipher(_ key: [UInt8]) -> OpaquePointer? {
        key.count == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm()
    }

    /// AES-GCM encryption through an `EVP_CIPHER_CTX`: ciphertext then the 16-byte tag. The caller checked
    /// the key and nonce lengths.
    static func aesGCMSeal(
        key: [UInt8], nonce: [UInt8], additionalData: [UInt8], plaintext: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError(.libcrypto, "AES-GCM: EVP_CIPHER_CTX_new failed")
        }
        defer { EVP_CIPHER_CTX_free(context) }
        var written: Int32 = 0
        var ignored: Int32 = 0
        var tag = [UInt8](repeating: 0, count: AESGCM.tagSize)
        let result = withBytes(key) { keyBytes, _ in
            withBytes(nonce) { nonceBytes, _ in
                withBytes(additionalData) { aad, aadCount in
                    withBytes(plaintext) { input, count in
                        output(count) { out in
                            guard EVP_EncryptInit_ex(context, gcmCipher(key), nil, keyBytes, nonceBytes) == 1 else {
                                return false
                            }
                            if aadCount > 0 {
                                guard EVP_EncryptUpdate(context, nil, &ignored, aad, Int32(aadCount)) == 1 else {
                                    return false
                                }
                            }
                            if count > 0 {
                                guard EVP_EncryptUpdate(context, out, &written, input, Int32(count)) == 1 else {
                                    return false
                                }
                            }
                            guard EVP_EncryptFinal_ex(context, out + Int(written), &ignored) == 1 else { return false }
                            return tag.withUnsafeMutableBytes {
                                EVP_CIPHER_CTX_ctrl(
                                    context, EVP_CTRL_AEAD_GET_TAG, Int32(AESGCM.tagSize), $0.baseAddress) == 1
                            }
                        }
                    }
                }
            }
        }
        guard let result, Int(written) == plaintext.count else {
            throw CryptoError(.libcrypto, "AES-GCM seal: \(lastError())")
        }
        return result + tag
    }

    /// AES-GCM decryption and tag check through an `EVP_CIPHER_CTX`.
    static func aesGCMOpen(
        key: [UInt8], nonce: [UInt8], additionalData: [UInt8], ciphertext: [UInt8], tag: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError(.libcrypto, "AES-GCM: EVP_CIPHER_CTX_new failed")
        }
        defer { EVP_CIPHER_CTX_free(context) }
        var written: Int32 = 0
        var ignored: Int32 = 0
        var expected = tag
        var setUp = false
        let result = withBytes(key) { keyBytes, _ in
            withBytes(nonce) { nonceBytes, _ in
                withBytes(additionalData) { aad, aadCount in
                    withBytes(ciphertext) { input, count in
                        output(count) { out in
                            guard EVP_DecryptInit_ex(context, gcmCipher(key), nil, keyBytes, nonceBytes) == 1 else {
                                return false
                            }
                            if aadCount > 0 {
                                guard EVP_DecryptUpdate(context, nil, &ignored, aad, Int32(aadCount)) == 1 else {
                                    return false
                                }
                            }
                            if count > 0 {
                                guard EVP_DecryptUpdate(context, out, &written, input, Int32(count)) == 1 else {
                                    return false
                                }
                            }
                            let tagSet = expected.withUnsafeMutableBytes {
                                EVP_CIPHER_CTX_ctrl(
                                    context, EVP_CTRL_AEAD_SET_TAG, Int32(AESGCM.tagSize), $0.baseAddress) == 1
                            }
                            guard tagSet else { return false }
                            setUp = true
                            // Fails when the tag does not match.
                            return EVP_DecryptFinal_ex(context, out + Int(written), &ignored) == 1
                        }
                    }
                }
            }
        }
        guard let result, Int(written) == ciphertext.count else {
            let reason = lastError()
            if setUp { throw CryptoError(.integrityCheckFailed, "AES-GCM open: the tag does not match") }
            throw CryptoError(.libcrypto, "AES-GCM open: \(reason)")
        }
        return result
    }
}

internal import CCrypto

extension OpenSSL {
    /// AES-GCM through an `EVP_CIPHER_CTX`, encrypting or decrypting as `encrypt` says: key and nonce, the
    /// additional data, then `input`; `finish` takes the tag step (the final call and getting or setting the
    /// tag, in the order its direction needs) given the context and the end of the output written so far.
    /// Nil when a libcrypto call fails. The caller checked the key and nonce lengths.
    private static func aesGCM(
        encrypt: Bool, key: [UInt8], nonce: [UInt8], additionalData: [UInt8], input: [UInt8],
        finish: (OpaquePointer, UnsafeMutablePointer<UInt8>) -> Bool
    ) throws(CryptoError) -> [UInt8]? {
        guard let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError(.libcrypto, "AES-GCM: EVP_CIPHER_CTX_new failed")
        }
        defer { EVP_CIPHER_CTX_free(context) }
        let cipher = key.count == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm()
        var written: Int32 = 0
        var ignored: Int32 = 0
        let result = withBytes(key) { keyBytes, _ in
            withBytes(nonce) { nonceBytes, _ in
                withBytes(additionalData) { aad, aadCount in
                    withBytes(input) { bytes, count in
                        output(count) { out in
                            guard EVP_CipherInit_ex(context, cipher, nil, keyBytes, nonceBytes, encrypt ? 1 : 0) == 1,
                                aadCount == 0 || EVP_CipherUpdate(context, nil, &ignored, aad, Int32(aadCount)) == 1,
                                count == 0 || EVP_CipherUpdate(context, out, &written, bytes, Int32(count)) == 1
                            else { return false }
                            return finish(context, out + Int(written))
                        }
                    }
                }
            }
        }
        return Int(written) == input.count ? result : nil
    }

    /// AES-GCM encryption: ciphertext then the 16-byte tag.
    static func aesGCMSeal(
        key: [UInt8], nonce: [UInt8], additionalData: [UInt8], plaintext: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: AESGCM.tagSize)
        let sealed = try aesGCM(
            encrypt: true, key: key, nonce: nonce, additionalData: additionalData, input: plaintext
        ) { context, end in
            var ignored: Int32 = 0
            guard EVP_CipherFinal_ex(context, end, &ignored) == 1 else { return false }
            return tag.withUnsafeMutableBytes {
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(AESGCM.tagSize), $0.baseAddress) == 1
            }
        }
        guard let sealed else { throw CryptoError(.libcrypto, "AES-GCM seal: \(lastError())") }
        return sealed + tag
    }

    /// AES-GCM decryption and tag check.
    static func aesGCMOpen(
        key: [UInt8], nonce: [UInt8], additionalData: [UInt8], ciphertext: [UInt8], tag: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        var expected = tag
        var setUp = false
        let opened = try aesGCM(
            encrypt: false, key: key, nonce: nonce, additionalData: additionalData, input: ciphertext
        ) { context, end in
            let tagSet = expected.withUnsafeMutableBytes {
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(AESGCM.tagSize), $0.baseAddress) == 1
            }
            guard tagSet else { return false }
            setUp = true
            var ignored: Int32 = 0
            // Fails when the tag does not match.
            return EVP_CipherFinal_ex(context, end, &ignored) == 1
        }
        guard let opened else {
            let reason = lastError()
            if setUp { throw CryptoError(.integrityCheckFailed, "AES-GCM open: the tag does not match") }
            throw CryptoError(.libcrypto, "AES-GCM open: \(reason)")
        }
        return opened
    }
}

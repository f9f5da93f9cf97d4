internal import CCrypto

extension OpenSSL {
    /// `PKCS5_PBKDF2_HMAC`; the caller has checked every count fits Int32.
    static func pbkdf2(
        _ hash: HashFunction, password: [UInt8], salt: [UInt8], iterations: Int,
        length: Int
    ) throws(CryptoError) -> [UInt8] {
        let result = withBytes(password) { passwordBytes, passwordCount in
            withBytes(salt) { saltBytes, saltCount in
                passwordBytes.withMemoryRebound(to: CChar.self, capacity: max(passwordCount, 1)) { passwordChars in
                    output(length) { out in
                        PKCS5_PBKDF2_HMAC(
                            passwordChars, Int32(passwordCount), saltBytes, Int32(saltCount),
                            Int32(iterations), messageDigest(hash), Int32(length), out) == 1
                    }
                }
            }
        }
        guard let result else { throw CryptoError(.libcrypto, "PBKDF2-HMAC-\(hash): \(lastError())") }
        return result
    }
}

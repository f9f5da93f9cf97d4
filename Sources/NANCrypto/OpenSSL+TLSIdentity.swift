internal import CCrypto
internal import CSSL

/// A private key (`EVP_PKEY`) and its certificate (`X509`) owned by Swift. Immutable after creation;
/// libcrypto reference-counts both and allows concurrent read-only use, which is all a TLS context does with
/// them, hence `@unchecked Sendable`.
final class TLSKeyMaterial: @unchecked Sendable {
    let key: OpaquePointer
    let certificate: OpaquePointer

    init(key: OpaquePointer, certificate: OpaquePointer) {
        self.key = key
        self.certificate = certificate
    }

    deinit {
        EVP_PKEY_free(key)
        X509_free(certificate)
    }
}

extension OpenSSL {
    /// The oldest libssl/libcrypto error queued on this thread as text, or `fallback`; clears the queue.
    static func errorText(or fallback: String) -> String {
        ERR_peek_error() == 0 ? fallback : lastError()
    }

    /// A fresh P-256 key and a self-signed certificate for it.
    static func makeSelfSignedIdentity(commonName: String, validityDays: Int) throws(TLSError) -> TLSKeyMaterial {
        ERR_clear_error()
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw TLSError(.library, "EVP_PKEY_CTX_new_from_name(EC): \(errorText(or: "failed"))")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &generated) == 1, let key = generated
        else { throw TLSError(.library, "P-256 key generation: \(errorText(or: "failed"))") }
        guard let certificate = X509_new() else {
            EVP_PKEY_free(key)
            throw TLSError(.library, "X509_new failed")
        }
        let material = TLSKeyMaterial(key: key, certificate: certificate)  // frees both on any failure below
        var serial = [UInt8](repeating: 0, count: 16)
        do { serial = try SecureRandom.bytes(16) } catch { throw TLSError(.library, "random serial: \(error)") }
        serial[0] &= 0x7f  // a positive INTEGER
        serial[0] |= 0x40  // and a full 16 bytes long
        let serialSet = OpenSSL.withBytes(serial) { pointer, count -> Bool in
            guard let number = BN_bin2bn(pointer, Int32(count), nil) else { return false }
            defer { BN_free(number) }
            return BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil
        }
        let day = 86_400
        let nameSet = Array(commonName.utf8).withUnsafeBufferPointer { cn -> Bool in
            guard let name = X509_get_subject_name(certificate) else { return false }
            return X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, cn.baseAddress, Int32(cn.count), -1, 0) == 1
                && X509_set_issuer_name(certificate, name) == 1
        }
        guard serialSet, nameSet,
            X509_set_version(certificate, 2) == 1,  // X.509 v3
            X509_gmtime_adj(X509_getm_notBefore(certificate), -day) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), validityDays * day) != nil,
            X509_set_pubkey(certificate, key) == 1,
            X509_sign(certificate, key, EVP_sha256()) > 0
        else { throw TLSError(.library, "self-signed certificate: \(errorText(or: "failed"))") }
        return material
    }

    /// The private key and certificate in `pem` (in any order), checked to belong together.
    static func identity(pem: [UInt8]) throws(TLSError) -> TLSKeyMaterial {
        ERR_clear_error()
        let key: OpaquePointer? = withReadBIO(pem) { PEM_read_bio_PrivateKey($0, nil, nil, nil) }
        let certificate: OpaquePointer? = withReadBIO(pem) { PEM_read_bio_X509($0, nil, nil, nil) }
        guard let key, let certificate else {
            if let key { EVP_PKEY_free(key) }
            if let certificate { X509_free(certificate) }
            let missing = key == nil ? "no private key" : "no certificate"
            throw TLSError(.invalidIdentity, "\(missing) in the PEM: \(errorText(or: "not found"))")
        }
        let material = TLSKeyMaterial(key: key, certificate: certificate)
        guard X509_check_private_key(certificate, key) == 1 else {
            throw TLSError(.invalidIdentity, "the private key is not the certificate's: \(errorText(or: "mismatch"))")
        }
        ERR_clear_error()
        return material
    }

    /// `material` as PEM: the key (PKCS #8) then the certificate.
    static func pem(of material: TLSKeyMaterial) throws(TLSError) -> [UInt8] {
        ERR_clear_error()
        guard let bio = BIO_new(BIO_s_mem()) else { throw TLSError(.library, "BIO_new failed") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, material.key, nil, nil, 0, nil, nil) == 1,
            PEM_write_bio_X509(bio, material.certificate) == 1
        else { throw TLSError(.library, "PEM encoding: \(errorText(or: "failed"))") }
        return drain(bio)
    }

    /// Everything pending in a memory BIO.
    static func drain(_ bio: OpaquePointer, maximum: Int = .max) -> [UInt8] {
        let pending = min(Int(BIO_ctrl_pending(bio)), maximum)
        guard pending > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: pending) { buffer, count in
            count = max(0, Int(BIO_read(bio, buffer.baseAddress, Int32(clamping: pending))))
        }
    }

    /// Runs `body` with a read-only memory BIO over `bytes`.
    static func withReadBIO<R>(_ bytes: [UInt8], _ body: (OpaquePointer) -> R?) -> R? {
        bytes.withUnsafeBytes { raw -> R? in
            guard let base = raw.baseAddress, let bio = BIO_new_mem_buf(base, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    /// The DER encoding of `certificate` (an `X509*`).
    static func der(of certificate: OpaquePointer) throws(TLSError) -> [UInt8] {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw TLSError(.invalidCertificate, "i2d_X509: \(errorText(or: "failed"))") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else {
            throw TLSError(.invalidCertificate, "i2d_X509 wrote \(written) of \(length) bytes")
        }
        return bytes
    }

    /// The subject (one-line form) and common name of `certificate` (an `X509*`).
    static func names(of certificate: OpaquePointer) -> (subject: String, commonName: String?) {
        guard let name = X509_get_subject_name(certificate) else { return ("", nil) }
        var line = [CChar](repeating: 0, count: 512)
        _ = line.withUnsafeMutableBufferPointer { X509_NAME_oneline(name, $0.baseAddress, Int32($0.count)) }
        let subject = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var commonName: String?
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        if index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) {
            var utf8: UnsafeMutablePointer<UInt8>?
            let count = ASN1_STRING_to_UTF8(&utf8, data)
            if count >= 0, let utf8 {
                commonName = String(decoding: UnsafeBufferPointer(start: utf8, count: Int(count)), as: UTF8.self)
                CRYPTO_free(utf8, nil, 0)
            }
        }
        return (subject, commonName)
    }

    /// A ``PeerCertificate`` for `certificate` (an `X509*`).
    static func peerCertificate(_ certificate: OpaquePointer) throws(TLSError) -> PeerCertificate {
        let names = names(of: certificate)
        return try PeerCertificate(der: try der(of: certificate), subject: names.subject, commonName: names.commonName)
    }

    /// The names of the DER certificate `der`; throws if it is not exactly one certificate.
    static func certificateNames(der: [UInt8]) throws(TLSError) -> (subject: String, commonName: String?) {
        ERR_clear_error()
        let parsed: (String, String?)? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let base = buffer.baseAddress, let certificate = d2i_X509(nil, &cursor, buffer.count) else {
                return nil
            }
            defer { X509_free(certificate) }
            guard cursor == base + buffer.count else { return nil }  // trailing bytes
            return names(of: certificate)
        }
        guard let parsed else {
            throw TLSError(.invalidCertificate, "not a DER certificate: \(errorText(or: "trailing bytes"))")
        }
        return parsed
    }
}

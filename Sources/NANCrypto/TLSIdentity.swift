/// This device's TLS identity: an EC P-256 private key and a self-signed X.509 certificate for it.
///
/// Made once per device (``generate(commonName:validityDays:)``) and kept in a file readable by its owner
/// only (`TLSIdentity.loadOrCreate(at:commonName:)` in NANSystem). Its ``certificate``'s fingerprint is what
/// peers pin. The private key never appears in ``description`` and is only written out by
/// ``pemEncoded()``.
public struct TLSIdentity: Sendable, CustomStringConvertible {
    /// The key and certificate as libcrypto objects (shared, immutable).
    let material: TLSKeyMaterial
    /// The certificate this device presents.
    public let certificate: PeerCertificate

    /// The fingerprint peers pin this device by.
    public var fingerprint: CertificateFingerprint { certificate.fingerprint }

    /// Ten years: a device certificate is trusted by its pinned fingerprint, not by its dates, so it should
    /// not expire under a paired peer.
    public static let defaultValidityDays = 3650

    /// Makes a new identity: a fresh P-256 key and a self-signed certificate (X.509 v3, SHA-256, random
    /// 128-bit serial, subject and issuer `CN=commonName`, valid from a day ago for `validityDays`).
    ///
    /// - Throws: ``TLSError/Code-swift.struct/library`` if libcrypto fails.
    public static func generate(
        commonName: String, validityDays: Int = defaultValidityDays
    ) throws(TLSError) -> TLSIdentity {
        let material = try OpenSSL.makeSelfSignedIdentity(commonName: commonName, validityDays: validityDays)
        return TLSIdentity(material: material, certificate: try OpenSSL.peerCertificate(material.certificate))
    }

    /// Reads an identity from PEM: a private key (`PRIVATE KEY`, PKCS #8) and a certificate, in any order.
    ///
    /// - Throws: ``TLSError/Code-swift.struct/invalidIdentity`` if either is missing or malformed, or the
    ///   key is not the certificate's.
    public init(pem: [UInt8]) throws(TLSError) {
        let material = try OpenSSL.identity(pem: pem)
        self.init(material: material, certificate: try OpenSSL.peerCertificate(material.certificate))
    }

    init(material: TLSKeyMaterial, certificate: PeerCertificate) {
        self.material = material
        self.certificate = certificate
    }

    /// The identity as PEM, the private key (PKCS #8, unencrypted) then the certificate. Secret: write it
    /// only to a file its owner alone can read, never to a log.
    public func pemEncoded() throws(TLSError) -> [UInt8] {
        try OpenSSL.pem(of: material)
    }

    /// `TLS identity /CN=… fingerprint …` (never the key).
    public var description: String { "TLS identity \(certificate)" }
}

/// An X.509 certificate as a TLS peer presented it (or as this device presents its own): its DER bytes,
/// its subject and common name, and its ``CertificateFingerprint``.
///
/// Certificates here are self-signed device certificates: nothing is trusted for being signed by someone,
/// only by its fingerprint (``TLSTrust``).
public struct PeerCertificate: Hashable, Sendable, CustomStringConvertible {
    /// The certificate's DER encoding.
    public let der: [UInt8]
    /// The subject name in OpenSSL's one-line form, e.g. `/CN=waware 42:00:00:00:00:00`.
    public let subject: String
    /// The subject's common name, if it has one.
    public let commonName: String?
    /// SHA-256 of ``der``.
    public let fingerprint: CertificateFingerprint

    /// Parses a DER certificate.
    ///
    /// - Throws: ``TLSError/Code-swift.struct/invalidCertificate`` if `der` is not one whole X.509 certificate.
    public init(der: [UInt8]) throws(TLSError) {
        let names = try OpenSSL.certificateNames(der: der)
        self.der = der
        self.subject = names.subject
        self.commonName = names.commonName
        self.fingerprint = try CertificateFingerprint(der: der)
    }

    init(der: [UInt8], subject: String, commonName: String?) throws(TLSError) {
        self.der = der
        self.subject = subject
        self.commonName = commonName
        self.fingerprint = try CertificateFingerprint(der: der)
    }

    /// `CN=… fingerprint …`.
    public var description: String { "\(subject) fingerprint \(fingerprint)" }
}

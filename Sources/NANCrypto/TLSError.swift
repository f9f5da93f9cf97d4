/// Why a TLS session, its identity or the connection under it failed.
///
/// Match on ``code`` (`catch let error as TLSError where error.code == .untrustedPeer`), never on the text.
/// ``detail`` keeps OpenSSL's own error text where there is one; ``fingerprint`` is set for
/// ``Code/untrustedPeer`` (the certificate this side refused), so a tool can print
/// `peer certificate not trusted (fingerprint …)` and a user can pin it.
public struct TLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable name for the code, used in messages and tests.
        public let name: String
        init(_ name: String) { self.name = name }

        /// This side's trust (pinning, trust-on-first-use or the validator) refused the peer's certificate;
        /// the handshake was ended with a `bad_certificate` alert. ``TLSError/fingerprint`` names it.
        public static let untrustedPeer = Code("peer certificate not trusted")
        /// The peer refused this side's certificate (it sent `bad_certificate`, `certificate_unknown`,
        /// `unknown_ca` or `certificate_required`).
        public static let refusedByPeer = Code("the peer refused our certificate")
        /// The peer sent no certificate although this side requires one (mutual authentication).
        public static let missingPeerCertificate = Code("the peer sent no certificate")
        /// The peer offered or accepted only a TLS version other than 1.3.
        public static let unsupportedVersion = Code("TLS version not supported (1.3 only)")
        /// Any other failure of the handshake (an alert, no common cipher or group).
        public static let handshakeFailed = Code("TLS handshake failed")
        /// Records that are not TLS, fail to decrypt or break the protocol.
        public static let protocolError = Code("TLS protocol error")
        /// Plaintext was written before the handshake finished.
        public static let notEstablished = Code("TLS session not established")
        /// The session was used after it was closed or failed.
        public static let closed = Code("TLS session closed")
        /// The connection ended without the peer's `close_notify` (data may have been cut off).
        public static let unexpectedEndOfStream = Code("the connection ended without TLS close_notify")
        /// The peer reset the connection (or it broke: `ECONNRESET`, `EPIPE`).
        public static let connectionReset = Code("the connection was reset")
        /// Nothing could be sent or received within the time allowed.
        public static let timedOut = Code("timed out")
        /// The task waiting on the connection was cancelled.
        public static let cancelled = Code("cancelled")
        /// Another failure of the socket under the session.
        public static let socket = Code("socket failure")
        /// A PEM identity that does not parse, or whose key does not match its certificate.
        public static let invalidIdentity = Code("invalid TLS identity")
        /// A certificate (DER) that does not parse.
        public static let invalidCertificate = Code("invalid certificate")
        /// libssl or libcrypto failed (allocation, a missing algorithm).
        public static let library = Code("OpenSSL failure")

        /// The code's name.
        public var description: String { name }
    }

    /// The class of failure.
    public var code: Code
    /// What happened, with OpenSSL's error text or the errno text where there is one.
    public var detail: String
    /// For ``Code/untrustedPeer``: the fingerprint of the certificate that was refused.
    public var fingerprint: CertificateFingerprint?

    /// Creates an error.
    public init(_ code: Code, _ detail: String, fingerprint: CertificateFingerprint? = nil) {
        self.code = code
        self.detail = detail
        self.fingerprint = fingerprint
    }

    /// This side refused the peer's certificate `fingerprint`.
    public static func untrustedPeer(_ fingerprint: CertificateFingerprint, _ detail: String = "") -> TLSError {
        TLSError(.untrustedPeer, detail, fingerprint: fingerprint)
    }

    /// One line, e.g. `peer certificate not trusted (fingerprint 3f1a…)` or
    /// `the peer refused our certificate: ssl/tls alert bad certificate`.
    public var description: String {
        if let fingerprint { return "\(code) (fingerprint \(fingerprint))" + (detail.isEmpty ? "" : ": \(detail)") }
        return detail.isEmpty ? code.name : "\(code): \(detail)"
    }
}

extension TLSError.Code {
    /// Lets `catch TLSError.Code.untrustedPeer` match a thrown ``TLSError`` by its code.
    public static func ~= (code: TLSError.Code, error: any Error) -> Bool {
        (error as? TLSError)?.code == code
    }
}

/// How a TLS session decides whether to trust the peer's certificate, during the handshake.
///
/// Device certificates are self-signed, so there is no chain to verify: a certificate is trusted because
/// its fingerprint was pinned (learned when the devices paired), because the caller asked to trust it on
/// first use, or because the caller's validator said so (as in Apple's TN3213). A refused certificate ends
/// the handshake on both sides with a `bad_certificate` alert; this side throws ``TLSError/untrustedPeer(_:_:)``.
public struct TLSTrust: Sendable {
    /// Why a peer's certificate was trusted.
    public enum Basis: Hashable, Sendable, CustomStringConvertible {
        /// Its fingerprint is one of the pinned ones.
        case pinned
        /// Trust on first use: accepted unseen; the caller should now store its fingerprint.
        case firstUse
        /// The caller's validator accepted it.
        case validator

        /// `pinned`, `first use`, `validator`.
        public var description: String {
            switch self {
            case .pinned: "pinned"
            case .firstUse: "first use"
            case .validator: "validator"
            }
        }
    }

    private enum Rule: Sendable {
        case pinned(Set<CertificateFingerprint>)
        case firstUse
        case validator(@Sendable (PeerCertificate) -> Bool)
    }

    private let rule: Rule

    /// Trusts exactly the certificates with these fingerprints (e.g. the one pinned to a paired device).
    /// An empty set trusts nobody.
    public static func pinned(_ fingerprints: some Sequence<CertificateFingerprint>) -> TLSTrust {
        TLSTrust(rule: .pinned(Set(fingerprints)))
    }

    /// Trusts exactly the certificate with this fingerprint.
    public static func pinned(_ fingerprint: CertificateFingerprint) -> TLSTrust {
        TLSTrust(rule: .pinned([fingerprint]))
    }

    /// Trusts whatever certificate the peer presents, once: the session reports ``Basis/firstUse`` and the
    /// peer's certificate, whose fingerprint the caller stores and pins from then on. Use only when the
    /// user asked for it.
    public static var trustOnFirstUse: TLSTrust { TLSTrust(rule: .firstUse) }

    /// Asks `validator` about each peer certificate (TN3213's custom trust evaluation). It runs during the
    /// handshake, on the thread driving the session, so it must be quick and must not block.
    public static func custom(_ validator: @escaping @Sendable (PeerCertificate) -> Bool) -> TLSTrust {
        TLSTrust(rule: .validator(validator))
    }

    /// Whether `certificate` is trusted and why; nil if it is refused.
    public func evaluate(_ certificate: PeerCertificate) -> Basis? {
        switch rule {
        case .pinned(let fingerprints): fingerprints.contains(certificate.fingerprint) ? .pinned : nil
        case .firstUse: .firstUse
        case .validator(let validator): validator(certificate) ? .validator : nil
        }
    }
}

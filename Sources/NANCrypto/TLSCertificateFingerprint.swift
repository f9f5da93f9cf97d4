import NANWire

/// The SHA-256 digest of a certificate's DER encoding: what a peer's certificate is pinned by.
///
/// Its text form is 64 lower-case hex digits (``description``); ``init(hex:)`` also accepts colons between
/// bytes (`3f:1a:…`), as `openssl x509 -fingerprint` prints them. Parsing goes through ``Hex``, the project's
/// one hex parser.
public struct CertificateFingerprint: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The 32 bytes of the SHA-256 digest.
    public let bytes: [UInt8]

    /// The fingerprint of the certificate `der`.
    ///
    /// - Throws: ``TLSError/Code-swift.struct/library`` if libcrypto cannot hash.
    public init(der: [UInt8]) throws(TLSError) {
        do {
            bytes = try Digest.sha256(der)
        } catch {
            throw TLSError(.library, "SHA-256 of a certificate: \(error)")
        }
    }

    /// Wraps 32 digest bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Parses 64 hex digits, optionally with `:` between bytes; nil for anything else.
    public init?(hex text: some StringProtocol) {
        guard let bytes = Hex.bytes(text, separators: ":"), bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// 64 lower-case hex digits.
    public var description: String { Hex.string(bytes) }

    /// Orders by bytes, for stable listings.
    public static func < (lhs: CertificateFingerprint, rhs: CertificateFingerprint) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}

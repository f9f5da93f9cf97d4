/// How connections are made and accepted (Apple's `NetworkParameters` with `TLS()` for Wi-Fi Aware).
public struct WAConnectionParameters: Sendable {
    /// How the data path under the connection is protected (NCS-SK with a passphrase or PMK, or open).
    /// TLS protects the connection itself either way.
    public var dataPathSecurity: WADataPathSecurity
    /// What carries the connection: mutual TLS 1.3 over TCP (the default), QUIC
    /// (``WAConnectionTransport/quic(alpn:)``), or ``WAConnectionTransport/plain`` TCP only when asked for.
    public var transport: WAConnectionTransport = .tls
    /// How the peer's TLS certificate is trusted: paired devices by their pinned certificate (the default),
    /// with trust on first use, or by the application's validator. Unused with plain TCP.
    public var trust: WAConnectionTrust = .pairedDevices
    /// This device's TLS identity file (key and self-signed certificate, PEM, 0600), made on first use; nil:
    /// `tls-identity.pem` in the folder of the system's paired-device store (next to `devices.json` and
    /// `peer-id`).
    public var identityFile: String? = nil
    /// Messages (default) or a raw byte stream; both ends must agree.
    public var mode: WAConnectionMode = .messages
    /// The largest message sent or accepted (default 1 MiB, at most 16 MiB).
    public var maximumMessageSize: Int = 1 << 20
    /// How long a connection may take from the data path being up to ready (TCP, TLS, preface).
    public var setupTimeout: Duration = .seconds(120)
    /// The listener's TCP port (0: one the kernel picks); it travels in the service info.
    public var listenerPort: UInt16 = 0
    /// The data path ends after this long with no packet either way; nil: never.
    public var idleTimeout: Duration? = nil
    /// Best-effort datagrams beside the connection (both ends must ask); nil (the default): none.
    public var datagrams: WADatagramOptions? = nil
    /// This device's peer identifier on the connection, sent in the preface and used for de-duplication
    /// (TN3213's app-supplied peer identifier, e.g. one the app persists in its own storage); nil (the
    /// default): the one kept next to the paired-device store (``WAPeerIdentifier/local(for:)``).
    public var peerIdentifier: WAPeerIdentifier? = nil

    /// Parameters with the data path's protection.
    public init(dataPathSecurity: WADataPathSecurity) {
        self.dataPathSecurity = dataPathSecurity
    }

    /// The peer identifier connections made with these parameters present.
    func localPeer(for store: WADeviceStore) throws(WAError) -> WAPeerIdentifier {
        if let peerIdentifier { return peerIdentifier }
        return try WAPeerIdentifier.local(for: store)
    }

    func check() throws(WAError) {
        guard (1...(16 << 20)).contains(maximumMessageSize) else {
            throw WAError(
                .invalidArgument, message: "the largest message is 1 byte to 16 MiB, not \(maximumMessageSize)")
        }
        try datagrams?.check()
        if transport.isQUIC {
            guard (1...16).contains(transport.alpn.count),
                transport.alpn.allSatisfy({ (1...255).contains($0.utf8.count) })
            else {
                throw WAError(
                    .invalidArgument,
                    message: "QUIC needs 1 to 16 application protocols (ALPN) of 1 to 255 bytes, not \(transport.alpn)")
            }
        }
    }
}

/// What carries a connection: TCP (plain, or under mutual TLS 1.3), or QUIC over UDP.
public struct WAConnectionTransport: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable { case plain, tls, quic }
    let kind: Kind
    /// QUIC's application protocols (ALPN), in preference order; empty for TCP.
    public let alpn: [String]

    init(kind: Kind, alpn: [String] = []) {
        self.kind = kind
        self.alpn = alpn
    }

    /// TLS 1.3 with mutual authentication (OpenSSL's libssl): each side presents its identity's
    /// certificate and checks the other's with the parameters' ``WAConnectionParameters/trust``. The default.
    public static let tls = WAConnectionTransport(kind: .tls)

    /// Plain TCP: no authentication of the peer and no encryption above the data path's own. Only when
    /// asked for explicitly (the CLI's `--plain`, which it announces).
    public static let plain = WAConnectionTransport(kind: .plain)

    /// QUIC (RFC 9000, ngtcp2 with GnuTLS, loaded on first use) offering or accepting the application
    /// protocols `alpn` (1 to 16 names of 1 to 255 bytes; both ends need one in common): the same identities
    /// and trust as ``tls``, the preface and messages on the connection's first stream, more streams with
    /// ``WAConnection/openStream()``, and datagrams as QUIC DATAGRAM frames (RFC 9221) always.
    public static func quic(alpn: [String]) -> WAConnectionTransport { WAConnectionTransport(kind: .quic, alpn: alpn) }

    /// Whether this is plain TCP.
    public var isPlain: Bool { kind == .plain }

    /// Whether this is QUIC.
    public var isQUIC: Bool { kind == .quic }

    /// `TLS 1.3`, `plain TCP` or `QUIC (ALPN a, b)`.
    public var description: String {
        switch kind {
        case .plain: "plain TCP"
        case .tls: "TLS 1.3"
        case .quic: "QUIC (ALPN \(alpn.joined(separator: ", ")))"
        }
    }
}

public import NANCrypto

/// What a QUIC connection needs besides its addresses: the application protocols, this device's identity,
/// how to trust the peer, and the bounds it keeps (hostile air applies to IP too).
public struct QUICConfiguration: Sendable {
    /// The application protocols (ALPN) offered by a client, in preference order, or accepted by a server.
    /// Each is 1 to 255 bytes of UTF-8; at most 16.
    public var alpn: [String]
    /// This device's key and certificate (the same identity TLS over TCP presents).
    public var identity: TLSIdentity
    /// How the peer's certificate is judged, during the handshake (the same rules as TLS over TCP).
    public var trust: TLSTrust
    /// The handshake's limit.
    public var handshakeTimeout: Duration = .seconds(10)
    /// The connection ends after this long without a packet from the peer.
    public var idleTimeout: Duration = .seconds(30)
    /// Bidirectional streams the peer may have open at once.
    public var maximumStreams = 32
    /// Bytes the peer may send on one stream before this side reads them. Each stream has its own: a stream
    /// nobody reads stalls only itself, and what a peer can make this side hold unread is at most
    /// ``maximumStreams`` × this (4 MiB by default).
    public var streamWindow = 128 * 1024
    /// Bytes one stream may have written and not yet acknowledged; a writer waits beyond it.
    public var streamSendBuffer = 256 * 1024
    /// Datagrams queued for sending at most (``QUICConnection/send(datagram:)`` refuses more).
    public var maximumQueuedDatagrams = 64
    /// The largest datagram this side receives, and the most a datagram sent may carry (RFC 9221 frames
    /// never span packets, so a datagram must fit one packet of the smallest QUIC path MTU).
    public static let maximumDatagramSize = 1100

    /// A configuration with the default bounds.
    public init(alpn: [String], identity: TLSIdentity, trust: TLSTrust) {
        self.alpn = alpn
        self.identity = identity
        self.trust = trust
    }

    /// The ALPN list in wire form (a length byte before each protocol), or nil if a protocol is empty or
    /// too long, or there is none.
    var alpnWireFormat: [UInt8]? {
        guard !alpn.isEmpty, alpn.count <= 16 else { return nil }
        var bytes: [UInt8] = []
        for name in alpn {
            let utf8 = Array(name.utf8)
            guard (1...255).contains(utf8.count) else { return nil }
            bytes.append(UInt8(utf8.count))
            bytes += utf8
        }
        return bytes
    }
}

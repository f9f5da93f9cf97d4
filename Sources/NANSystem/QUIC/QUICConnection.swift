public import NANCrypto

/// An established QUIC connection (RFC 9000, TLS 1.3 inside per RFC 9001) over one UDP socket bound to an
/// IPv6 address and interface: the NAN data interface's link-local address in real use.
///
/// Both sides present their identity and judge the other's certificate with a ``TLSTrust``, as TLS over
/// TCP does (``TLSStream``); the handshake fails on both sides if either refuses. Streams are bidirectional
/// (``openStream()``, ``inboundStreams``), datagrams are RFC 9221's (``send(datagram:)``, ``datagrams``).
/// The connection's packets are handled on a thread of its own, in the C shim (ngtcp2 and GnuTLS, loaded on
/// the first connection). Dropping the connection and all its streams closes it.
public final class QUICConnection: Sendable, CustomStringConvertible {
    /// The application protocol (ALPN) the two sides agreed on.
    public let applicationProtocol: String
    /// The certificate the peer presented.
    public let peerCertificate: PeerCertificate
    /// Why that certificate was trusted.
    public let trustBasis: TLSTrust.Basis
    /// This side's address and port.
    public let local: LinkLocalEndpoint
    let engine: QUICEngine

    init(engine: QUICEngine, established: QUICEvents.Established, local: LinkLocalEndpoint) {
        self.engine = engine
        self.applicationProtocol = established.applicationProtocol
        self.peerCertificate = established.peerCertificate
        self.trustBasis = established.trustBasis
        self.local = local
    }

    /// Connects from `local` (port 0: any) to the server at `remote` and completes the handshake. Returns
    /// once the server has confirmed it (so the server accepted this side's certificate).
    ///
    /// - Throws: ``QUICError/Code-swift.struct/unavailable`` without the QUIC libraries;
    ///   ``QUICError/Code-swift.struct/untrustedPeer``, ``QUICError/Code-swift.struct/refusedByPeer``,
    ///   ``QUICError/Code-swift.struct/noApplicationProtocol``,
    ///   ``QUICError/Code-swift.struct/handshakeTimedOut`` and the others when the handshake fails.
    public static func connect(
        to remote: LinkLocalEndpoint, from local: LinkLocalEndpoint, configuration: QUICConfiguration
    ) async throws(QUICError) -> QUICConnection {
        let engine = try QUICEngine.make(local: local, remote: remote, configuration: configuration)
        let established = try await engine.establish()
        var bound = local
        bound.port = engine.localPort
        return QUICConnection(engine: engine, established: established, local: bound)
    }

    /// Opens a bidirectional stream (waiting while the peer allows no more).
    public func openStream() async throws(QUICError) -> QUICStream { try await engine.openStream() }

    /// The streams the peer opens, in order; finishes when the connection ends. Iterate it from one task.
    public var inboundStreams: some AsyncSequence<QUICStream, Never> {
        engine.events.inbound.map { [engine] id in QUICStream(id: id, engine: engine) }
    }

    /// Sends a datagram (RFC 9221: unreliable, unordered, one packet; at most
    /// ``QUICConfiguration/maximumDatagramSize`` bytes).
    ///
    /// - Throws: ``QUICError/Code-swift.struct/datagramRefused`` if it is too large or the peer takes none,
    ///   ``QUICError/Code-swift.struct/datagramQueueFull`` if
    ///   ``QUICConfiguration/maximumQueuedDatagrams`` wait already, or why the connection ended.
    public func send(datagram: [UInt8]) throws(QUICError) { try engine.send(datagram: datagram) }

    /// The datagrams received (the newest 64 are kept while nobody reads); finishes when the connection
    /// ends. Iterate it from one task.
    public var datagrams: AsyncStream<[UInt8]> { engine.events.datagrams }

    /// Closes the connection, telling the peer application error `code` (0: no error), and waits until it
    /// has ended.
    public func close(code: UInt64 = 0) async { await engine.close(code: code) }

    /// Cancels the connection without waiting: every task waiting in a stream's `read` or `write`, or in
    /// ``openStream()``, throws ``QUICError/Code-swift.struct/cancelled`` at once; the connection itself closes with application error `code` once the peer has acknowledged what
    /// was written (at most `linger` later), so bytes written before the cancellation still arrive.
    public func cancel(code: UInt64 = 0, linger: Duration = .seconds(2)) { engine.cancel(code: code, linger: linger) }

    /// Waits until the connection ends (closed by either side, idle, or failed); why.
    public func ended() async -> QUICError { await engine.events.ended() }

    /// `QUIC <local> ALPN … peer …`.
    public var description: String { "QUIC \(local) ALPN \(applicationProtocol) peer \(peerCertificate)" }
}

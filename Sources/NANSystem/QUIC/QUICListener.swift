/// The server side of one QUIC connection: a UDP socket bound to an address and interface, waiting for
/// the first client's Initial packet. A NAN data path has one peer, so a listener takes one connection;
/// listen again for the next.
public final class QUICListener: Sendable, CustomStringConvertible {
    /// The address and port the listener is bound to (the port the kernel chose if it was 0).
    public let local: LinkLocalEndpoint
    private let engine: QUICEngine

    /// Binds to `local` (port 0: any).
    ///
    /// - Throws: ``QUICError/Code-swift.struct/unavailable`` without the QUIC libraries,
    ///   ``QUICError/Code-swift.struct/invalidConfiguration`` if the address, identity or ALPN list is unusable.
    public init(on local: LinkLocalEndpoint, configuration: QUICConfiguration) throws(QUICError) {
        engine = try QUICEngine.make(local: local, remote: nil, configuration: configuration)
        var bound = local
        bound.port = engine.localPort
        self.local = bound
    }

    /// Waits for a client and completes the handshake with it. Call once, from one task (a second call
    /// throws ``QUICError/Code-swift.struct/invalidConfiguration``).
    ///
    /// - Throws: why the handshake failed (see ``QUICConnection/connect(to:from:configuration:)``).
    public func accept() async throws(QUICError) -> QUICConnection {
        let established = try await engine.establish()
        return QUICConnection(engine: engine, established: established, local: local)
    }

    /// Stops waiting: a task in ``accept()`` throws ``QUICError/Code-swift.struct/cancelled`` and the socket
    /// closes once the listener is released. (Cancelling the task in ``accept()`` does the same.)
    public func cancel() { engine.cancel(code: 0, linger: .zero) }

    /// `QUIC listener <local>`.
    public var description: String { "QUIC listener \(local)" }
}

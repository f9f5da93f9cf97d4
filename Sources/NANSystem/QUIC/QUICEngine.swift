internal import CQUIC
internal import Glibc
internal import NANCrypto
internal import Synchronization

/// One QUIC connection in the C shim (CQUIC: ngtcp2 and GnuTLS, loaded on first use) and the Swift side of
/// its events. The shim runs the connection on a thread of its own; its callbacks land in ``QUICEvents``.
/// Freeing the shim's connection (``deinit``) stops that thread first, so no callback outlives this.
///
/// Lock order: the shim calls ``QUICEvents`` with its own lock held, so Swift never calls the shim while
/// holding ``QUICEvents``' lock.
final class QUICEngine: @unchecked Sendable {
    // @unchecked: `pointer` is only passed to the shim's functions, which lock the connection themselves.
    let pointer: OpaquePointer
    let events: QUICEvents
    let configuration: QUICConfiguration

    private init(pointer: OpaquePointer, events: QUICEvents, configuration: QUICConfiguration) {
        self.pointer = pointer
        self.events = events
        self.configuration = configuration
    }

    deinit { waware_quic_free(pointer) }

    /// A connection bound to `local`: a client's (connected to `remote`) or, with no `remote`, a server's.
    static func make(
        local: LinkLocalEndpoint, remote: LinkLocalEndpoint?, configuration: QUICConfiguration
    ) throws(QUICError) -> QUICEngine {
        guard let alpn = configuration.alpnWireFormat else {
            throw QUICError(
                .invalidConfiguration, "ALPN: 1 to 16 protocols of 1 to 255 bytes each, not \(configuration.alpn)")
        }
        let pem: [UInt8]
        do { pem = try configuration.identity.pemEncoded() } catch {
            throw QUICError(.invalidConfiguration, "identity: \(error)")
        }
        let localAddress: sockaddr_in6
        let remoteAddress: sockaddr_in6?
        do {
            localAddress = try local.socketAddress()
            remoteAddress = try remote?.socketAddress()
        } catch { throw QUICError(.invalidConfiguration, "\(error)") }

        let events = QUICEvents(trust: configuration.trust, alpn: configuration.alpn, isServer: remote == nil)
        var message = [CChar](repeating: 0, count: 256)
        let pointer = pem.withUnsafeBufferPointer { pem in
            alpn.withUnsafeBufferPointer { alpn in
                var config = waware_quic_config(
                    server: remote == nil ? 1 : 0,
                    identity_pem: pem.baseAddress, identity_pem_length: pem.count,
                    alpn: alpn.baseAddress, alpn_length: alpn.count,
                    handshake_timeout: configuration.handshakeTimeout.nanoseconds,
                    idle_timeout: configuration.idleTimeout.nanoseconds,
                    max_streams: UInt64(configuration.maximumStreams),
                    stream_window: UInt64(configuration.streamWindow),
                    stream_send_buffer: UInt64(configuration.streamSendBuffer),
                    max_queued_datagrams: configuration.maximumQueuedDatagrams,
                    max_datagram_size: QUICConfiguration.maximumDatagramSize + 8)
                var local = localAddress
                return withUnsafePointer(to: &local) { local in
                    if var remote = remoteAddress {
                        return withUnsafePointer(to: &remote) { remote in
                            waware_quic_new(&config, local, remote, events.callbacks, &message, message.count)
                        }
                    }
                    return waware_quic_new(&config, local, nil, events.callbacks, &message, message.count)
                }
            }
        }
        guard let pointer else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw QUICError(text.hasPrefix("QUIC needs") ? .unavailable : .invalidConfiguration, text)
        }
        return QUICEngine(pointer: pointer, events: events, configuration: configuration)
    }

    /// The port the connection's socket is bound to.
    var localPort: UInt16 { waware_quic_local_port(pointer) }

    /// Starts the connection's thread and waits for the handshake.
    func establish() async throws(QUICError) -> QUICEvents.Established {
        let rv = waware_quic_start(pointer)
        guard rv != -EALREADY else { throw QUICError(.invalidConfiguration, "the connection was started already") }
        guard rv == 0 else { throw QUICError(.socket, "thread: \(String(cString: strerror(-rv)))") }
        return try await events.established()
    }

    /// Opens a bidirectional stream, waiting while the peer allows no more.
    func openStream() async throws(QUICError) -> QUICStream {
        while true {
            let generation = events.progressGeneration
            var id: Int64 = 0
            let rv = waware_quic_open_stream(pointer, &id)
            if rv == 0 {
                events.track(id)
                return QUICStream(id: QUICStreamID(rawValue: id), engine: self)
            }
            guard rv == -EAGAIN else { throw events.failure(rv, "open a stream") }
            try await events.waitForProgress(after: generation)
        }
    }

    /// Queues all of `bytes` on `stream` (waiting while its send buffer is full), then its end if `fin`.
    func write(_ bytes: [UInt8], to stream: Int64, fin: Bool) async throws(QUICError) {
        var offset = 0
        repeat {
            let generation = events.progressGeneration
            let rv = bytes.withUnsafeBufferPointer { buffer in
                waware_quic_stream_write(
                    pointer, stream, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, fin ? 1 : 0)
            }
            guard rv >= 0 else { throw events.failure(Int32(rv), "stream \(stream)") }
            offset += Int(rv)
            if offset < bytes.count { try await events.waitForProgress(after: generation) }
        } while offset < bytes.count
    }

    /// Up to `maximum` bytes of `stream`, waiting for some; empty at its end.
    func read(from stream: Int64, maximum: Int) async throws(QUICError) -> [UInt8] {
        let bytes = try await events.read(from: stream, maximum: maximum)
        if !bytes.isEmpty { waware_quic_consumed(pointer, stream, bytes.count) }
        return bytes
    }

    /// Resets `stream` both ways.
    func reset(_ stream: Int64, code: UInt64) { waware_quic_stream_reset(pointer, stream, code) }

    /// Queues a datagram.
    func send(datagram: [UInt8]) throws(QUICError) {
        guard datagram.count <= QUICConfiguration.maximumDatagramSize else {
            throw QUICError(
                .datagramRefused, "\(datagram.count) bytes (at most \(QUICConfiguration.maximumDatagramSize))")
        }
        let rv = datagram.withUnsafeBufferPointer { waware_quic_send_datagram(pointer, $0.baseAddress, $0.count) }
        switch rv {
        case 0: return
        case -EAGAIN: throw QUICError(.datagramQueueFull, "\(configuration.maximumQueuedDatagrams) queued")
        case -EMSGSIZE: throw QUICError(.datagramRefused, "\(datagram.count) bytes do not fit the peer's limit")
        case -ENOTSUP: throw QUICError(.datagramRefused, "the peer takes no datagrams")
        default: throw events.failure(rv, "datagram")
        }
    }

    /// Ends this side's waits now (they throw `cancelled`), then closes the connection with application
    /// error `code` once the peer has acknowledged every byte written (at most `linger` later), as a TCP
    /// close delivers what was written before it.
    func cancel(code: UInt64, linger: Duration) {
        events.interrupt()
        Task.detached { [self] in
            _ = await events.waitUntil(within: linger) { [self] in waware_quic_unacknowledged(pointer) <= 0 }
            waware_quic_close(pointer, code)
        }
    }

    /// Closes the connection with application error `code` and waits until it has ended.
    func close(code: UInt64) async {
        waware_quic_close(pointer, code)
        _ = await events.ended()
    }
}

extension Duration {
    /// Whole nanoseconds (negative durations as 0).
    fileprivate var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}

internal import CQUIC
internal import Glibc
internal import NANCrypto
internal import Synchronization

/// The Swift side of one QUIC connection's events: what the shim reports on its thread (the peer's
/// certificate, the handshake, stream bytes, datagrams, the end), kept until the owner's tasks take it.
/// Every callback only records and wakes (it runs with the shim's lock held).
final class QUICEvents: Sendable {
    /// What the handshake settled.
    struct Established: Sendable {
        let applicationProtocol: String
        let peerCertificate: PeerCertificate
        let trustBasis: TLSTrust.Basis
    }

    /// One stream's received bytes, not yet read.
    private struct Incoming {
        var bytes: [UInt8] = []
        var finished = false
        var reset: UInt64?
        var reader: CheckedContinuation<Void, Never>?
    }

    private struct State {
        var peer: (certificate: PeerCertificate, basis: TLSTrust.Basis)?
        var refused: String?
        var established: Established?
        var end: QUICError?
        var handshakeWaiters: [CheckedContinuation<Void, Never>] = []
        var progress: UInt64 = 0
        var progressWaiters: [CheckedContinuation<Void, Never>] = []
        var streams: [Int64: Incoming] = [:]
        /// This side ended its waits (``interrupt()``).
        var interrupted = false
    }

    private let trust: TLSTrust
    private let alpn: [String]
    private let isServer: Bool
    private let state = Mutex(State())
    /// Streams the peer opened, and datagrams received (the newest 64 kept while nobody reads). Streams go
    /// out as identifiers: a ``QUICStream`` holds its engine, and one buffered here (the engine holds this)
    /// would keep the engine alive for ever.
    let inbound: AsyncStream<QUICStreamID>
    let datagrams: AsyncStream<[UInt8]>
    private let inboundSink: AsyncStream<QUICStreamID>.Continuation
    private let datagramSink: AsyncStream<[UInt8]>.Continuation

    init(trust: TLSTrust, alpn: [String], isServer: Bool) {
        self.trust = trust
        self.alpn = alpn
        self.isServer = isServer
        (inbound, inboundSink) = AsyncStream.makeStream()
        (datagrams, datagramSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    /// The shim's callback table, with this object as the (unretained) context: the engine holding this
    /// frees the shim's connection, and with it the thread calling these, before letting go of it.
    var callbacks: waware_quic_callbacks {
        waware_quic_callbacks(
            context: Unmanaged.passUnretained(self).toOpaque(),
            verify: { context, der, length in
                QUICEvents.from(context).verify(Array(UnsafeBufferPointer(start: der, count: length))) ? 0 : 1
            },
            established: { context, alpn, length in
                QUICEvents.from(context).established(
                    String(decoding: UnsafeBufferPointer(start: alpn, count: length), as: UTF8.self))
            },
            stream_opened: { context, stream in QUICEvents.from(context).opened(stream) },
            stream_data: { context, stream, data, length, fin in
                QUICEvents.from(context).received(
                    Array(UnsafeBufferPointer(start: data, count: length)), on: stream, fin: fin != 0)
            },
            stream_closed: { context, stream, reset, code in
                QUICEvents.from(context).closed(stream, reset: reset != 0 ? code : nil)
            },
            datagram: { context, data, length in
                QUICEvents.from(context).datagramSink.yield(Array(UnsafeBufferPointer(start: data, count: length)))
            },
            progress: { context in QUICEvents.from(context).progressed() },
            ended: { context, kind, code, reason, length in
                let text =
                    reason.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
                QUICEvents.from(context).ended(kind: Int32(kind), code: code, reason: text)
            })
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> QUICEvents {
        Unmanaged<QUICEvents>.fromOpaque(context!).takeUnretainedValue()
    }

    // MARK: The shim's callbacks (its thread, its lock held).

    private func verify(_ der: [UInt8]) -> Bool {
        guard let certificate = try? PeerCertificate(der: der) else {
            state.withLock { $0.refused = "a certificate that does not parse" }
            return false
        }
        guard let basis = trust.evaluate(certificate) else {
            state.withLock { $0.refused = "\(certificate)" }
            return false
        }
        state.withLock { $0.peer = (certificate, basis) }
        return true
    }

    private func established(_ applicationProtocol: String) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if let peer = state.peer {
                state.established = Established(
                    applicationProtocol: applicationProtocol, peerCertificate: peer.certificate, trustBasis: peer.basis)
            }
            defer { state.handshakeWaiters = [] }
            return state.handshakeWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func opened(_ stream: Int64) {
        state.withLock { $0.streams[stream] = $0.streams[stream] ?? Incoming() }
        inboundSink.yield(QUICStreamID(rawValue: stream))
    }

    private func received(_ bytes: [UInt8], on stream: Int64, fin: Bool) {
        let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
            var incoming = state.streams[stream] ?? Incoming()
            incoming.bytes += bytes
            incoming.finished = incoming.finished || fin
            defer { incoming.reader = nil; state.streams[stream] = incoming }
            return incoming.reader
        }
        reader?.resume()
    }

    private func closed(_ stream: Int64, reset: UInt64?) {
        let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard var incoming = state.streams[stream] else { return nil }
            if let reset, !incoming.finished { incoming.reset = reset }
            incoming.finished = true
            defer { incoming.reader = nil; state.streams[stream] = incoming }
            return incoming.reader
        }
        reader?.resume()
        progressed()  // a writer waiting on this stream learns it is gone
    }

    private func progressed() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.progress &+= 1
            defer { state.progressWaiters = [] }
            return state.progressWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func ended(kind: Int32, code: Int64, reason: String) {
        let (handshake, progress, readers) = state.withLock {
            state -> (
                [CheckedContinuation<Void, Never>], [CheckedContinuation<Void, Never>],
                [CheckedContinuation<Void, Never>]
            ) in
            state.end = error(kind: kind, code: code, reason: reason, refused: state.refused)
            let readers = state.streams.values.compactMap(\.reader)
            for key in state.streams.keys { state.streams[key]?.reader = nil }
            defer { state.handshakeWaiters = []; state.progressWaiters = [] }
            return (state.handshakeWaiters, state.progressWaiters, readers)
        }
        for waiter in handshake + progress + readers { waiter.resume() }
        inboundSink.finish()
        datagramSink.finish()
    }

    /// What ended the connection, as the owner's error.
    private func error(kind: Int32, code: Int64, reason: String, refused: String?) -> QUICError {
        let because = reason.isEmpty ? "" : " (\(reason))"
        let ours = alpn.joined(separator: ", ")
        switch UInt32(kind) {
        case WAWARE_QUIC_END_CLOSED.rawValue: return QUICError(.closed)
        case WAWARE_QUIC_END_PEER_CLOSED.rawValue:
            return QUICError(.closedByPeer, "application error \(code)\(because)")
        case WAWARE_QUIC_END_LOCAL_ALERT.rawValue where code == 120:
            return QUICError(
                .noApplicationProtocol,
                isServer
                    ? "the peer offered none of the protocols we accept (\(ours))"
                    : "the peer chose none of the protocols we offered (\(ours))")
        case WAWARE_QUIC_END_LOCAL_ALERT.rawValue where refused != nil:
            return QUICError(.untrustedPeer, refused ?? "")
        case WAWARE_QUIC_END_LOCAL_ALERT.rawValue: return QUICError(.handshakeFailed, "we sent TLS alert \(code)")
        case WAWARE_QUIC_END_PEER_ALERT.rawValue where code == 120:
            return QUICError(
                .noApplicationProtocol,
                isServer
                    ? "the peer accepts none of the protocols we accept (\(ours))"
                    : "the peer accepts none of the protocols we offered (\(ours))")
        case WAWARE_QUIC_END_PEER_ALERT.rawValue where code == 42:
            return QUICError(.refusedByPeer, "bad_certificate\(because)")
        case WAWARE_QUIC_END_PEER_ALERT.rawValue:
            return QUICError(.handshakeFailed, "the peer sent TLS alert \(code)\(because)")
        case WAWARE_QUIC_END_PEER_ERROR.rawValue:
            return QUICError(
                .protocolError, "the peer closed with transport error 0x\(String(code, radix: 16))\(because)")
        case WAWARE_QUIC_END_IDLE.rawValue: return QUICError(.idleTimedOut)
        case WAWARE_QUIC_END_HANDSHAKE_TIMEOUT.rawValue: return QUICError(.handshakeTimedOut)
        case WAWARE_QUIC_END_SOCKET.rawValue: return QUICError(.socket, reason)
        default: return QUICError(.protocolError, reason)
        }
    }

    // MARK: The owner's side.

    /// The current progress count: a writer reads it before trying, then waits for it to change.
    var progressGeneration: UInt64 { state.withLock { $0.progress } }

    /// Whether waits end now: the connection ended, this side interrupted them (``interrupt()``), or the
    /// waiting task is cancelled. Called with the lock held, from the waiting task.
    private static func mustStop(_ state: State) -> Bool {
        state.end != nil || state.interrupted || Task.isCancelled
    }

    /// Every waiting continuation, removed from the state (the lock held).
    private static func takeWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        var waiters = state.handshakeWaiters + state.progressWaiters
        for key in state.streams.keys {
            if let reader = state.streams[key]?.reader { waiters.append(reader) }
            state.streams[key]?.reader = nil
        }
        state.handshakeWaiters = []
        state.progressWaiters = []
        return waiters
    }

    /// Wakes every waiting task (each looks again at why it waits: its task's cancellation included).
    private func wakeAll() {
        for waiter in state.withLock({ Self.takeWaiters(&$0) }) { waiter.resume() }
    }

    /// Ends every wait of this side at once and for good: reads, writes, `openStream` and the handshake throw
    /// ``QUICError/Code-swift.struct/cancelled`` from now on (the connection itself closes after).
    func interrupt() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.interrupted = true
            return Self.takeWaiters(&state)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Suspends until `register` (called with the lock held) keeps the continuation and it is resumed, or
    /// not at all when it does not keep it or waiting must stop; woken early by the task's cancellation.
    /// Then throws `cancelled` if this side interrupted its waits or the task is cancelled (the caller looks
    /// at the connection's end itself: bytes received before it are still read).
    private func suspend(
        _ register: (inout State, CheckedContinuation<Void, Never>) -> Bool
    ) async throws(QUICError) {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let kept = state.withLock { state -> Bool in
                    if Self.mustStop(state) { return false }
                    return register(&state, continuation)
                }
                if !kept { continuation.resume() }
            }
        } onCancel: {
            wakeAll()
        }
        if state.withLock({ $0.interrupted }) { throw QUICError(.cancelled, "the connection was cancelled") }
        if Task.isCancelled { throw QUICError(.cancelled, "the waiting task was cancelled") }
    }

    /// Waits until the progress count differs from `generation`.
    ///
    /// - Throws: why the connection ended, if it has; ``QUICError/Code-swift.struct/cancelled`` if this side
    ///   interrupted its waits or the task is cancelled.
    func waitForProgress(after generation: UInt64) async throws(QUICError) {
        try await suspend { state, continuation in
            guard state.progress == generation else { return false }
            state.progressWaiters.append(continuation)
            return true
        }
        if let end = state.withLock({ $0.end }) { throw end }
    }

    /// Waits for the progress count to move past `generation`, or the end; neither interruption nor
    /// cancellation ends this wait (``ended()``, draining before a close).
    private func waitUninterrupted(after generation: UInt64) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.end != nil || state.progress != generation { return true }
                state.progressWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Waits for the handshake's outcome.
    func established() async throws(QUICError) -> Established {
        while true {
            let (established, end) = state.withLock { ($0.established, $0.end) }
            if let established { return established }
            if let end { throw end }
            try await suspend { state, continuation in
                guard state.established == nil else { return false }
                state.handshakeWaiters.append(continuation)
                return true
            }
        }
    }

    /// Waits until the connection has ended; why.
    func ended() async -> QUICError {
        while true {
            let (end, generation) = state.withLock { ($0.end, $0.progress) }
            if let end { return end }
            await waitUninterrupted(after: generation)
        }
    }

    /// Waits (at most `limit`) until `isDone` says so, looking again at each progress; false on timeout or
    /// at the connection's end.
    func waitUntil(within limit: Duration, _ isDone: @escaping @Sendable () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline)
            self?.progressed()
        }
        defer { timer.cancel() }
        while true {
            let (end, generation) = state.withLock { ($0.end, $0.progress) }
            if isDone() { return true }
            if end != nil || ContinuousClock.now >= deadline { return false }
            await waitUninterrupted(after: generation)
        }
    }

    /// Starts keeping received bytes for a stream this side opened.
    func track(_ stream: Int64) { state.withLock { $0.streams[stream] = $0.streams[stream] ?? Incoming() } }

    /// Up to `maximum` received bytes of `stream`, waiting for some; empty at its end.
    func read(from stream: Int64, maximum: Int) async throws(QUICError) -> [UInt8] {
        while true {
            enum Outcome { case bytes([UInt8]), reset(UInt64), end(QUICError), wait }
            let outcome = state.withLock { state -> Outcome in
                guard var incoming = state.streams[stream] else { return .bytes([]) }
                if let reset = incoming.reset { return .reset(reset) }
                if !incoming.bytes.isEmpty {
                    let taken = Array(incoming.bytes.prefix(maximum))
                    incoming.bytes.removeFirst(taken.count)
                    state.streams[stream] = incoming
                    return .bytes(taken)
                }
                if incoming.finished {
                    state.streams[stream] = nil
                    return .bytes([])
                }
                if let end = state.end { return .end(end) }
                return .wait
            }
            switch outcome {
            case .bytes(let bytes): return bytes
            case .reset(let code):
                throw QUICError(.streamReset, "\(QUICStreamID(rawValue: stream)): application error \(code)")
            case .end(let error): throw error
            case .wait:
                try await suspend { state, continuation in
                    guard var incoming = state.streams[stream], incoming.bytes.isEmpty, !incoming.finished else {
                        return false
                    }
                    incoming.reader = continuation
                    state.streams[stream] = incoming
                    return true
                }
            }
        }
    }

    /// The error for a shim call that returned `-errno` `rv`.
    func failure(_ rv: Int32, _ what: String) -> QUICError {
        if rv == -EPIPE, let end = state.withLock({ $0.end }) { return end }
        if rv == -ENOENT { return QUICError(.streamFinished, what) }
        return QUICError(.protocolError, "\(what): \(String(cString: strerror(-rv)))")
    }
}

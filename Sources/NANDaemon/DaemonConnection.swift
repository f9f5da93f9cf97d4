public import NANEngine
public import NANSystem
public import NANWire
internal import Synchronization

/// A program's connection to the daemon (the library's side of the protocol): requests answered by id, and
/// the events of its sessions, each to its own stream. When the connection ends, every session stream ends
/// and ``closed`` says so.
public final class DaemonConnection: Sendable {
    private struct State {
        var nextID: UInt64 = 1
        var waiting: [UInt64: CheckedContinuation<DaemonMessage, Never>] = [:]
        var sessions: [UInt32: AsyncStream<DiscoveryEvent>.Continuation] = [:]
        var ended: DaemonError?
    }

    let socket: LocalSocket
    private let state = Mutex(State())
    /// The adapter and our NMI address, as the daemon said at hello.
    public let adapter: String
    /// Our NMI address.
    public let localAddress: MACAddress
    private let reader: Mutex<Task<Void, Never>?> = Mutex(nil)
    /// Lines to write, in order, by one writer task (lines from several callers never interleave).
    private let outgoing: AsyncStream<[UInt8]>.Continuation

    private init(socket: LocalSocket, adapter: String, localAddress: MACAddress) {
        self.socket = socket
        self.adapter = adapter
        self.localAddress = localAddress
        let (lines, outgoing) = AsyncStream.makeStream(of: [UInt8].self)
        self.outgoing = outgoing
        Task { [socket] in
            for await line in lines {
                do {
                    try await socket.send(line, timeout: .seconds(10))
                } catch {
                    socket.cancel()
                    return
                }
            }
        }
    }

    deinit {
        outgoing.finish()
        socket.cancel()
    }

    /// Connects to the daemon at `path` and says hello for `adapter`.
    ///
    /// - Throws: `DaemonError` `unavailable` when nothing answers at `path` (no daemon), the daemon's refusal
    ///   (`permissionDenied`, `adapterUnavailable`, ...) otherwise.
    public static func connect(
        path: String, adapter: String, timeout: Duration = .seconds(5)
    ) async throws(DaemonError) -> DaemonConnection {
        let socket: LocalSocket
        do {
            socket = try await LocalSocket.connect(to: path, timeout: timeout)
        } catch  where error.errno == .accessDenied || error.errno == .notPermitted {
            throw .permissionDenied(
                "wawared at \(path) refuses this user: only root and members of group '\(DaemonProtocol.group)' may use it"
            )
        } catch {
            throw DaemonError("unavailable", "no daemon answers at \(path): \(error)")
        }
        var hello = DaemonRequest(id: 0, method: .hello)
        hello.adapter = adapter
        var codec = LineCodec()
        let answer: DaemonMessage
        do {
            try await socket.send(LineCodec.encode(hello), timeout: timeout)
            var found: DaemonMessage?
            let deadline = ContinuousClock.now + timeout
            while found == nil {
                let bytes = try await socket.receive(maximum: 65_536, timeout: deadline - .now)
                guard !bytes.isEmpty else { break }
                for case .line(let line) in codec.feed(bytes) {
                    if let message = LineCodec.decodeMessage(line), message.event == nil {
                        found = message
                        break
                    }
                }
            }
            guard let found else { throw DaemonError("unavailable", "the daemon at \(path) closed the connection") }
            answer = found
        } catch let error as DaemonError {
            socket.cancel()
            throw error
        } catch {
            socket.cancel()
            throw DaemonError("unavailable", "the daemon at \(path) does not answer: \(error)")
        }
        if let error = answer.error {
            socket.cancel()
            throw error
        }
        guard let reply = answer.reply, let text = reply.localAddress, let address = MACAddress(text) else {
            socket.cancel()
            throw DaemonError("unavailable", "the daemon at \(path) answered hello with no address")
        }
        let connection = DaemonConnection(socket: socket, adapter: reply.adapter ?? adapter, localAddress: address)
        let task = Task { [codec] in await connection.read(codec: codec) }
        connection.reader.withLock { $0 = task }
        return connection
    }

    /// Why the connection ended; nil while it runs.
    public var closed: DaemonError? { state.withLock { $0.ended } }

    /// Ends the connection: the daemon stops every session of ours.
    public func close() {
        socket.cancel()
    }

    private func read(codec: LineCodec) async {
        var codec = codec
        loop: while true {
            let bytes: [UInt8]
            do {
                bytes = try await socket.receive(maximum: 65_536)
            } catch {
                break
            }
            guard !bytes.isEmpty else { break }
            for output in codec.feed(bytes) {
                guard case .line(let line) = output else { break loop }
                guard let message = LineCodec.decodeMessage(line) else { continue }
                deliver(message)
            }
        }
        finish(DaemonError("connectionLost", "the connection to wawared ended"))
    }

    private func deliver(_ message: DaemonMessage) {
        if let event = message.event {
            let continuation = state.withLock { $0.sessions[event.session] }
            if let continuation, let decoded = event.discoveryEvent(now: .now) {
                continuation.yield(decoded)
                if case .terminated = decoded {
                    continuation.finish()
                    state.withLock { _ = $0.sessions.removeValue(forKey: event.session) }
                }
            }
            return
        }
        guard let id = message.id else {
            if let error = message.error { finish(error) }
            return
        }
        // A reply that starts a session registers its stream here, before any of its events is read.
        if let session = message.reply?.session {
            let (stream, continuation) = AsyncStream.makeStream(
                of: DiscoveryEvent.self, bufferingPolicy: .bufferingNewest(256))
            state.withLock { $0.sessions[session] = continuation }
            pendingStreams.withLock { $0[session] = stream }
        }
        let waiting = state.withLock { $0.waiting.removeValue(forKey: id) }
        waiting?.resume(returning: message)
    }

    private let pendingStreams = Mutex<[UInt32: AsyncStream<DiscoveryEvent>]>([:])

    private func finish(_ error: DaemonError) {
        let (waiting, sessions) = state.withLock { s in
            if s.ended == nil { s.ended = error }
            defer {
                s.waiting = [:]
                s.sessions = [:]
            }
            return (Array(s.waiting.values), Array(s.sessions.values))
        }
        for w in waiting { w.resume(returning: .error(nil, error)) }
        for s in sessions { s.finish() }
        outgoing.finish()
        socket.cancel()
    }

    /// Sends `request` (its id is set here) and waits for its answer.
    public func call(_ request: DaemonRequest) async throws(DaemonError) -> DaemonReply {
        var request = request
        let message: DaemonMessage = await withCheckedContinuation { continuation in
            let ended = state.withLock { s -> DaemonError? in
                if let ended = s.ended { return ended }
                request.id = s.nextID
                s.nextID += 1
                s.waiting[request.id] = continuation
                return nil
            }
            if let ended {
                continuation.resume(returning: .error(nil, ended))
                return
            }
            outgoing.yield(LineCodec.encode(request))
        }
        if let error = message.error { throw error }
        return message.reply ?? DaemonReply()
    }

    /// Starts a publish or subscribe: the session number, its instance ID and its events.
    public func startSession(
        _ request: DaemonRequest
    ) async throws(DaemonError) -> (
        session: UInt32, instanceID: InstanceID, events: AsyncStream<DiscoveryEvent>
    ) {
        let reply = try await call(request)
        guard let session = reply.session, let instance = reply.instance,
            let stream = pendingStreams.withLock({ $0.removeValue(forKey: session) })
        else { throw DaemonError("engine", "the daemon started no session") }
        return (session, InstanceID(instance), stream)
    }
}

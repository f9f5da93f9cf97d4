internal import Synchronization

/// A connection to a peer over Wi-Fi Aware, shaped as Apple's `NetworkConnection`: made to an endpoint a
/// ``NetworkBrowser`` found, or handed out by a ``NetworkListener``; what it sends and receives follows its
/// protocol stack (bytes for `TLS()` or `TCP()`, typed messages for `TLV`, values for `Coder`, datagrams
/// for `UDP()`).
///
/// ```swift
/// let connection = NetworkConnection(to: endpoint, using: { TLS() })
///     .onStateUpdate { connection, state in print(state) }
/// try await connection.send(Data("hello".utf8))
/// ```
///
/// Underneath it is a ``WAConnection`` made by ``WASystem/withConnection(to:parameters:onStateUpdate:_:)``
/// on the shared radio (``NetworkWiFiAware``), in byte-stream mode; this type frames the messages. A
/// connection made to an endpoint starts at its first `send`, `receive` or ``start()``; it ends with
/// ``cancel()``, when the last reference to it goes, or when the peer ends it.
public final class NetworkConnection<ApplicationProtocol: NetworkProtocolOptions>: Sendable {
    /// Where the connection stands.
    public typealias State = NetworkState
    /// Called at each state change.
    public typealias StateUpdateHandler = @Sendable (NetworkConnection<ApplicationProtocol>, State) -> Void
    /// Called when the connection's viability changes.
    public typealias ViabilityUpdateHandler = @Sendable (NetworkConnection<ApplicationProtocol>, Bool) -> Void

    private struct Core {
        var state: State = .setup
        var handler: StateUpdateHandler?
        var viabilityHandler: ViabilityUpdateHandler?
        var connection: WAConnection?
        var ready: Task<WAConnection, any Error>?
        var release: AsyncStream<Void>.Continuation?
        var runner: Task<Void, Never>?
    }

    /// The protocol stack.
    public let stack: ApplicationProtocol
    /// The listener's endpoint this connection is made to; nil for one a listener accepted.
    public let endpoint: WAEndpoint?
    let plan: Result<StackPlan, NWError>
    private let core: Mutex<Core>
    let buffer = ReceiveBuffer()

    /// A connection to a listener's endpoint with the protocol stack `using` builds (nothing happens
    /// before its first use).
    public init(
        to endpoint: WAEndpoint, @ProtocolStackBuilder<ApplicationProtocol> using stack: () -> ApplicationProtocol
    ) {
        let stack = stack()
        self.endpoint = endpoint
        self.stack = stack
        plan = Result(catching: { () throws(NWError) -> StackPlan in try stack.plan() })
        core = Mutex(Core())
    }

    /// A connection a listener accepted, ready.
    init(accepted connection: WAConnection, stack: ApplicationProtocol, plan: StackPlan) {
        endpoint = nil
        self.stack = stack
        self.plan = .success(plan)
        core = Mutex(Core(state: .ready, connection: connection))
        Task { [weak self, states = connection.states] in
            for await state in states where state != .ready {
                self?.update(NetworkState(state))
            }
        }
        watchViability(of: connection)
    }

    deinit {
        let (release, runner, connection) = core.withLock { ($0.release, $0.runner, $0.connection) }
        release?.finish()
        runner?.cancel()
        connection?.cancel()
    }

    /// Calls `handler` at each state change from now on (Apple's `onStateUpdate`).
    @discardableResult
    public func onStateUpdate(_ handler: @escaping StateUpdateHandler) -> Self {
        core.withLock { $0.handler = handler }
        return self
    }

    /// Calls `handler` each time the connection's viability changes (Apple's `onViabilityUpdate`): false
    /// while the data path cannot carry packets (its peer misses the data path's keepalives, from the second
    /// in a row, about 4 s, and is not lost yet), true when it can again. A peer that stays silent is lost
    /// and the connection fails. A connection starts viable; the handler is told changes only.
    @discardableResult
    public func onViabilityUpdate(_ handler: @escaping ViabilityUpdateHandler) -> Self {
        core.withLock { $0.viabilityHandler = handler }
        return self
    }

    /// The state now.
    public var state: State { core.withLock { $0.state } }

    /// The path the connection runs over, once it is ready (Apple's `currentPath`): the data path, and
    /// through ``NWPath/wifiAware`` its performance.
    public var currentPath: NWPath? {
        core.withLock { $0.connection }.map { NWPath(dataPath: $0.dataPath) }
    }

    /// The WiFiAware connection underneath, once ready: the peer's identifier, its paired device, the
    /// certificate it presented.
    public var wifiAwareConnection: WAConnection? { core.withLock { $0.connection } }

    /// Starts the connection if it has not started, and waits until it is ready.
    ///
    /// - Throws: ``NWError`` when it cannot be set up (``NWError/wifiAware`` says why underneath).
    public func start() async throws(NWError) { _ = try await ready() }

    /// Ends the connection (state `cancelled`); calls waiting on it fail.
    public func cancel() {
        let (release, runner, connection) = core.withLock { ($0.release, $0.runner, $0.connection) }
        release?.finish()
        runner?.cancel()
        connection?.cancel()
        update(.cancelled)
    }

    /// Moves to `state` and tells the handler; nothing moves after `failed` or `cancelled`.
    func update(_ state: State) {
        let handler = core.withLock { core -> StateUpdateHandler? in
            switch core.state {
            case .failed, .cancelled: return nil
            default: break
            }
            guard core.state != state else { return nil }
            core.state = state
            return core.handler
        }
        handler?(self, state)
    }

    /// Tells the viability handler of each change of `connection`'s viability, until it ends.
    private func watchViability(of connection: WAConnection) {
        Task { [weak self, updates = connection.viabilityUpdates] in
            for await isViable in updates {
                guard let self else { return }
                core.withLock { $0.viabilityHandler }?(self, isViable)
            }
        }
    }

    /// The WiFiAware connection, set up now if this is the first use.
    func ready() async throws(NWError) -> WAConnection {
        let task = core.withLock { core -> Task<WAConnection, any Error>? in
            if core.connection != nil || core.ready != nil { return core.ready }
            switch core.state {
            case .failed, .cancelled: return nil  // cancelled before its first use: it never starts
            default: start(&core)
            }
            return core.ready
        }
        if let connection = core.withLock({ $0.connection }) { return connection }
        guard let task else { throw NWError(.cancelled, message: "the connection was cancelled") }
        do { return try await task.value } catch { throw NWError.from(error) }
    }

    private func start(_ core: inout Core) {
        guard let endpoint else { return }
        let plan = plan
        let (up, upContinuation) = AsyncThrowingStream.makeStream(
            of: WAConnection.self, bufferingPolicy: .bufferingNewest(1))
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        core.release = release
        core.ready = Task {
            for try await connection in up { return connection }
            throw NWError(.cancelled, message: "the connection was cancelled before it was ready")
        }
        core.runner = Task { [weak self] in
            do {
                var parameters = try plan.get().parameters(security: SharedSystem.shared.configuration.dataPathSecurity)
                parameters.peerIdentifier = SharedSystem.shared.configuration.peerIdentifier
                let system = try await SharedSystem.shared.system()
                try await system.withConnection(
                    to: endpoint, parameters: parameters,
                    onStateUpdate: { [weak self] state in
                        // `ready` is told once the connection is in place (its path readable).
                        if state != .ready { self?.update(NetworkState(state)) }
                    }
                ) { connection in
                    self?.core.withLock { $0.connection = connection }
                    self?.watchViability(of: connection)
                    upContinuation.yield(connection)
                    upContinuation.finish()
                    self?.update(.ready)
                    for await _ in released {}
                }
            } catch {
                upContinuation.finish(throwing: error)
                self?.update(.failed(NWError.from(error)))
            }
        }
    }
}

/// Bytes read from the connection and not yet handed out: the rest of a read that went past a message or
/// the count asked for. One receiver at a time.
actor ReceiveBuffer {
    private var bytes: [UInt8] = []
    private var datagrams: AsyncStream<[UInt8]>.Iterator?

    /// Reads more from the peer; false at the end of its stream.
    private func fill(from connection: WAConnection) async throws(NWError) -> Bool {
        let more: [UInt8]
        do { more = try await connection.read(maximum: 65536) } catch { throw NWError(error) }
        bytes += more
        return !more.isEmpty
    }

    /// The next message of `framing`.
    func message(
        _ framing: MessageFraming, from connection: WAConnection
    ) async throws(NWError) -> (
        type: UInt64, value: [UInt8]
    ) {
        while true {
            if let message = try framing.decode(bytes[...]) {
                bytes.removeFirst(message.size)
                return (message.type, message.value)
            }
            guard try await fill(from: connection) else {
                if bytes.isEmpty { throw NWError(.closed, message: "the peer closed the connection") }
                throw NWError(
                    .malformedMessage,
                    message: "the peer closed the connection in the middle of a message (\(bytes.count) bytes of it)")
            }
        }
    }

    /// Between `minimum` and `maximum` bytes.
    func read(atLeast minimum: Int, atMost maximum: Int, from connection: WAConnection) async throws(NWError) -> [UInt8]
    {
        while bytes.count < max(minimum, 1) {
            guard try await fill(from: connection) else {
                throw NWError(
                    .closed, message: "the peer closed the connection (\(bytes.count) of \(minimum) bytes came)")
            }
        }
        let part = Array(bytes.prefix(maximum))
        bytes.removeFirst(part.count)
        return part
    }

    /// The next datagram; nil when the connection ended.
    func datagram(from connection: WAConnection) async -> [UInt8]? {
        var iterator = datagrams ?? connection.receivedDatagrams.makeAsyncIterator()
        let next = await iterator.next(isolation: #isolation)
        datagrams = iterator
        return next
    }
}

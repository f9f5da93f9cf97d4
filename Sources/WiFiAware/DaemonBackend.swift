import NANDaemon
import NANEngine
import NANWire
internal import Synchronization

/// The discovery backend of a program served by wawared: every publish, subscribe and follow-up goes over the
/// daemon's socket (docs/daemon.md). When the daemon goes away (restarted), the backend connects again with
/// backoff and starts its running sessions again from what they asked for; each session reads
/// `eventsLost` for the gap, and keeps the instance ID it first had (the daemon's new one is mapped to it),
/// so endpoints reported before the gap stay valid.
final class DaemonBackend: DiscoveryBackend {
    let keeper: DaemonConnectionKeeper
    let localAddress: MACAddress
    private let sessions = Mutex<[InstanceID: Mapped]>([:])

    /// A session as the program knows it, and its number on the current connection.
    struct Mapped {
        var number: UInt32
        var connection: DaemonConnection
    }

    init(keeper: DaemonConnectionKeeper, first: DaemonConnection) {
        self.keeper = keeper
        localAddress = first.localAddress
    }

    func publish(_ configuration: PublishConfiguration) async throws -> BackendSession {
        var request = DaemonRequest(id: 0, method: .publish)
        request.publish = WirePublish(configuration)
        return try await start(request)
    }

    func subscribe(_ configuration: SubscribeConfiguration) async throws -> BackendSession {
        guard configuration.responseFilter == nil else {
            throw WAError(.invalidArgument, message: "a response filter is not carried to wawared yet")
        }
        var request = DaemonRequest(id: 0, method: .subscribe)
        // The daemon remembers what it heard in the last 10 s: a passive subscribe hears of it at once.
        request.subscribe = WireSubscribe(configuration, reportHeardWithin: configuration.active ? nil : .seconds(10))
        return try await start(request)
    }

    private func start(_ request: DaemonRequest) async throws -> BackendSession {
        let connection = try await keeper.current()
        let started = try await connection.startSession(request)
        let original = started.instanceID
        sessions.withLock { $0[original] = Mapped(number: started.session, connection: connection) }
        let (stream, continuation) = AsyncStream.makeStream(
            of: DiscoveryEvent.self, bufferingPolicy: .bufferingNewest(256))
        let pump = Task { [weak self] in
            var events = started.events
            while true {
                for await event in events {
                    continuation.yield(Self.mapped(event, to: original))
                    if case .terminated = event {
                        continuation.finish()
                        self?.forget(original)
                        return
                    }
                }
                // The connection ended under a running session: the daemon went away. Start it again.
                guard !Task.isCancelled, let self else { break }
                continuation.yield(.eventsLost(EventLoss(droppedEvents: nil)))
                guard let again = await self.restart(request, original: original) else {
                    continuation.yield(.terminated(.failure))
                    break
                }
                events = again
            }
            continuation.finish()
            self?.forget(original)
        }
        continuation.onTermination = { _ in pump.cancel() }
        return BackendSession(
            instanceID: original, makeIterator: { stream.makeAsyncIterator() },
            stop: { [weak self] in
                pump.cancel()
                guard let self, let mapped = self.forget(original) else { return }
                var stop = DaemonRequest(id: 0, method: .stop)
                stop.session = mapped.number
                _ = try? await mapped.connection.call(stop)
            })
    }

    /// Starts `request` again on a new connection; nil when the daemon stays away.
    private func restart(_ request: DaemonRequest, original: InstanceID) async -> AsyncStream<DiscoveryEvent>? {
        for attempt in 0..<60 {
            if Task.isCancelled { return nil }
            if let connection = try? await keeper.current(),
                let started = try? await connection.startSession(request)
            {
                sessions.withLock { $0[original] = Mapped(number: started.session, connection: connection) }
                return started.events
            }
            try? await Task.sleep(for: .milliseconds(min(2000, 100 << min(attempt, 5))))
        }
        return nil
    }

    @discardableResult
    private func forget(_ instance: InstanceID) -> Mapped? {
        sessions.withLock { $0.removeValue(forKey: instance) }
    }

    /// The event with our instance ID as the program first knew it.
    static func mapped(_ event: DiscoveryEvent, to original: InstanceID) -> DiscoveryEvent {
        switch event {
        case .discovered(var r):
            r.localInstanceID = original
            return .discovered(r)
        case .replied(var r):
            r.localInstanceID = original
            return .replied(r)
        case .messageReceived(var m):
            m.localInstanceID = original
            return .messageReceived(m)
        case .lost(var l):
            l.localInstanceID = original
            return .lost(l)
        case .eventsLost, .terminated:
            return event
        }
    }

    func send(
        _ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID
    ) async throws -> DeliveryStatus {
        guard let mapped = sessions.withLock({ $0[local] }) else {
            throw WAError(.connectionTerminated, message: "the session is not running in wawared")
        }
        var request = DaemonRequest(id: 0, method: .send)
        request.session = mapped.number
        request.send = WireSend(peer: peer.description, peerInstance: peerInstanceID.rawValue, payload: payload)
        let reply = try await mapped.connection.call(request)
        switch reply.status {
        case "acknowledged": return .acknowledged
        case "handedToDriver": return .handedToDriver
        default: return .notAcknowledged
        }
    }

    func peers() async -> [Peer] {
        guard let connection = try? await keeper.current(),
            let reply = try? await connection.call(DaemonRequest(id: 0, method: .peers))
        else { return [] }
        let now = ContinuousClock.now
        return (reply.peers ?? []).compactMap { $0.peer(now: now) }
    }
}

/// The one connection of a program to wawared for an adapter, made again when it ends.
actor DaemonConnectionKeeper {
    let path: String
    let adapter: String
    private var connection: DaemonConnection?
    private var connecting: Task<DaemonConnection, any Error>?

    init(path: String, adapter: String, first: DaemonConnection) {
        self.path = path
        self.adapter = adapter
        connection = first
    }

    /// The live connection, or a new one.
    func current() async throws -> DaemonConnection {
        if let connection, connection.closed == nil { return connection }
        if let connecting { return try await connecting.value }
        let (path, adapter) = (path, adapter)
        let task = Task { try await DaemonConnection.connect(path: path, adapter: adapter) }
        connecting = task
        defer { connecting = nil }
        let made = try await task.value
        connection = made
        return made
    }

    /// Ends the connection: the daemon stops every session of this program.
    func close() { connection?.close() }
}

import NANEngine
import NANWire

/// What the WiFiAware sessions need from a discovery engine. The real one is `NANEngine`; tests use a fake,
/// so the session rules (device selection, one publisher per service, lifetimes) are tested without a radio.
protocol DiscoveryBackend: Sendable {
    /// Our NAN management interface address.
    var localAddress: MACAddress { get }
    /// Starts a publish.
    func publish(_ configuration: PublishConfiguration) async throws -> BackendSession
    /// Starts a subscribe.
    func subscribe(_ configuration: SubscribeConfiguration) async throws -> BackendSession
    /// Sends a follow-up from our instance to a peer's instance.
    func send(
        _ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID
    ) async throws -> DeliveryStatus
    /// Every peer heard so far, with its radio facts.
    func peers() async -> [Peer]
}

/// A publish or subscribe started on a backend: our instance ID and its events.
struct BackendSession: Sendable {
    /// Our instance ID.
    var instanceID: InstanceID
    /// Makes the (single) iterator over the session's events.
    var makeIterator: @Sendable () -> AsyncStream<DiscoveryEvent>.Iterator
    /// Stops the session; its events end with `.terminated(.userRequest)`.
    var stop: @Sendable () async -> Void

    /// Wraps an engine session.
    init(_ session: DiscoverySession) {
        instanceID = session.instanceID
        makeIterator = { session.makeAsyncIterator() }
        stop = { await session.stop() }
    }

    /// Wraps parts (tests).
    init(
        instanceID: InstanceID, makeIterator: @escaping @Sendable () -> AsyncStream<DiscoveryEvent>.Iterator,
        stop: @escaping @Sendable () async -> Void
    ) {
        self.instanceID = instanceID
        self.makeIterator = makeIterator
        self.stop = stop
    }
}

extension NANEngine: DiscoveryBackend {
    func publish(_ configuration: PublishConfiguration) async throws -> BackendSession {
        let session: DiscoverySession = try await publish(configuration)
        return BackendSession(session)
    }

    func subscribe(_ configuration: SubscribeConfiguration) async throws -> BackendSession {
        let session: DiscoverySession = try await subscribe(configuration)
        return BackendSession(session)
    }
}

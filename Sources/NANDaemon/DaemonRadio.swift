public import NANEngine
public import NANWire

/// What the daemon needs of one adapter's discovery engine: the real one is ``NANEngine``; tests use a fake,
/// so per-client isolation and limits are tested without a radio.
public protocol DaemonRadio: Sendable {
    /// Our NMI address.
    var localAddress: MACAddress { get }
    /// Starts a publish.
    func startPublish(_ configuration: PublishConfiguration) async throws -> DaemonRadioSession
    /// Starts a subscribe.
    func startSubscribe(_ configuration: SubscribeConfiguration) async throws -> DaemonRadioSession
    /// Sends a follow-up.
    func send(
        _ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID
    ) async throws -> DeliveryStatus
    /// Every peer heard.
    func peers() async -> [Peer]
}

/// A session started on a ``DaemonRadio``.
public struct DaemonRadioSession: Sendable {
    /// Its instance ID.
    public var instanceID: InstanceID
    /// Its events (one consumer).
    public var events: AsyncStream<DiscoveryEvent>
    /// Stops it.
    public var stop: @Sendable () async -> Void

    /// Makes one.
    public init(
        instanceID: InstanceID, events: AsyncStream<DiscoveryEvent>, stop: @escaping @Sendable () async -> Void
    ) {
        self.instanceID = instanceID
        self.events = events
        self.stop = stop
    }
}

extension NANEngine: DaemonRadio {
    public func startPublish(_ configuration: PublishConfiguration) async throws -> DaemonRadioSession {
        let session = try await publish(configuration)
        return DaemonRadioSession(
            instanceID: session.instanceID, events: Self.stream(session), stop: { await session.stop() })
    }

    public func startSubscribe(_ configuration: SubscribeConfiguration) async throws -> DaemonRadioSession {
        let session = try await subscribe(configuration)
        return DaemonRadioSession(
            instanceID: session.instanceID, events: Self.stream(session), stop: { await session.stop() })
    }

    private static func stream(_ session: DiscoverySession) -> AsyncStream<DiscoveryEvent> {
        AsyncStream { continuation in
            let task = Task {
                for await event in session { continuation.yield(event) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

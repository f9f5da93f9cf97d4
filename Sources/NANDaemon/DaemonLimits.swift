/// What one client may hold in the daemon; beyond these it is refused (or, for a reader that does not
/// keep up, disconnected), and no other client notices.
public struct DaemonLimits: Sendable, Hashable {
    /// Publishes and subscribes running at once.
    public var sessions = 16
    /// Follow-ups waiting for their delivery status at once.
    public var queuedFollowUps = 64
    /// Messages waiting to be written to the client; events beyond are dropped (and counted, then reported as
    /// `eventsLost` to their session).
    public var queuedMessages = 256
    /// Bytes waiting to be written to the client; beyond this, or a reply that finds no room, the client
    /// is disconnected.
    public var queuedBytes = 1 << 20
    /// How long a write may wait for a client that does not read before it is disconnected.
    public var slowReaderTimeout: Duration = .seconds(10)
    /// Lines that are not requests before the client is disconnected.
    public var invalidRequests = 16
    /// Clients at once (all of them); one more is refused.
    public var clients = 64

    /// The defaults.
    public init() {}
}

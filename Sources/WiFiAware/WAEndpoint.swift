public import NANWire

/// A peer's instance of a service, found by a ``WASubscriber`` or asking a ``WAPublisher``
/// (Apple's `WAEndpoint`). Pass it to `send(_:to:)` to message the peer.
public struct WAEndpoint: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// An endpoint's identity: the peer's address and its instance of the service.
    public struct ID: Hashable, Sendable {
        /// The peer's NAN management interface (NMI) address.
        public var address: MACAddress
        /// The peer's instance ID for the service.
        public var instanceID: InstanceID
    }

    /// The peer's NAN management interface (NMI) address: what `waware devices add` takes.
    public var address: MACAddress
    /// The peer's instance ID for this service; messages are addressed to it.
    public var instanceID: InstanceID
    /// Our instance (publish or subscribe) that dealt with the peer.
    public var localInstanceID: InstanceID
    /// The service.
    public var service: WAServiceName
    /// The peer's service-specific information (empty if it sent none).
    public var serviceInfo: [UInt8]
    /// Whether the peer offers a data path for the service.
    public var offersDataPath: Bool
    /// The paired device with this address, if there is one (always, unless the selection is `.anyDevice`).
    public var device: WAPairedDevice?
    /// Radio facts when the peer was last reported.
    public var performance: WAPerformanceReport

    /// The peer's address and instance.
    public var id: ID { ID(address: address, instanceID: instanceID) }

    /// The address and instance, and the device's name if paired, e.g. `02:00:00:00:01:00#3 (Kitchen)`.
    public var description: String {
        "\(address)#\(instanceID)" + (device.map { " (\($0.displayName))" } ?? "")
    }
}

/// A follow-up message a peer sent to our publisher or subscriber.
public struct WAMessage: Hashable, Sendable {
    /// Who sent it; reply with `send(_:to:)`.
    public var endpoint: WAEndpoint
    /// The message bytes (at most 255).
    public var payload: [UInt8]
}

/// Whether a message reached the peer, as the radio reported it.
public enum WADeliveryStatus: Hashable, Sendable, CustomStringConvertible {
    /// The peer's radio acknowledged the frame.
    case acknowledged
    /// The frame was sent but not acknowledged (the peer may be out of range or asleep).
    case notAcknowledged
    /// The driver runs discovery itself and took the message without reporting delivery.
    case handedToDriver

    /// `acknowledged`, `not-acknowledged` or `handed-to-driver`.
    public var description: String {
        switch self {
        case .acknowledged: "acknowledged"
        case .notAcknowledged: "not-acknowledged"
        case .handedToDriver: "handed-to-driver"
        }
    }
}

/// Why a publisher or subscriber ended.
public enum WATerminationReason: Hashable, Sendable, CustomStringConvertible {
    /// Stopped by its owner: `stop()`, or the consuming task was cancelled.
    case userRequest
    /// Its time or discovery-window limit ran out.
    case timeLimitReached
    /// The radio or driver ended it.
    case failure

    /// `user-request`, `ttl` or `error`, as nl80211 names them.
    public var description: String {
        switch self {
        case .userRequest: "user-request"
        case .timeLimitReached: "ttl"
        case .failure: "error"
        }
    }
}

/// One event of a ``WAPublisher`` or ``WASubscriber``.
///
/// A session starts with ``started(_:)`` and ends with ``terminated(_:)`` (or the sequence ends
/// early when its task is cancelled, or throws a ``WAError``).
public enum WASessionEvent: Hashable, Sendable {
    /// The session runs on the radio as our instance `id` (the first event).
    case started(InstanceID)
    /// A selected peer appeared: a publisher found by a subscriber, or a subscriber that asked a publisher.
    case discovered(WAEndpoint)
    /// A known endpoint changed its service information.
    case updated(WAEndpoint)
    /// An endpoint was not heard for the session's `peerTimeout`, or its device left the selection.
    case lost(WAEndpoint)
    /// A selected peer sent a message.
    case messageReceived(WAMessage)
    /// The kernel dropped radio events (a netlink overrun; `droppedEvents` nil when it did not say how
    /// many) and the engine resynchronised with the radio; the session goes on. Discoveries, updates or
    /// messages that arrived meanwhile may be missing: a peer still announcing is reported when heard
    /// next, a lost message is gone. Peers are not reported lost because of the gap.
    case eventsLost(droppedEvents: Int?)
    /// The session ended; nothing follows.
    case terminated(WATerminationReason)
}

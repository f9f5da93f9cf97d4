public import NANWire

/// How a ``WAPublisher`` runs. The service's declared defaults (service info, match filter, data path)
/// apply unless overridden here.
public struct WAPublisherParameters: Sendable {
    /// Answer subscribers that ask (solicited publish). Default `true`.
    public var solicited = true
    /// Announce the service in discovery windows without being asked (unsolicited publish). Default `true`.
    public var unsolicited = true
    /// Service-specific information to send instead of the declared one (at most 255 bytes).
    public var serviceInfo: [UInt8]? = nil
    /// Matching filter sent to subscribers; `nil` uses the service's declared match filter.
    public var transmitFilter: MatchingFilter? = nil
    /// Matching filter compared with what subscribers send; `nil` uses the service's declared match filter.
    public var receiveFilter: MatchingFilter? = nil
    /// Only deal with peers close by.
    public var closeRangeOnly = false
    /// End after this long (reason ``WATerminationReason/timeLimitReached``); `nil` for no limit.
    public var timeLimit: Duration? = nil
    /// End after this many discovery windows (reason ``WATerminationReason/timeLimitReached``).
    public var discoveryWindowLimit: Int? = nil
    /// Report a subscriber ``WASessionEvent/lost(_:)`` when not heard for this long; `nil` (the default)
    /// never does, because a subscriber that was answered may stay silent.
    public var peerTimeout: Duration? = nil
    /// The transport this publisher needs: `.automatic` (the default) runs on whichever the system runs;
    /// `.synchronized` or `.unsynchronized` makes the publisher throw ``WAError/Code/invalidArgument`` when the
    /// system runs the other one (``WASystem/transport``, chosen by ``WASystemOptions/transport``): a system
    /// runs one transport for all its sessions.
    public var transport: WATransport = .automatic

    /// The defaults: solicited and unsolicited, declared info and filters, no limits.
    public init() {}
}

/// How a ``WASubscriber`` runs. The service's declared defaults apply unless overridden here.
public struct WASubscriberParameters: Sendable {
    /// Ask in every discovery window until answered (active), rather than only listen (passive, the default).
    public var active = false
    /// Service-specific information to send with an active subscribe instead of the declared one.
    public var serviceInfo: [UInt8]? = nil
    /// Matching filter sent with an active subscribe; `nil` uses the service's declared match filter.
    public var transmitFilter: MatchingFilter? = nil
    /// Matching filter compared with what publishers send; `nil` uses the service's declared match filter.
    public var receiveFilter: MatchingFilter? = nil
    /// Which publishers may answer an active subscribe (sent on the air). The device selection is
    /// applied on top of it, on this side.
    public var responseFilter: ServiceResponseFilter? = nil
    /// Only report publishers close by.
    public var closeRangeOnly = false
    /// End after this long (reason ``WATerminationReason/timeLimitReached``); `nil` for no limit.
    public var timeLimit: Duration? = nil
    /// End after this many discovery windows.
    public var discoveryWindowLimit: Int? = nil
    /// Report a publisher ``WASessionEvent/lost(_:)`` when not heard for this long (default 10 s;
    /// unsolicited publishers are heard every 0.524 s). `nil` never does.
    public var peerTimeout: Duration? = .seconds(10)
    /// The transport this subscriber needs: `.automatic` (the default) runs on whichever the system runs;
    /// `.synchronized` or `.unsynchronized` makes the subscriber throw ``WAError/Code/invalidArgument`` when
    /// the system runs the other one (``WASystem/transport``): a system runs one transport for all its sessions.
    public var transport: WATransport = .automatic

    /// The defaults: passive, declared info and filters, no limits, peers lost after 10 s of silence.
    public init() {}
}

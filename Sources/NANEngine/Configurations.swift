public import NANWire

/// How a publish answers subscribers.
public struct PublishType: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: UInt8
    /// Wraps raw bits (nl80211's `NL80211_NAN_SOLICITED_PUBLISH` = 1, `UNSOLICITED` = 2).
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Answers active subscribes that match.
    public static let solicited = PublishType(rawValue: 1)
    /// Announces itself in discovery windows without being asked.
    public static let unsolicited = PublishType(rawValue: 2)
    /// Both.
    public static let both: PublishType = [.solicited, .unsolicited]
}

/// How long a publish or subscribe lives. Both limits may be set; the first reached ends it.
public struct TimeToLive: Hashable, Sendable {
    /// Wall-clock limit.
    public var duration: Duration?
    /// Limit in discovery windows (one every 512 TU = 0.524 s).
    public var discoveryWindows: Int?
    /// Makes a limit; both nil means "until stopped".
    public init(duration: Duration? = nil, discoveryWindows: Int? = nil) {
        self.duration = duration
        self.discoveryWindows = discoveryWindows
    }
    /// No limit.
    public static let forever = TimeToLive()
    /// The longest limit in seconds that ``seconds(_:)`` accepts: 10,000,000 s (about 115 days).
    public static let maximumSeconds: Double = 10_000_000

    /// A limit in seconds, from 0.001 to ``maximumSeconds``.
    ///
    /// - Throws: ``DiscoveryError/Code/invalidArgument`` for a value out of that range, infinity or NaN
    ///   (which have no `Duration`).
    public static func seconds(_ s: Double) throws(DiscoveryError) -> TimeToLive {
        guard s.isFinite, s >= 0.001, s <= maximumSeconds else {
            throw DiscoveryError(
                .invalidArgument, "a time to live of \(s) s is out of range; give 0.001 to \(Int(maximumSeconds)) s")
        }
        return TimeToLive(duration: .milliseconds(Int64((s * 1000).rounded())))
    }
}

/// What to publish and how.
public struct PublishConfiguration: Sendable {
    /// The service's ID (first 6 bytes of SHA-256 of the lower-cased name).
    public var serviceID: ServiceID
    /// Solicited, unsolicited or both.
    public var type: PublishType = .both
    /// Service specific info sent with every publish (at most 255 bytes).
    public var serviceInfo: [UInt8] = []
    /// Compared with a subscriber's transmit filter; nil accepts all.
    public var receiveFilter: MatchingFilter? = nil
    /// Sent for subscribers to compare with their receive filter.
    public var transmitFilter: MatchingFilter? = nil
    /// Only peers close by should act on it.
    public var closeRangeOnly = false
    /// Send an unsolicited publish every this many DWs (1 = every DW).
    public var announcementPeriod = 1
    /// Answer a subscriber by broadcast rather than unicast.
    public var broadcastReplies = false
    /// Advertise that a data path can be set up for this service.
    public var offersDataPath = false
    /// The NAN pairing bootstrapping methods to advertise (an NPBA of type advertise in every publish);
    /// nil advertises none. User-space discovery only.
    public var bootstrappingMethods: PairingBootstrappingAttribute.Methods? = nil
    /// Lifetime.
    public var timeToLive: TimeToLive = .forever
    /// Report a subscriber `.lost` when none of its frames was heard for this many DW periods; nil (the
    /// default) forgets it silently after ``DiscoveryEngine/Options/forgetAfterPeriods`` instead, since a
    /// subscriber that was answered may stay silent. Either way a subscriber heard again is reported again.
    public var lostAfterPeriods: Int? = nil

    /// Makes a configuration with defaults (solicited and unsolicited, no filters, no limit).
    public init(serviceID: ServiceID) { self.serviceID = serviceID }
}

/// What to look for and how.
public struct SubscribeConfiguration: Sendable {
    /// The service's ID.
    public var serviceID: ServiceID
    /// Active subscribes transmit in every DW until answered; passive ones only listen.
    public var active = false
    /// Service specific info sent with an active subscribe (at most 255 bytes).
    public var serviceInfo: [UInt8] = []
    /// Compared with a publisher's transmit filter; nil accepts all.
    public var receiveFilter: MatchingFilter? = nil
    /// Sent with an active subscribe for publishers to compare with their receive filter.
    public var transmitFilter: MatchingFilter? = nil
    /// Which publishers may answer (and be reported).
    public var responseFilter: ServiceResponseFilter? = nil
    /// Only report publishers close by.
    public var closeRangeOnly = false
    /// Lifetime.
    public var timeToLive: TimeToLive = .forever
    /// Report a publisher `.lost` when none of its frames was heard for this many DW periods (512 TU,
    /// 0.524 s each); nil never reports it (it is still forgotten, silently, after a long silence). A
    /// publisher heard again after being lost is reported again. An answered active subscribe asks again
    /// when a publisher it found has been silent for half this time, so a solicited-only publisher is
    /// not lost while it is there.
    public var lostAfterPeriods: Int? = SubscribeConfiguration.defaultLostAfterPeriods
    /// When the subscribe was asked for: publishes the device heard from then until the engine started it
    /// (at most one DW period back, or ``DiscoveryOptions/remembersPublishesFor``) are reported at its start, as if heard after it, so the time the caller
    /// spent setting up does not cost a DW. nil: only publishes heard after the start.
    public var reportHeardSince: ContinuousClock.Instant? = nil

    /// The default of ``lostAfterPeriods``: 20 DW periods, about 10.5 s.
    public static let defaultLostAfterPeriods = 20

    /// Makes a passive subscribe without filters or limit.
    public init(serviceID: ServiceID) { self.serviceID = serviceID }
}

public import NANEngine
public import NANWire

/// A publish configuration on the wire.
public struct WirePublish: Codable, Sendable, Hashable {
    /// The service ID in hex (12 digits).
    public var serviceID: String
    /// nl80211's publish type bits (1 solicited, 2 unsolicited).
    public var type: UInt8
    /// Service specific info.
    public var serviceInfo: [UInt8]
    /// Matching filters' wire bytes.
    public var receiveFilter: [UInt8]?
    /// Transmit filter's wire bytes.
    public var transmitFilter: [UInt8]?
    /// Close range only.
    public var closeRangeOnly: Bool
    /// DWs between unsolicited publishes.
    public var announcementPeriod: Int
    /// Broadcast replies.
    public var broadcastReplies: Bool
    /// Offers a data path.
    public var offersDataPath: Bool
    /// Lifetime in milliseconds.
    public var timeToLiveMilliseconds: Int64?
    /// Lifetime in DWs.
    public var timeToLiveWindows: Int?
    /// `lostAfterPeriods`.
    public var lostAfterPeriods: Int?

    /// The wire form of `c`.
    public init(_ c: PublishConfiguration) {
        serviceID = c.serviceID.description
        type = c.type.rawValue
        serviceInfo = c.serviceInfo
        receiveFilter = c.receiveFilter.map { Array($0.bytes) }
        transmitFilter = c.transmitFilter.map { Array($0.bytes) }
        closeRangeOnly = c.closeRangeOnly
        announcementPeriod = c.announcementPeriod
        broadcastReplies = c.broadcastReplies
        offersDataPath = c.offersDataPath
        timeToLiveMilliseconds = c.timeToLive.duration.map(WireTime.milliseconds)
        timeToLiveWindows = c.timeToLive.discoveryWindows
        lostAfterPeriods = c.lostAfterPeriods
    }

    /// The configuration, checked as the engine needs it.
    public func configuration() throws(DaemonError) -> PublishConfiguration {
        var c = PublishConfiguration(serviceID: try WireValue.serviceID(serviceID))
        c.type = PublishType(rawValue: type & 3)
        c.serviceInfo = serviceInfo
        c.receiveFilter = try WireValue.filter(receiveFilter)
        c.transmitFilter = try WireValue.filter(transmitFilter)
        c.closeRangeOnly = closeRangeOnly
        c.announcementPeriod = max(1, min(announcementPeriod, 255))
        c.broadcastReplies = broadcastReplies
        c.offersDataPath = offersDataPath
        c.timeToLive = try WireTime.timeToLive(timeToLiveMilliseconds, timeToLiveWindows)
        c.lostAfterPeriods = try WireValue.periods(lostAfterPeriods)
        return c
    }
}

/// A subscribe configuration on the wire.
public struct WireSubscribe: Codable, Sendable, Hashable {
    /// The service ID in hex.
    public var serviceID: String
    /// Active.
    public var active: Bool
    /// Service specific info.
    public var serviceInfo: [UInt8]
    /// Receive filter wire bytes.
    public var receiveFilter: [UInt8]?
    /// Transmit filter wire bytes.
    public var transmitFilter: [UInt8]?
    /// Close range only.
    public var closeRangeOnly: Bool
    /// Lifetime in milliseconds.
    public var timeToLiveMilliseconds: Int64?
    /// Lifetime in DWs.
    public var timeToLiveWindows: Int?
    /// `lostAfterPeriods`.
    public var lostAfterPeriods: Int?
    /// Report the publishes the daemon heard in the last this many milliseconds at once (at most 10,000).
    public var reportHeardWithinMilliseconds: Int64?

    /// The wire form of `c`; a response filter has none yet (``hasResponseFilter``).
    public init(_ c: SubscribeConfiguration, reportHeardWithin: Duration?) {
        serviceID = c.serviceID.description
        active = c.active
        serviceInfo = c.serviceInfo
        receiveFilter = c.receiveFilter.map { Array($0.bytes) }
        transmitFilter = c.transmitFilter.map { Array($0.bytes) }
        closeRangeOnly = c.closeRangeOnly
        timeToLiveMilliseconds = c.timeToLive.duration.map(WireTime.milliseconds)
        timeToLiveWindows = c.timeToLive.discoveryWindows
        lostAfterPeriods = c.lostAfterPeriods
        reportHeardWithinMilliseconds = reportHeardWithin.map(WireTime.milliseconds)
    }

    /// The configuration, checked as the engine needs it; `now` places the remembered window.
    public func configuration(now: ContinuousClock.Instant) throws(DaemonError) -> SubscribeConfiguration {
        var c = SubscribeConfiguration(serviceID: try WireValue.serviceID(serviceID))
        c.active = active
        c.serviceInfo = serviceInfo
        c.receiveFilter = try WireValue.filter(receiveFilter)
        c.transmitFilter = try WireValue.filter(transmitFilter)
        c.closeRangeOnly = closeRangeOnly
        c.timeToLive = try WireTime.timeToLive(timeToLiveMilliseconds, timeToLiveWindows)
        c.lostAfterPeriods = try WireValue.periods(lostAfterPeriods)
        if let within = reportHeardWithinMilliseconds {
            guard within >= 0 else { throw .invalidRequest("reportHeardWithinMilliseconds is negative") }
            c.reportHeardSince = now - .milliseconds(min(within, 10_000))
        }
        return c
    }
}

/// A peer heard, on the wire.
public struct WirePeer: Codable, Sendable, Hashable {
    /// Its NMI address.
    public var address: String
    /// Its radio facts.
    public var radio: WireRadio

    /// The wire form.
    public init(_ peer: Peer, now: ContinuousClock.Instant) {
        address = peer.address.description
        radio = WireRadio(peer.radio, now: now)
    }

    /// The peer again, or nil for a bad address.
    public func peer(now: ContinuousClock.Instant) -> Peer? {
        MACAddress(address).map { Peer(address: $0, radio: radio.facts(now: now)) }
    }
}

/// Radio facts on the wire; the instant heard travels as an age.
public struct WireRadio: Codable, Sendable, Hashable {
    /// dBm.
    public var signal: Int?
    /// MHz.
    public var frequency: Int?
    /// DWs heard in.
    public var windowsHeard: Int
    /// Milliseconds since last heard.
    public var heardAgoMilliseconds: Int64

    /// The wire form.
    public init(_ facts: PeerRadioFacts, now: ContinuousClock.Instant) {
        signal = facts.signal
        frequency = facts.frequency
        windowsHeard = facts.discoveryWindowsHeard
        heardAgoMilliseconds = max(0, WireTime.milliseconds(now - facts.lastHeard))
    }

    /// The facts again.
    public func facts(now: ContinuousClock.Instant) -> PeerRadioFacts {
        PeerRadioFacts(
            signal: signal, frequency: frequency, discoveryWindowsHeard: max(0, windowsHeard),
            lastHeard: now - .milliseconds(max(0, min(heardAgoMilliseconds, 86_400_000))))
    }
}

/// Conversions of wire values, each refusing what the engine would not take.
enum WireValue {
    static func serviceID(_ text: String) throws(DaemonError) -> ServiceID {
        guard let id = ServiceID(hex: text) else {
            throw .invalidRequest("service ID \"\(text.prefix(40))\" is not 12 hex digits")
        }
        return id
    }

    static func filter(_ bytes: [UInt8]?) throws(DaemonError) -> MatchingFilter? {
        guard let bytes else { return nil }
        do {
            return try MatchingFilter(validating: bytes[...])
        } catch {
            throw .invalidRequest("matching filter: \(error)")
        }
    }

    static func periods(_ value: Int?) throws(DaemonError) -> Int? {
        guard let value else { return nil }
        guard (1...100_000).contains(value) else { throw .invalidRequest("lostAfterPeriods \(value) is out of range") }
        return value
    }
}

/// Durations as milliseconds on the wire.
enum WireTime {
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? .max : product &+ attoseconds / 1_000_000_000_000_000
    }

    static func timeToLive(_ milliseconds: Int64?, _ windows: Int?) throws(DaemonError) -> TimeToLive {
        if let milliseconds, !(1...10_000_000_000).contains(milliseconds) {
            throw .invalidRequest("time to live \(milliseconds) ms is out of range")
        }
        if let windows, !(1...10_000_000).contains(windows) {
            throw .invalidRequest("time to live \(windows) DWs is out of range")
        }
        return TimeToLive(duration: milliseconds.map { .milliseconds($0) }, discoveryWindows: windows)
    }
}

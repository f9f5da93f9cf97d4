import NANWire

/// The publishes heard lately (in this DW period or the one before), so that a subscribe that was asked for
/// before the engine could start it (the caller still setting up) is told of the publishers heard meanwhile
/// (``SubscribeConfiguration/reportHeardSince``) instead of waiting for their next DW.
struct RecentPublishes {
    /// One publish announcement as heard.
    struct Heard {
        var peer: MACAddress
        var item: ServiceAnnouncement
        var close: Bool
        var at: ContinuousClock.Instant
        var period: Int
    }

    /// Most announcements kept (the oldest go first).
    let limit: Int
    /// DW periods before the current one that are kept.
    let periods: Int
    private(set) var heard: [Heard] = []

    init(limit: Int = 64, periods: Int = 1) {
        self.limit = max(0, limit)
        self.periods = max(1, periods)
    }

    /// Keeps an unsolicited publish (a reply names its requestor, and only that subscribe takes it).
    mutating func note(
        _ item: ServiceAnnouncement, from peer: MACAddress, close: Bool, at: ContinuousClock.Instant, period: Int
    ) {
        guard item.kind == .publish, item.requestorInstanceID.rawValue == 0, limit > 0 else { return }
        heard.removeAll { $0.peer == peer && $0.item.instanceID == item.instanceID }
        if heard.count >= limit { heard.removeFirst() }
        heard.append(Heard(peer: peer, item: item, close: close, at: at, period: period))
    }

    /// Forgets what was heard before the kept periods (by default: before the previous DW period).
    mutating func expire(period: Int) {
        heard.removeAll { period - $0.period > periods }
    }

    /// What was heard at or after `instant`, oldest first.
    func since(_ instant: ContinuousClock.Instant) -> [Heard] { heard.filter { $0.at >= instant } }
}

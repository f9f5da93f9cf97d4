import NANWire

/// Whether the peers with data paths up are still there, and whether each data path still carries packets.
/// A value type with no I/O: the engine probes, counts packets and ends data paths as this says.
///
/// A peer is probed every ``keepaliveInterval`` (a Schedule Update Notification its radio acknowledges);
/// ``peerLossMisses`` unacknowledged probes in a row lose it. An authenticated frame from it counts as an
/// answer. A data path whose packet count has not moved for its idle timeout is idle.
struct DataPathLiveness {
    /// How often a peer with data paths up is probed.
    var keepaliveInterval: Duration = .seconds(2)
    /// After this many unacknowledged probes in a row the peer is lost.
    var peerLossMisses = 5
    /// After this many unacknowledged probes in a row the peer's data paths carry nothing for now: they are
    /// reported not viable until the peer answers again (or is lost).
    var quietMisses = 2

    /// What a probe's fate, or a frame from the peer, changed.
    enum Change: Equatable {
        /// Nothing to report.
        case none
        /// The peer has missed ``quietMisses`` probes in a row: not viable.
        case quiet
        /// A quiet peer answered: viable again.
        case answering
        /// The peer missed ``peerLossMisses`` probes in a row: its data paths end.
        case lost
    }

    private var peers: [MACAddress: (misses: Int, lastProbe: ContinuousClock.Instant)] = [:]
    private var activity: [NDPIdentifier: (packets: UInt64, since: ContinuousClock.Instant)] = [:]
    private var publishIdleTimeouts: [InstanceID: Duration] = [:]
    private var pathIdleTimeouts: [NDPIdentifier: Duration] = [:]

    // MARK: Peers

    /// Starts watching `peer` (its first data path is up); a peer watched already keeps its count.
    mutating func watch(_ peer: MACAddress, now: ContinuousClock.Instant) {
        if peers[peer] == nil { peers[peer] = (0, now) }
    }

    /// Stops watching `peer` (its last data path ended, or it was lost).
    mutating func forget(peer: MACAddress) { peers[peer] = nil }

    /// An authenticated frame came from `peer`: it is there (``Change/answering`` when it had gone quiet).
    mutating func heard(from peer: MACAddress) -> Change {
        guard let state = peers[peer] else { return .none }
        peers[peer]?.misses = 0
        return state.misses >= quietMisses ? .answering : .none
    }

    /// The watched peers due a probe at `now`, marked probed.
    mutating func probesDue(now: ContinuousClock.Instant) -> [MACAddress] {
        let due = peers.filter { now - $0.value.lastProbe >= keepaliveInterval }.map(\.key)
        for peer in due { peers[peer]?.lastProbe = now }
        return due
    }

    /// A probe to `peer` was acknowledged or not; returns what that changed. A peer no longer watched
    /// changes nothing.
    mutating func probe(of peer: MACAddress, acknowledged: Bool) -> Change {
        guard let state = peers[peer] else { return .none }
        let misses = acknowledged ? 0 : state.misses + 1
        peers[peer] = (misses, state.lastProbe)
        if misses >= peerLossMisses { return .lost }
        if acknowledged { return state.misses >= quietMisses ? .answering : .none }
        return misses == quietMisses ? .quiet : .none
    }

    // MARK: Idle data paths

    /// Sets the idle timeout of the data paths a publish accepts (nil: the default).
    mutating func setIdleTimeout(_ timeout: Duration?, forPublish publishID: InstanceID) {
        publishIdleTimeouts[publishID] = timeout
    }

    /// Sets the idle timeout of one data path (nil: its publish's, else none).
    mutating func setIdleTimeout(_ timeout: Duration?, forPath id: NDPIdentifier) {
        pathIdleTimeouts[id] = timeout
    }

    /// The idle timeout of data path `id`, accepted for `publishID` if it was (nil: never idle).
    func idleTimeout(of id: NDPIdentifier, publish publishID: InstanceID?) -> Duration? {
        pathIdleTimeouts[id] ?? publishID.flatMap { publishIdleTimeouts[$0] }
    }

    /// Records `packets` (the station's count) for data path `id` at `now`; returns how long it has been
    /// idle when that reaches `limit`, nil while it is not idle.
    mutating func observe(
        _ id: NDPIdentifier, packets: UInt64, now: ContinuousClock.Instant, limit: Duration
    ) -> Duration? {
        guard let seen = activity[id], seen.packets == packets else {
            activity[id] = (packets, now)
            return nil
        }
        return now - seen.since >= limit ? now - seen.since : nil
    }

    /// Forgets a data path that ended.
    mutating func forget(path id: NDPIdentifier) {
        activity[id] = nil
        pathIdleTimeouts[id] = nil
    }
}

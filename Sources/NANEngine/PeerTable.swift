import NANWire

/// What the engine knows about the peers it heard: radio facts from their discovery frames.
///
/// Fed by frames from the air, so it is bounded: at most `limit` peers, and a peer not heard for
/// `maximumAge` DW periods is forgotten. When full, peers the caller does not protect (no local
/// function has reported them) go first, least recently heard first.
struct PeerTable: Sendable {
    private struct Record {
        var facts: PeerRadioFacts
        var lastWindowCounted: Int
        var lastPeriod: Int
        /// The NAN Availability attributes of the peer's latest frame that carried any (at most two maps).
        var availability: [NANAvailabilityAttribute] = []
        /// The committed DW info of the Device Capability that frame carried, if any.
        var committedDW: UInt16?
    }
    private var records: [MACAddress: Record] = [:]
    /// Most peers kept.
    let limit: Int
    /// DW periods of silence after which a peer is forgotten.
    let maximumAge: Int

    init(limit: Int = 512, maximumAge: Int = 128) {
        self.limit = max(1, limit)
        self.maximumAge = max(1, maximumAge)
    }

    /// How many peers are kept.
    var count: Int { records.count }

    /// Notes a frame from `peer` heard during discovery window number `window` of DW period `period`.
    /// `protected` gives the peers to keep if the table is full. Returns the peers forgotten to make room.
    @discardableResult
    mutating func heard(
        _ peer: MACAddress, frequency: Int?, signal: Int?, window: Int, period: Int, at now: ContinuousClock.Instant,
        protected: () -> Set<MACAddress> = { [] }
    ) -> [MACAddress] {
        if var record = records[peer] {
            record.facts.signal = signal ?? record.facts.signal
            record.facts.frequency = frequency ?? record.facts.frequency
            record.facts.lastHeard = now
            record.lastPeriod = period
            if record.lastWindowCounted != window {
                record.facts.discoveryWindowsHeard += 1
                record.lastWindowCounted = window
            }
            records[peer] = record
            return []
        }
        let forgotten = records.count >= limit ? makeRoom(period: period, protected: protected) : []
        let facts = PeerRadioFacts(signal: signal, frequency: frequency, discoveryWindowsHeard: 1, lastHeard: now)
        records[peer] = Record(facts: facts, lastWindowCounted: window, lastPeriod: period)
        return forgotten
    }

    /// Forgets the peers not heard for `maximumAge` periods by `period`; returns them.
    @discardableResult
    mutating func expire(period: Int) -> [MACAddress] {
        let old = records.filter { period - $0.value.lastPeriod > maximumAge }.keys
        for address in old { records[address] = nil }
        return Array(old)
    }

    /// Frees a quarter of the table (so a storm of new sources costs amortised O(1) per frame): first
    /// what is too old, then unprotected peers, then any, least recently heard first. Returns who went.
    private mutating func makeRoom(period: Int, protected: () -> Set<MACAddress>) -> [MACAddress] {
        var forgotten = expire(period: period)
        let target = limit - max(1, limit / 4)
        guard records.count > target else { return forgotten }
        let keep = protected()
        let byAge = records.sorted { $0.value.lastPeriod < $1.value.lastPeriod }
        var excess = records.count - target
        for (address, _) in byAge where excess > 0 && !keep.contains(address) {
            records[address] = nil
            forgotten.append(address)
            excess -= 1
        }
        for (address, _) in byAge where excess > 0 && records[address] != nil {
            records[address] = nil
            forgotten.append(address)
            excess -= 1
        }
        return forgotten
    }

    /// Keeps what `peer`'s latest frame announced of its schedule (a peer not in the table is not added);
    /// returns whether that differs from what it announced before.
    @discardableResult
    mutating func announced(
        _ availability: [NANAvailabilityAttribute], committedDW: UInt16? = nil, by peer: MACAddress
    ) -> Bool {
        let kept = Array(availability.prefix(PeerAvailability.maximumMaps))
        guard !kept.isEmpty, let record = records[peer] else { return false }
        records[peer]?.committedDW = committedDW
        guard record.availability != kept else { return false }
        records[peer]?.availability = kept
        return true
    }

    /// What `peer`'s frames last announced of its schedule; empty when nothing.
    func availability(of peer: MACAddress) -> [NANAvailabilityAttribute] { records[peer]?.availability ?? [] }

    /// The committed DW info `peer` announced with its latest schedule; nil when none.
    func committedDW(of peer: MACAddress) -> UInt16? { records[peer]?.committedDW }

    /// The facts about one peer, if heard.
    func facts(for peer: MACAddress) -> PeerRadioFacts? { records[peer]?.facts }

    /// The DW period `peer` was last heard in, if it is known.
    func lastPeriod(of peer: MACAddress) -> Int? { records[peer]?.lastPeriod }

    /// Every peer heard, most recently heard first.
    var all: [Peer] {
        records.map { Peer(address: $0.key, radio: $0.value.facts) }
            .sorted { $0.radio.lastHeard > $1.radio.lastHeard }
    }
}

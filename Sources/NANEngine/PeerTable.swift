import NANWire

/// What the engine knows about every peer it heard: radio facts from its discovery frames.
struct PeerTable: Sendable {
    private struct Record {
        var facts: PeerRadioFacts
        var lastWindowCounted: Int
    }
    private var records: [MACAddress: Record] = [:]

    /// Notes a frame from `peer` heard during discovery window number `window`.
    mutating func heard(_ peer: MACAddress, frequency: Int?, signal: Int?, window: Int, at now: ContinuousClock.Instant) {
        if var record = records[peer] {
            record.facts.signal = signal ?? record.facts.signal
            record.facts.frequency = frequency ?? record.facts.frequency
            record.facts.lastHeard = now
            if record.lastWindowCounted != window {
                record.facts.discoveryWindowsHeard += 1
                record.lastWindowCounted = window
            }
            records[peer] = record
        } else {
            let facts = PeerRadioFacts(signal: signal, frequency: frequency, discoveryWindowsHeard: 1, lastHeard: now)
            records[peer] = Record(facts: facts, lastWindowCounted: window)
        }
    }

    /// The facts about one peer, if heard.
    func facts(for peer: MACAddress) -> PeerRadioFacts? { records[peer]?.facts }

    /// Every peer heard, most recently heard first.
    var all: [Peer] {
        records.map { Peer(address: $0.key, radio: $0.value.facts) }
            .sorted { $0.radio.lastHeard > $1.radio.lastHeard }
    }
}

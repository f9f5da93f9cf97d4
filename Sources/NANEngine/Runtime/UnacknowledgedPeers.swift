public import NANWire

/// How many frames in a row each peer left unacknowledged, to keep every peer's NMI station below the count at
/// which the kernel crashes.
///
/// mac80211 counts, per station, the frames sent to it that were not acknowledged, and after 50 in a row
/// (and a second without an acknowledged one) reports the loss with `cfg80211_cqm_pktloss_notify` on the
/// station's interface. A NAN management interface has no network device, and Linux 7.2 then dereferences a
/// null pointer in interrupt context: the whole machine panics (seen in the `attack-air` scenario, where a
/// peer that had left kept receiving PASN frame 2s, replies to replayed frame 1s, outside the DWs). The
/// runtime removes a peer's station when it reaches ``limit`` (the kernel's count goes with it) and a later
/// sender adds it again if it needs one. A value type with no I/O; its owner locks it.
struct UnacknowledgedPeers: Sendable {
    /// Frames in a row without an acknowledgement at which the station goes: well below the kernel's 50.
    static let limit = 32
    /// How many peers are followed; beyond that the one with the fewest misses goes (an attacker that has
    /// us answer many addresses cannot wipe the count of one that approaches the limit).
    let capacity: Int

    private var misses: [MACAddress: Int] = [:]

    /// Follows at most `capacity` peers.
    init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// A unicast frame's transmit status came: returns true when `peer` has just reached ``limit`` frames in a
    /// row without an acknowledgement (its count then starts again), false otherwise.
    mutating func status(of peer: MACAddress, acknowledged: Bool) -> Bool {
        guard !peer.isMulticast else { return false }
        guard !acknowledged else {
            misses[peer] = nil
            return false
        }
        let count = (misses[peer] ?? 0) + 1
        guard count < Self.limit else {
            misses[peer] = nil
            return true
        }
        misses[peer] = count
        if misses.count > capacity, let fewest = misses.filter({ $0.key != peer }).min(by: { $0.value < $1.value }) {
            misses[fewest.key] = nil
        }
        return false
    }

    /// How many frames in a row `peer` left unacknowledged (0 when followed no more).
    func misses(of peer: MACAddress) -> Int { misses[peer] ?? 0 }
}

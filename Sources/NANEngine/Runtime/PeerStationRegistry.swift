import NANWire

/// The NMI stations we added for peers we send unicast frames to, least recently used first, at most
/// ``capacity`` of them (docs/design/outside-dw.md).
///
/// A station is kernel state, and on a NAN interface the one thing that lets a frame to its peer leave
/// outside the DWs (with a peer schedule). So it is added only when we are about to send to the peer, never
/// because a frame arrived, and the registry stays bounded: beyond ``capacity`` the least recently used
/// station goes, except those of `pinned` peers (a data path's: removing its station would end it).
struct PeerStationRegistry: Sendable {
    /// The peers whose station we added, least recently used first.
    private(set) var peers: [MACAddress] = []
    /// The most stations kept (pinned ones apart).
    let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// Whether `peer`'s station is one we added.
    func contains(_ peer: MACAddress) -> Bool { peers.contains(peer) }

    /// Notes that we are about to send to `peer`: it becomes the most recently used. Returns whether it is
    /// new (its station is to be added) and the peers whose stations are to be removed to stay within
    /// ``capacity``: the least recently used ones not in `pinned`.
    mutating func use(_ peer: MACAddress, pinned: Set<MACAddress> = []) -> (isNew: Bool, evicted: [MACAddress]) {
        let isNew = !peers.contains(peer)
        peers.removeAll { $0 == peer }
        peers.append(peer)
        var evicted: [MACAddress] = []
        while peers.count > capacity, let victim = peers.dropLast().first(where: { !pinned.contains($0) }) {
            peers.removeAll { $0 == victim }
            evicted.append(victim)
        }
        return (isNew, evicted)
    }

    /// Forgets `peer`; returns whether it was there (then its station is ours to remove).
    @discardableResult
    mutating func remove(_ peer: MACAddress) -> Bool {
        guard let index = peers.firstIndex(of: peer) else { return false }
        peers.remove(at: index)
        return true
    }
}

import NANWire

/// The peer's NMI station before a setup's first NAF to it (docs/design/outside-dw.md): with the schedule
/// the peer announced on it, the kernel sends the request (initiator) or the response (responder) in our
/// next common slot instead of the next DW. Added only for a setup in our negotiation table (bounded by it),
/// removed when no setup or data path with the peer is left; an establishment takes the station over.
extension DataPathEngine {
    /// A peer about to get a setup NAF from us, and what it announced of its schedule.
    struct SetupStation: Sendable {
        /// The peer's NMI.
        var peer: MACAddress
        /// Its committed availability (its SDFs' for a request we send, its request's for our response).
        var availability: PeerAvailability
        /// Its committed DW info (0x0001 without a Device Capability).
        var committedDW: UInt16
    }

    /// Adds `station`'s NMI station with its schedule, unless the peer has one of ours already (a data path
    /// up, or a setup that added it) or we have no local schedule.
    func prepare(_ station: SetupStation) async {
        guard !preparedPeers.contains(station.peer), !linkedPeers.contains(station.peer),
            let local = currentSchedule
        else { return }
        if await radio.preparePeer(
            station.peer, availability: station.availability, committedDW: station.committedDW,
            localSchedule: local)
        {
            preparedPeers.insert(station.peer)
        }
    }

    /// Removes the station ``prepare(_:)`` added for `peer` once no setup or data path with it is left.
    func releasePreparedStation(of peer: MACAddress) async {
        guard preparedPeers.contains(peer), !linkedPeers.contains(peer),
            !(negotiations?.phases.keys.contains { $0.peer == peer } ?? false)
        else { return }
        preparedPeers.remove(peer)
        await radio.removePeer(peer)
    }
}

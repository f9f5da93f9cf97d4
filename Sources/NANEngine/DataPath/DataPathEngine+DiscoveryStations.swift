import NANLogging
import NANWire

/// NMI stations for discovery's own unicast SDFs (docs/design/outside-dw.md, "Discovery outside the DWs"): a
/// plain follow-up we send, and the reply of one of our solicited publishes to an active subscribe. With the
/// schedule the peer announced on its station, mac80211 sends the SDF in our next common slot instead of
/// queueing it for the next DW, as it does for the pairing link's and a data-path setup's frames.
///
/// Kernel state made on behalf of frames from the air, so bounded: a station is added only when we are about
/// to send to the peer (never because a frame arrived), only when the peer announced committed slots on our
/// channels, and at most ``discoveryStationCapacity`` are kept, least recently used out. A station another
/// owner holds (the pairing link's, a setup's, a data path's) is used as it is and never removed here; a data
/// path that comes up with the peer takes ours over (as it takes the pairing link's) and removes it at its end.
extension DataPathEngine {
    /// The most NMI stations kept for discovery's SDFs.
    static let discoveryStationCapacity = 32

    /// Makes sure `peer`'s NMI station carries the schedule it announced (`availability`, `committedDW`; 0x0001
    /// without a Device Capability) before we send it an SDF. True when a station of ours or of a setup or data
    /// path is there: the frame then leaves in the next common slot. False when there is no local schedule,
    /// the peer announced no committed slot on our channels, the engine is stopping, or another owner holds
    /// the station (the kernel then schedules the frame by that station as it is).
    @discardableResult
    func prepareDiscoveryStation(
        for peer: MACAddress, availability: [NANAvailabilityAttribute], committedDW: UInt16?
    ) async -> Bool {
        guard !stopping, !peer.isMulticast else { return false }
        if linkedPeers.contains(peer) || preparedPeers.contains(peer) { return true }
        if discoveryStations.contains(peer) {
            _ = discoveryStations.use(peer)
            return true
        }
        guard !availability.isEmpty, let local = currentSchedule else { return false }
        guard
            await radio.preparePeer(
                peer, availability: PeerAvailability(availability), committedDW: committedDW ?? 0x0001,
                localSchedule: local)
        else { return false }
        // Another call for the same peer may have added it while this one waited.
        let evicted = discoveryStations.use(peer, pinned: linkedPeers.union(preparedPeers)).evicted
        for victim in evicted { await radio.removePeer(victim) }
        logger.trace("dp NMI station \(peer) added for discovery SDFs (\(discoveryStations.peers.count) held)")
        return true
    }

    /// Forgets the discovery station of `peer` once its station is gone by another hand (a data path that had
    /// taken it over removed it at its end): a later SDF adds it again.
    func forgetDiscoveryStation(of peer: MACAddress) {
        discoveryStations.remove(peer)
    }
}

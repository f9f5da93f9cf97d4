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
///
/// Kept current: a station of ours follows a newer schedule the peer announces and every change of ours, and
/// goes when the two no longer share a slot or when the discovery engine forgets the peer.
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
        discoveryStationSchedules[peer] = DiscoveryStationSchedule(
            availability: PeerAvailability(availability), committedDW: committedDW ?? 0x0001, local: local)
        for victim in evicted {
            discoveryStationSchedules[victim] = nil
            await radio.removePeer(victim)
        }
        logger.trace("dp NMI station \(peer) added for discovery SDFs (\(discoveryStations.peers.count) held)")
        return true
    }

    /// Forgets the discovery station of `peer` once its station is gone by another hand (a data path that had
    /// taken it over removed it at its end): a later SDF adds it again.
    func forgetDiscoveryStation(of peer: MACAddress) {
        discoveryStations.remove(peer)
        discoveryStationSchedules[peer] = nil
    }

    /// Whether `peer`'s station is a discovery station of ours (not taken over by a data path or a setup).
    func ownsDiscoveryStation(of peer: MACAddress) -> Bool {
        discoveryStations.contains(peer) && !linkedPeers.contains(peer) && !preparedPeers.contains(peer)
    }

    /// Removes our discovery station of `peer` (its SDFs wait for DWs again; a later one adds it afresh).
    func removeDiscoveryStation(of peer: MACAddress, because reason: String) async {
        guard ownsDiscoveryStation(of: peer) else { return }
        forgetDiscoveryStation(of: peer)
        await radio.removePeer(peer)
        logger.trace("dp NMI station \(peer) for discovery SDFs removed: \(reason)")
    }

    /// The discovery engine forgot `peer` (not heard for long, or pushed out of its full table): our station
    /// for it goes. One a data path or a setup holds is left alone.
    func discoveryPeerForgotten(_ peer: MACAddress) async {
        await removeDiscoveryStation(of: peer, because: "the peer was forgotten")
    }

    /// A peer with a discovery station of ours announced a schedule other than before (its SDF's
    /// `attributes`). A newer one is installed on the station, cut to our channels; one that shares no slot
    /// with ours removes the station. One whose sequence ID is not newer than the station's changes nothing
    /// (counted in ``ignoredScheduleUpdates``), as for a data path's peer (``follow(_:of:from:)``).
    func discoveryPeerAnnounced(_ attributes: [NANAvailabilityAttribute], by peer: MACAddress) async {
        guard !stopping, ownsDiscoveryStation(of: peer), let held = discoveryStationSchedules[peer],
            let local = currentSchedule
        else { return }
        let availability = PeerAvailability(attributes)
        guard availability != held.availability else { return }
        guard ScheduleUpdate.sequence(availability.sequenceID, isNewerThan: held.availability.sequenceID) else {
            ignoredScheduleUpdates += 1
            logger.trace(
                "dp schedule of \(peer) for its discovery station ignored: sequence \(availability.sequenceID) is not after \(held.availability.sequenceID)"
            )
            return
        }
        let next = DiscoveryStationSchedule(availability: availability, committedDW: held.committedDW, local: local)
        await reinstall(next, of: peer, against: local, reason: "its new schedule shares no slot with ours")
    }

    /// Before `schedule` replaces ours: removes the discovery stations it would leave without a common slot,
    /// and those whose installed schedule names a channel it drops.
    func removeDiscoveryStations(outside schedule: DataPathSchedule) async {
        let kept = Set(schedule.channels.map(\.frequency))
        for (peer, held) in discoveryStationSchedules
        where held.availability.commonSlots(with: schedule).isEmpty || !held.channels.isSubset(of: kept) {
            await removeDiscoveryStation(
                of: peer,
                because: "our new schedule shares no slot with the peer's, or drops a channel its station names")
        }
    }

    /// Once `schedule` is ours: installs again each discovery station's schedule whose cut to our channels
    /// changed (a channel we added that the peer announced).
    func refreshDiscoveryStations(against schedule: DataPathSchedule) async {
        for (peer, held) in discoveryStationSchedules where ownsDiscoveryStation(of: peer) {
            let next = DiscoveryStationSchedule(
                availability: held.availability, committedDW: held.committedDW, local: schedule)
            guard next.channels != held.channels else { continue }
            await reinstall(
                next, of: peer, against: schedule, reason: "our new schedule shares no slot with the peer's")
        }
    }

    /// Installs `next` on `peer`'s discovery station against our schedule `local`, or removes the station
    /// when `next` shares no slot with `local` or the kernel refuses it.
    private func reinstall(
        _ next: DiscoveryStationSchedule, of peer: MACAddress, against local: DataPathSchedule, reason: String
    ) async {
        guard !next.availability.commonSlots(with: local).isEmpty else {
            await removeDiscoveryStation(of: peer, because: reason)
            return
        }
        do {
            try await radio.updatePeerSchedule(
                of: peer, availability: next.availability, committedDW: next.committedDW, localSchedule: local)
        } catch {
            await removeDiscoveryStation(of: peer, because: "its new schedule refused: \(error)")
            return
        }
        // The station may have gone while the kernel answered.
        guard ownsDiscoveryStation(of: peer) else { return }
        discoveryStationSchedules[peer] = next
        logger.trace(
            "dp NMI station \(peer) for discovery SDFs: schedule installed again (sequence \(next.availability.sequenceID))"
        )
    }
}

/// What a discovery station's schedule was made from: what the peer announced, and the channels of ours it
/// was cut to (``channels``: those the installed schedule names).
struct DiscoveryStationSchedule: Sendable {
    var availability: PeerAvailability
    var committedDW: UInt16
    /// Our channels (MHz) among those the peer announced: the ones its installed schedule names.
    var channels: Set<Int>

    init(availability: PeerAvailability, committedDW: UInt16, local: DataPathSchedule) {
        self.availability = availability
        self.committedDW = committedDW
        let ours = Set(local.channels.map(\.frequency))
        channels = Set(availability.channels.map(\.channel.frequency)).intersection(ours)
    }
}

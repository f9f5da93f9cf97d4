public import NANSystem
import NANWire
import NANLogging

/// An experiment (docs/design/outside-dw.md, `WAWARE_EXPERIMENT_FAW=1`): frames to a pairing peer leave in
/// committed slots outside the DWs. mac80211 sends a frame queued for a peer station when our local
/// schedule and the station's peer schedule name the same channel in the current slot; without either,
/// only in a DW. Both sides must run it: the peer's schedule is taken to be our own fixed one (channel 6 in
/// every slot outside the DWs) instead of what its SDFs announce.
extension RuntimePairingLink {
    /// The fixed device schedule of the experiment: channel 6 in every slot outside the DWs.
    static var experimentSchedule: DataPathSchedule { .preferred(fiveGHz: nil) }

    /// Installs ``experimentSchedule`` as our local schedule (`NAN_SET_LOCAL_SCHED` on the NMI), with no
    /// data link; a refusal is logged and leaves the DW-only behaviour.
    public func installExperimentSchedule() async {
        do {
            let local = try NL80211DataPathRadio.localSchedule(Self.experimentSchedule)
            try await runtime.session.setLocalSchedule(local, on: runtime.managementInterface.wdev)
            runtime.logger.trace("faw local schedule installed: channel 6, slots 1-7 and 9-31")
        } catch {
            runtime.logger.trace("faw local schedule refused: \(error)")
        }
    }

    /// Installs ``experimentSchedule`` as `peer`'s schedule on its NMI station (`NAN_SET_PEER_SCHED`).
    func installExperimentPeerSchedule(_ peer: MACAddress) async {
        let schedule = Self.experimentSchedule
        do {
            // The same channels and slots as our own (the data path's conversion), as the peer's.
            let local = try NL80211DataPathRadio.localSchedule(schedule)
            let peerSchedule = NANPeerSchedule(
                peer: peer, committedDiscoveryWindows: 0x0001, sequenceID: schedule.sequenceID,
                channels: local.channels, maps: [NANPeerMap(mapID: DataPathSchedule.mapID, timeSlots: local.timeSlots)])
            try await runtime.session.setPeerSchedule(peerSchedule, on: runtime.managementInterface.wdev)
            runtime.logger.trace("faw peer schedule of \(peer) installed")
        } catch {
            runtime.logger.trace("faw peer schedule of \(peer) refused: \(error)")
        }
    }
}

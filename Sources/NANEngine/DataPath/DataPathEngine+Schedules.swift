import NANLogging
import NANWire

/// Schedules after set-up: the peer's Schedule Update Notifications and announced availability, ours sent as
/// keepalives, and channel evacuation.
extension DataPathEngine {
    // MARK: Schedule updates and channel evacuation

    /// Sends `schedule` in a Schedule Update Notification to `peer` (a peer with data paths up). As a
    /// keepalive its acknowledgement counts as the peer's sign of life.
    func announceSchedule(_ schedule: DataPathSchedule, to peer: MACAddress, keepalive: Bool) async {
        guard let any = established.values.first(where: { $0.id.peer == peer }) else { return }
        sequence &+= 1
        let header = ManagementHeader(
            destination: peer, source: radio.localAddress, bssid: cluster, sequenceControl: sequence << 4)
        let message = ScheduleUpdate.notification(announcing: schedule)
        guard let bytes = try? NANManagementFrame(header: header, body: .action(message.frame())).encoded() else {
            return
        }
        await transmit(
            DataPathTransmitQueue.Outgoing(
                bytes: bytes, ndp: any.id, attempts: 0, last: true, keepalive: keepalive ? peer : nil))
    }

    /// A peer with data paths up announced its schedule. The same schedule (its keepalives) changes nothing;
    /// a newer one is installed for its NMI station (`NAN_SET_PEER_SCHED`, cut to our channels), unless it
    /// shares no slot with ours: then, when the notification is `authenticated` (``isAuthenticated(_:protected:from:)``),
    /// the peer's data paths end (`schedule-changed`, NDL unacceptable); when it is not, anyone could have
    /// sent it, so it is ignored and counted and the schedule we hold stays (as for an SDF, ``peerAnnounced(_:by:)``).
    func receivedScheduleUpdate(_ naf: NANActionFrame, from peer: MACAddress, authenticated: Bool) async {
        guard established.values.contains(where: { $0.id.peer == peer }) else {
            ignoredScheduleUpdates += 1
            return
        }
        let update: ScheduleUpdate
        do {
            update = try ScheduleUpdate(naf)
        } catch {
            ignoredScheduleUpdates += 1
            logger.trace("dp schedule update from \(peer) ignored: \(error)")
            return
        }
        if !authenticated, let local = negotiations?.local.schedule,
            update.availability.commonSlots(with: local).isEmpty
        {
            ignoredScheduleUpdates += 1
            logger.trace("dp unprotected schedule update from \(peer) ignored: no slot in common with ours")
            return
        }
        await follow(update.availability, of: peer, from: "schedule update")
    }

    /// A peer's discovery frame announced its committed schedule. Deployed stacks change their schedule this
    /// way: wpa_supplicant 2.12 sends no Schedule Update Notification, its SDFs carry the new availability.
    /// Taken as a schedule update when the peer has data paths up; availability without committed entries
    /// says nothing about the data link and is left alone.
    /// An SDF is not authenticated, so one that would leave no slot in common (and so end the data paths)
    /// is ignored and counted: a spoofed SDF must not end a data path.
    func peerAnnounced(_ attributes: [NANAvailabilityAttribute], by peer: MACAddress) async {
        guard established.values.contains(where: { $0.id.peer == peer }) else { return }
        let availability = PeerAvailability(attributes)
        guard !availability.maps.isEmpty else { return }
        guard let local = negotiations?.local.schedule, !availability.commonSlots(with: local).isEmpty else {
            ignoredScheduleUpdates += 1
            logger.trace("dp schedule of \(peer) from its discovery frame ignored: no slot in common with ours")
            return
        }
        await follow(availability, of: peer, from: "discovery frame")
    }

    /// Installs a peer's newer schedule (`source`: what announced it) for its NMI station; the same schedule
    /// changes nothing, an older one is ignored.
    func follow(_ availability: PeerAvailability, of peer: MACAddress, from source: String) async {
        let links = established.values.filter { $0.id.peer == peer }
        guard let current = links.first?.peerAvailability, availability != current else { return }
        guard ScheduleUpdate.sequence(availability.sequenceID, isNewerThan: current.sequenceID) else {
            ignoredScheduleUpdates += 1
            logger.trace(
                "dp \(source) from \(peer) ignored: sequence \(availability.sequenceID) is not after \(current.sequenceID)"
            )
            return
        }
        logger.trace("dp \(source) from \(peer): sequence \(current.sequenceID) -> \(availability.sequenceID)")
        for link in links { established[link.id]?.peerAvailability = availability }
        await reinstallPeerSchedule(peer, reason: "its new schedule shares no slot with ours")
    }

    /// Installs the schedule we hold for `peer` again against our schedule in use; ends the peer's data paths
    /// when the two share no slot (`schedule-changed`, the peer told) or the kernel refuses it.
    /// Returns whether the peer's data paths go on.
    @discardableResult
    func reinstallPeerSchedule(
        _ peer: MACAddress, against schedule: DataPathSchedule? = nil, reason detail: String
    ) async -> Bool {
        guard let local = schedule ?? negotiations?.local.schedule,
            let link = established.values.first(where: { $0.id.peer == peer })
        else { return false }
        let ids = established.values.filter { $0.id.peer == peer }.map(\.id)
        if link.peerAvailability.commonSlots(with: local).isEmpty {
            logger.trace("dp \(peer): \(detail), ending its \(ids.count) data path(s)")
            await terminate(ids, reason: DataPathEndReason(.scheduleChanged, code: .ndlUnacceptable, detail: detail))
            return false
        }
        do {
            try await radio.updatePeerSchedule(link, localSchedule: local)
            logger.trace("dp peer schedule of \(peer) installed again (sequence \(link.peerAvailability.sequenceID))")
            return true
        } catch {
            await terminate(ids, reason: DataPathEndReason(.kernelFailure, code: .ndlUnacceptable, detail: "\(error)"))
            return false
        }
    }

    func terminate(_ ids: [NDPIdentifier], reason: DataPathEndReason) async {
        guard var table = negotiations else { return }
        let actions = ids.flatMap { table.terminate($0, reason: reason) }
        negotiations = table
        await perform(actions)
    }

    /// The radio must leave the channels on `frequencies` (the kernel's `NAN_CHANNEL_EVAC`, or
    /// ``NANEngine/evacuate(frequencies:)``): our schedule is installed again without them (their slots on a
    /// channel we keep), every peer's schedule is installed again against it, and each peer with data paths
    /// up is sent a Schedule Update Notification. Data paths left without a common slot end with
    /// `schedule-changed` (the peer told); with no channel left, or the new schedule refused, all end.
    /// Returns our schedule in use afterwards (nil: none, nothing was set up yet).
    @discardableResult
    func evacuate(frequencies: Set<Int>) async -> DataPathSchedule? {
        guard let table = negotiations else { return nil }
        let previous = table.local.schedule
        guard previous.channels.contains(where: { frequencies.contains($0.frequency) }) else { return previous }
        let everyone = Array(table.phases.keys)
        let listed = frequencies.sorted().map(String.init).joined(separator: ", ")
        guard let next = previous.evacuating(frequencies, fallback: table.local.usableChannels) else {
            logger.trace("dp evacuation of \(listed) MHz leaves no channel: ending every data path")
            await terminate(
                everyone,
                reason: DataPathEndReason(
                    .scheduleChanged, code: .ndlUnacceptable,
                    detail: "channel evacuation (\(listed) MHz) left no channel"))
            return negotiations?.local.schedule
        }
        // Peer schedules first, cut to the channels of the new schedule (valid against the old one too): the
        // kernel may refuse a local schedule without a channel that an installed peer schedule still names.
        var continuing: [MACAddress] = []
        for peer in Set(established.values.map(\.id.peer)) {
            if await reinstallPeerSchedule(
                peer, against: next, reason: "channel evacuation (\(listed) MHz) left no slot in common")
            {
                continuing.append(peer)
            }
        }
        do {
            try await install(next)
        } catch {
            logger.trace("dp local schedule without \(listed) MHz refused: \(error)")
            await terminate(
                negotiations.map { Array($0.phases.keys) } ?? [],
                reason: DataPathEndReason(.kernelFailure, code: .ndlUnacceptable, detail: "\(error)"))
            return negotiations?.local.schedule
        }
        negotiations?.local.schedule = next
        logger.trace(
            "dp local schedule \(next.channels) committed \(next.committedSlotCount) slots (evacuated \(listed) MHz)")
        for peer in continuing { await announceSchedule(next, to: peer, keepalive: false) }
        return next
    }
}

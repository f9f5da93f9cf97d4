import NANLogging
import NANWire

/// The data-path engine's traffic: radio events (DWs, received NAFs) and transmit statuses in, actions of the
/// negotiations out as NAFs through the ``DataPathTransmitQueue``.
extension DataPathEngine {
    // MARK: Radio events

    func handle(_ event: DataPathRadioEvent) async {
        switch event {
        case .clusterJoined(let id):
            cluster = id
        case .discoveryWindow(let frequency):
            windowFrequency = frequency
            for item in queue.takeDue() { await transmit(item) }
            await resendUnanswered()
            await expire()
            await supervise()
        case .frameReceived(let bytes):
            await received(bytes)
        case .channelsEvacuated(let frequencies):
            logger.trace("dp kernel evacuated \(frequencies.sorted()) MHz")
            await evacuate(frequencies: frequencies)
        }
    }

    /// The fate of a NAF sent under `cookie`, from the radio's transmit service: a keepalive's is the peer's
    /// sign of life; an unacknowledged frame goes again at the next DW, and its data path ends after
    /// ``TransmitPolicy/dataPath``'s attempts. No status at all (none came in time) decides nothing.
    func awaitStatus(of item: DataPathTransmitQueue.Outgoing, cookie: UInt64) {
        let radio = radio
        Task { [weak self] in
            guard let acknowledged = await radio.acknowledgement(of: cookie, within: Self.statusTimeout) else { return }
            await self?.transmitted(item, acknowledged: acknowledged)
        }
    }

    func transmitted(_ item: DataPathTransmitQueue.Outgoing, acknowledged: Bool) async {
        logger.trace("dp tx status acked \(acknowledged) attempt \(item.attempts) \(item.ndp)")
        switch queue.status(of: item, acknowledged: acknowledged) {
        case .keepalive(let peer, let acknowledged):
            switch liveness.probe(of: peer, acknowledged: acknowledged) {
            case .lost:
                logger.trace("dp peer \(peer) lost after \(liveness.peerLossMisses) unacknowledged keepalives")
                await lose(peer)
            case .quiet:
                logger.trace("dp peer \(peer) quiet after \(liveness.quietMisses) unacknowledged keepalives")
                reportViability(of: peer, false)
            case .answering: reportViability(of: peer, true)
            case .none: break
            }
        case .givenUp(let ndp):
            guard var table = negotiations else { return }
            let actions = table.drop(ndp, reason: DataPathEndReason(.timeout))
            negotiations = table
            await perform(actions)
        case .done, .retry:
            break
        }
    }

    /// Sends again a request (or secure confirm) that has had no answer for a few DWs.
    func resendUnanswered() async {
        guard var table = negotiations else { return }
        let actions = table.discoveryWindow()
        negotiations = table
        if !actions.isEmpty { logger.trace("dp \(actions.count) unanswered setup frame(s) sent again") }
        await perform(actions)
    }

    func expire() async {
        guard var table = negotiations else { return }
        let actions = table.tick(now: clock.now)
        negotiations = table
        await perform(actions)
    }

    func received(_ bytes: [UInt8]) async {
        guard !stopping, var table = negotiations,
            let frame = try? NANManagementFrame(bytes: bytes), case .action(let naf) = frame.body,
            let source = sender(of: frame.header, protected: naf.isProtected)
        else { return }
        // Anyone can send a frame from a peer's address: only one that passed the kernel's integrity check is
        // the peer's sign of life (the acknowledgements of our keepalives are the other).
        let authenticated = isAuthenticated(frame.header, protected: naf.isProtected, from: source)
        if authenticated, liveness.heard(from: source) == .answering { reportViability(of: source, true) }
        if naf.subtype == .scheduleUpdateNotification {
            await receivedScheduleUpdate(naf, from: source, authenticated: authenticated)
            return
        }
        guard let message = try? DataPathMessage(naf) else { return }
        let id = NDPIdentifier(peer: source, initiatorNDI: message.ndp.initiatorNDI, ndpID: message.ndp.ndpID)
        // A new request from an NDI address that a data path up with another NMI holds (a device back with a new
        // NMI and its old NDI address, the old path never ended; or someone claiming the address): not answered
        // while that path is up. The initiator sends it again every few DWs; once the old path is lost
        // (keepalives), a later copy goes through. Answering would bring the path up on the initiator's side
        // only, and the refusal that `establish` then sends goes unprotected, which a secure initiator rightly
        // ignores: it would wait on a path that carries nothing (connection-tls, 2026-12-06).
        if message.subtype == .dataPathRequest, table.phases[id] == nil,
            let holder = holderOfAddress(message.ndp.initiatorNDI, otherThan: source)
        {
            heldAddressRequests += 1
            logger.trace(
                "dp request from \(source) unanswered: its NDI \(message.ndp.initiatorNDI) is held by \(holder.id)")
            return
        }
        if message.subtype == .dataPathTermination, !authenticated, let link = established[id],
            link.pairwiseKey != nil
        {
            ignoredTerminations += 1
            logger.trace("dp unprotected termination of secure \(link.id) from \(frame.header.source) ignored")
            return
        }
        let body = Array(bytes.dropFirst(ManagementHeader.length))
        let actions = table.receive(message, body: body, from: source, now: clock.now)
        negotiations = table
        logger.trace(
            "dp rx \(message.subtype) status \(message.ndp.status.rawValue) from \(frame.header.source) ndp \(message.ndp.ndpID) -> \(actions.count) actions"
        )
        // A request we took: the initiator's station, with the schedule it proposes, before our response.
        let station =
            message.subtype == .dataPathRequest && table.phases[id] != nil
            ? SetupStation(
                peer: source, availability: PeerAvailability(message.availability),
                committedDW: message.deviceCapability?.committedDWInfo ?? 0x0001) : nil
        await perform(actions, preparing: station)
    }

    /// Sends a termination of the secure data path `link` from our NDI to the peer's NDI as a protected
    /// dual of public action frame, which the kernel protects under the data path's key: the one kind of
    /// termination a peer can tell from a forged one. Best effort (the NMI copy goes as well).
    func sendProtectedTermination(_ message: DataPathMessage, for link: NDPLink) async {
        guard let interface else { return }
        sequence &+= 1
        let header = ManagementHeader(
            destination: link.peerNDI, source: interface.address, bssid: cluster, sequenceControl: sequence << 4)
        guard
            let bytes = try? NANManagementFrame(header: header, body: .action(message.frame(isProtected: true)))
                .encoded()
        else { return }
        let cookie: UInt64
        do {
            cookie = try await radio.transmit(bytes, from: interface)
        } catch {
            logger.trace("dp protected termination of \(link.id) not sent: \(error)")
            return
        }
        // The kernel protects the frame as it leaves, under the key of the peer's station, which the end of
        // the data path removes (and its queue with it): wait for the frame to go, at most a second.
        _ = await radio.acknowledgement(of: cookie, within: .seconds(1))
    }

    /// The peer NMI a received NAF speaks for: its source, when it came to our NMI; the peer of the data path
    /// whose NDI sent it, when it came to our NDI protected (the kernel took it under that data path's key,
    /// so it is that peer's). Nil for anything else.
    func sender(of header: ManagementHeader, protected: Bool) -> MACAddress? {
        if header.destination == radio.localAddress { return header.source }
        guard protected, let interface, header.destination == interface.address else { return nil }
        return established.values.first(where: { $0.peerNDI == header.source })?.id.peer
    }

    /// Whether a NAF from `peer` passed the kernel's integrity check under a key of that peer: protected
    /// (category 9) and sent either to our NMI by a peer whose NMI station holds a pairing's NM-TK, or to our
    /// NDI from the NDI of a secure data path with it (as wpa_supplicant 2.12 sends its NAFs for a secure
    /// NDP). The kernel drops an unprotected robust frame from a station with management frame protection,
    /// which both of those stations have; from any other address a category 9 frame proves nothing.
    func isAuthenticated(_ header: ManagementHeader, protected: Bool, from peer: MACAddress) -> Bool {
        guard protected else { return false }
        if header.destination == radio.localAddress { return negotiations?.protectedPeers.contains(peer) ?? false }
        return established.values.contains {
            $0.id.peer == peer && $0.peerNDI == header.source && $0.pairwiseKey != nil
        }
    }

    // MARK: Actions

    /// `preparing`: the peer whose NMI station ``prepare(_:)`` adds before the first NAF of `actions` to it.
    func perform(_ actions: [DataPathAction], preparing: SetupStation? = nil) async {
        var preparing = preparing
        /// Data paths ended by a failed schedule change: their later actions are dropped.
        var abandoned: Set<NDPIdentifier> = []
        let paired: [(action: DataPathAction, link: NDPLink?)] =
            transmitsOnDataLink ? Self.dataLinkFirst(actions) : actions.map { ($0, nil) }
        for (action, dataLink) in paired {
            if let id = action.dataPath, abandoned.contains(id) { continue }
            switch action {
            case .changeSchedule(let schedule, let previous, let id):
                do {
                    try await install(schedule)
                    logger.trace(
                        "dp local schedule \(schedule.channels) committed \(schedule.committedSlotCount) slots (to meet the peer's schedule, \(id))"
                    )
                } catch {
                    logger.trace("dp local schedule of the counter-proposal refused: \(error)")
                    abandoned.insert(id)
                    guard var table = negotiations else { continue }
                    table.local.schedule = previous
                    let actions = table.terminate(
                        id, reason: DataPathEndReason(.kernelFailure, code: .ndlUnacceptable, detail: "\(error)"))
                    negotiations = table
                    await perform(actions)
                }
            case .send(let message, let peer, let ndp):
                if let station = preparing, station.peer == peer {
                    await prepare(station)
                    preparing = nil
                }
                sequence &+= 1
                let header = ManagementHeader(
                    destination: peer, source: radio.localAddress, bssid: cluster,
                    sequenceControl: sequence << 4)
                let protected = negotiations?.protectedPeers.contains(peer) ?? false
                if message.subtype == .dataPathTermination, let link = established[ndp], link.pairwiseKey != nil {
                    await sendProtectedTermination(message, for: link)
                }
                guard
                    let bytes = try? NANManagementFrame(
                        header: header, body: .action(message.frame(isProtected: protected))
                    ).encoded()
                else { continue }
                await transmit(
                    DataPathTransmitQueue.Outgoing(
                        bytes: bytes, ndp: ndp, attempts: 0, last: message.subtype == .dataPathTermination,
                        dataLinkFrequency: dataLinkFrequency(dataLink, ndp)))
            case .sendSealed(let message, let body, let peer, let ndp):
                if let station = preparing, station.peer == peer {
                    await prepare(station)
                    preparing = nil
                }
                // The MIC covers these exact bytes: sent as they are, after the header.
                sequence &+= 1
                let header = ManagementHeader(
                    destination: peer, source: radio.localAddress, bssid: cluster,
                    sequenceControl: sequence << 4)
                var writer = ByteWriter(capacity: ManagementHeader.length + body.count)
                header.encode(into: &writer)
                writer.writeBytes(body)
                logger.trace("dp tx sealed \(message.subtype) \(ndp)")
                await transmit(
                    DataPathTransmitQueue.Outgoing(
                        bytes: writer.bytes, ndp: ndp, attempts: 0, last: false,
                        dataLinkFrequency: dataLinkFrequency(dataLink, ndp)))
            case .refused(let id, let publishID, let reason):
                logger.trace("dp refused \(id): \(reason)")
                publishWatchers[publishID]?.yield(.terminated(id, reason))
            case .requested(let id, let publishID, let info):
                pathPublish[id] = publishID
                publishWatchers[publishID]?.yield(.requested(id, serviceInfo: info))
            case .establish(let link):
                logger.trace(
                    "dp establish \(link.id) peer NDI \(link.peerNDI) common slots \(link.peerAvailability.maps.count) maps"
                )
                await establish(link)
            case .ended(let id, let reason, let wasEstablished):
                logger.trace("dp ended \(id) \(reason)")
                if wasEstablished || established[id] != nil { await tearDown(id) }
                liveness.forget(path: id)
                queue.forget(id)
                await releasePreparedStation(of: id.peer)
                report(id, .terminated(id, reason), final: true)
            }
        }
    }

    /// Hands `item` to the radio (on its data link's channel the first time, if it has one, else at the DW's);
    /// the queue keeps it for its status, or for the next DW when the radio refused it.
    func transmit(_ item: DataPathTransmitQueue.Outgoing) async {
        let onDataLink = item.dataLinkFrequency == nil ? "" : " (data link)"
        let (item, frequency) = DataPathTransmitQueue.attempt(item, windowFrequency: windowFrequency)
        do {
            let cookie = try await radio.transmit(item.bytes, frequency: frequency)
            logger.trace(
                "dp tx \(item.bytes.count > 30 ? item.bytes[30] : 0) cookie \(cookie) attempt \(item.attempts) freq \(frequency ?? 0)\(onDataLink) \(item.ndp)"
            )
            awaitStatus(of: item, cookie: cookie)
        } catch {
            logger.trace("dp tx failed on \(frequency ?? 0) MHz\(onDataLink): \(error)")
            queue.refused(item)
        }
    }

    /// ``transmitsOnDataLink``: each send followed, in the same actions, by the establishment of its data path
    /// (the open confirm, the key install) moves right after that establishment, paired with its link, so it
    /// can go on the data link's channel once the peer's schedule is in. The other actions keep their order.
    static func dataLinkFirst(_ actions: [DataPathAction]) -> [(action: DataPathAction, link: NDPLink?)] {
        var ordered: [(action: DataPathAction, link: NDPLink?)] = actions.map { ($0, nil) }
        var index = 0
        while index < ordered.count {
            let action = ordered[index]
            switch action.action {
            case .send(_, _, let id), .sendSealed(_, _, _, let id):
                let later =
                    action.link != nil
                    ? nil
                    : ordered[(index + 1)...].firstIndex {
                        if case .establish(let link) = $0.action { return link.id == id } else { return false }
                    }
                if let later, case .establish(let link) = ordered[later].action {
                    ordered.remove(at: index)
                    ordered.insert((action.action, link), at: later)
                    continue
                }
            default:
                break
            }
            index += 1
        }
        return ordered
    }

    /// The channel to send a frame of `ndp` on, outside the DWs, when its link was just established: the
    /// channel with the most slots that the peer's schedule and ours commit alike. Nil (the DW's) when the
    /// link did not come up or shares no slot.
    func dataLinkFrequency(_ link: NDPLink?, _ ndp: NDPIdentifier) -> Int? {
        guard let link, established[ndp] != nil, let local = negotiations?.local.schedule else { return nil }
        var count: [Int: Int] = [:]
        for slot in link.peerAvailability.commonSlots(with: local) {
            if let channel = local.slots[slot] { count[local.channels[channel].frequency, default: 0] += 1 }
        }
        return count.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }
}

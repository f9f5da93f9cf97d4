import NANLogging
import NANWire

/// The kernel's side of a data path that is up: the peer and its stations in, and out again when it ends;
/// peers that stop answering and data paths that stop carrying packets.
extension DataPathEngine {
    func establish(_ link: NDPLink) async {
        // Our schedule in use (a counter-proposal we took is already in): the peer's is cut down to its channels.
        guard !stopping, let interface, let localSchedule = negotiations?.local.schedule else { return }
        establishing += 1
        defer {
            establishing -= 1
            if establishing == 0 {
                for waiter in establishingDone { waiter.resume() }
                establishingDone.removeAll()
            }
        }
        if let conflict = conflict(of: link) {
            // Refused before any kernel step: the data path that holds the NDI address stays as it is.
            logger.trace("dp \(link.id) refused: \(conflict)")
            await terminate([link.id], reason: DataPathEndReason(.addressInUse, code: .ndpRejected, detail: conflict))
            return
        }
        do {
            try await radio.addPeer(link, localSchedule: localSchedule)
            try await radio.addPeerDataStation(link, on: interface)
            if stopping || negotiations == nil {
                // The engine began to stop while the stations went in: take them out again.
                await radio.removePeerDataStation(link.peerNDI, of: link.id.peer, on: interface)
                if !established.values.contains(where: { $0.id.peer == link.id.peer }) {
                    await radio.removePeer(link.id.peer)
                    forgetDiscoveryStation(of: link.id.peer)
                }
                return
            }
        } catch {
            if var table = negotiations, table.phases[link.id] == .established {
                let reason = DataPathEndReason(.kernelFailure, code: .resourceLimitation, detail: "\(error)")
                let actions = table.terminate(link.id, reason: reason)
                negotiations = table
                established[link.id] = link
                await perform(actions)
            } else {
                await undo(link, on: interface)
            }
            return
        }
        // The data path may have ended, or the engine shut down, while the kernel steps ran: undo them.
        guard negotiations?.phases[link.id] == .established, self.interface == interface else {
            await undo(link, on: interface)
            return
        }
        established[link.id] = link
        liveness.watch(link.id.peer, now: clock.now)
        let peerIID = link.peerInterfaceID ?? InterfaceIdentifier(eui64Of: link.peerNDI)
        // A listener knows a TCP connection's data path by its source address: keep that address on this
        // path's station, whatever another peer on the NDI advertises.
        await radio.bindPeerAddress(peerIID, to: link.peerNDI, on: interface)
        let connection = Self.connection(link, on: interface)
        report(link.id, .connected(connection), final: false)
    }

    /// Why `link` may not go in beside the data paths up, or nil when it may. The kernel holds one station, so
    /// one key, per peer NDI address, and the NDI address a peer claims is its own say: a link whose NDI
    /// address a data path of another NMI holds would take that path's station (and its link-local address),
    /// and a link not keyed by the same PMK would take a secure path's station. Such a link is refused; the
    /// path up is never ended for it. (A device that starts NAN again with a new NMI and the same NDI address,
    /// its old data path never ended, gets its new one once that one is lost: keepalives or the idle timeout.)
    /// The same NMI's links share the station when they are keyed alike, as before.
    func conflict(of link: NDPLink) -> String? {
        if let other = holderOfAddress(link.peerNDI, otherThan: link.id.peer) {
            return "its NDI address \(link.peerNDI) belongs to a data path up with \(other.id.peer)"
        }
        for other in established.values where other.id != link.id && other.peerNDI == link.peerNDI {
            if other.pairwiseKey != nil, link.pairwiseKey == nil || link.masterKeyTag != other.masterKeyTag {
                return "its NDI address \(link.peerNDI) belongs to a secure data path (\(other.id)) that "
                    + (link.pairwiseKey == nil ? "an open one" : "one keyed by another PMK") + " may not share"
            }
        }
        return nil
    }

    /// The data path up whose peer NDI address is `ndi` and whose peer is another NMI than `peer`, if any: the
    /// kernel holds one station per peer NDI address, so that address is taken.
    func holderOfAddress(_ ndi: MACAddress, otherThan peer: MACAddress) -> NDPLink? {
        established.values.first { $0.peerNDI == ndi && $0.id.peer != peer }
    }

    /// Removes the stations `establish` added for a data path that is no longer in the table (those another
    /// data path still uses stay).
    func undo(_ link: NDPLink, on interface: DataInterface) async {
        if !established.values.contains(where: { $0.peerNDI == link.peerNDI }) {
            await radio.removePeerDataStation(link.peerNDI, of: link.id.peer, on: interface)
        }
        if !established.values.contains(where: { $0.id.peer == link.id.peer }) {
            await radio.removePeer(link.id.peer)
            forgetDiscoveryStation(of: link.id.peer)
        }
    }

    func tearDown(_ id: NDPIdentifier) async {
        liveness.forget(path: id)
        guard let link = established.removeValue(forKey: id), let interface else { return }
        if !established.values.contains(where: { $0.id.peer == link.id.peer }) { liveness.forget(peer: link.id.peer) }
        if !established.values.contains(where: { $0.peerNDI == link.peerNDI }) {
            await radio.removePeerDataStation(link.peerNDI, of: link.id.peer, on: interface)
        }
        if !established.values.contains(where: { $0.id.peer == link.id.peer }) {
            await radio.removePeer(link.id.peer)
            forgetDiscoveryStation(of: link.id.peer)
        }
    }

    // MARK: Peer loss and idle data paths

    /// Probes peers that are due and ends data paths that have been idle too long.
    func supervise() async {
        let now = clock.now
        for peer in liveness.probesDue(now: now) {
            guard let local = negotiations?.local else { continue }
            await announceSchedule(local.schedule, to: peer, keepalive: true)
        }
        guard let interface else { return }
        for link in established.values {
            guard let limit = liveness.idleTimeout(of: link.id, publish: pathPublish[link.id]),
                let packets = await radio.packetCount(of: link.peerNDI, on: interface),
                let idle = liveness.observe(link.id, packets: packets, now: now, limit: limit),
                var table = negotiations
            else { continue }
            logger.trace("dp \(link.id) idle for \(idle): ending it")
            let actions = table.terminate(link.id, reason: DataPathEndReason(.idle, code: .unspecified))
            negotiations = table
            await perform(actions)
        }
    }

    /// The peer's data paths can carry packets now (it answers), or not (it has missed keepalives but is
    /// not lost yet): each established one reports it.
    func reportViability(of peer: MACAddress, _ isViable: Bool) {
        for link in established.values where link.id.peer == peer {
            report(link.id, .viability(link.id, isViable: isViable), final: false)
        }
    }

    /// The peer stopped answering: its data paths end without a termination frame.
    func lose(_ peer: MACAddress) async {
        liveness.forget(peer: peer)
        guard var table = negotiations else { return }
        let ids = table.phases.keys.filter { $0.peer == peer }
        let actions = ids.flatMap { table.drop($0, reason: DataPathEndReason(.peerLost)) }
        negotiations = table
        await perform(actions)
    }
}

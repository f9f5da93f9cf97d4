public import NANSystem
public import NANWire
import NANLogging
import Synchronization

/// The ``PairingLink`` of a device runtime: PASN Authentication frames go out on the NMI through nl80211
/// (``NANRuntime/transmit(_:frequency:)``, retried by the ``TransmitPolicy/pairing`` policy until acknowledged), NIK key
/// data in follow-ups through the discovery engine, from the local instance to the peer instance that
/// ``route(_:local:peerInstanceID:)`` recorded for the peer (the publish or subscribe the pairing is for).
///
/// **Why a peer station.** On a NAN interface mac80211 queues a management frame until the radio may
/// transmit it (a discovery window, or a committed slot with that peer) only when it is a bufferable
/// MMPDU (SDFs, NAFs) or when the peer has a station; an Authentication frame to a peer without a station
/// goes to the driver at once, and outside a DW mac80211_hwsim (Linux 7.2) has no channel for it: it warns
/// (`WARN_ON(!chandef.chan)` in `mac80211_hwsim_tx`) and drops it, so the frame is never acknowledged. So
/// before the first Authentication frame to a peer this link adds the peer's NMI station (`NEW_STATION`
/// on the NAN interface, authenticated and associated, not authorized, no schedule): the frame then waits
/// in that station's management queue for the next 2.4 GHz DW, when the peer listens (without a committed
/// DW from the peer, hwsim takes every 2.4 GHz DW), as wpa_supplicant's NMI stations do. The link removes
/// the stations it added when the pairing with that peer ends (``finished(with:)``), and holds at most
/// ``capacity`` of them (``PeerStationRegistry``: the least recently used is removed beyond that, never a
/// data path's); a station that was already there (the data path's) is used and left alone.
///
/// **Outside the DWs** (docs/design/outside-dw.md). The station is added before our first frame to the
/// peer (the bootstrapping request or answer, else PASN frame 1 or 2), and gets a peer schedule: what the
/// peer announced in its SDFs (committed availability, committed DWs of its Device Capability), cut to the
/// channels of our device schedule (``NANEngine/installDeviceSchedule()``). mac80211 then sends every
/// frame to the peer (follow-ups, PASN frames) in the next slot in which both are on one channel, tens of
/// milliseconds later instead of at the next DW. A peer that announced nothing on our channels gets no
/// schedule, and its frames wait for DWs as before. A peer never heard in an SDF (a passive subscriber
/// verifying a pairing) announces its schedule in its PASN frame 1 (``peerAnnounced(_:availability:committedDW:)``),
/// and that is used when its SDFs announced none.
///
/// The BSSID (A3) of each frame is set to the cluster the radio is in when it is sent: mac80211 drops an
/// Authentication frame whose A3 is not the receiver's cluster, and a cluster merge changes it after the
/// pairing engine was made.
public final class RuntimePairingLink: PairingLink {
    let runtime: NANRuntime
    private let engine: NANEngine
    private let routes = Mutex<[MACAddress: (local: InstanceID, peer: InstanceID)]>([:])
    /// Peers whose NMI station this link added for an attempt.
    private let stations: Mutex<PeerStationRegistry>
    /// Paired peers whose NMI station holds the NM-TK (kept after the attempt), at most ``capacity``.
    private let keyed: Mutex<PeerStationRegistry>
    /// Peers whose NMI station holds the TK of an exchange still running (``prepareProtection(_:temporalKey:suite:)``),
    /// with that TK: promoted by ``protect(_:temporalKey:suite:)``, removed by ``withdrawProtection(_:temporalKey:)``.
    private let provisional = Mutex<[MACAddress: [UInt8]]>([:])
    /// What peers announced of their schedule in their PASN frame 1, until their attempt ends; at most
    /// ``capacity``.
    private let frame1Schedules = Mutex<[MACAddress: (availability: NANAvailabilityAttribute, committedDW: UInt16?)]>(
        [:])
    /// The most peers routed at once, and the most NMI stations this link keeps; the oldest goes beyond it.
    public let capacity: Int
    /// How Authentication frames are sent again while not acknowledged.
    public let policy: TransmitPolicy

    /// A link over `runtime` and its discovery `engine`.
    public init(runtime: NANRuntime, engine: NANEngine, capacity: Int = 64, policy: TransmitPolicy = .pairing) {
        self.runtime = runtime; self.engine = engine; self.capacity = max(1, capacity); self.policy = policy
        stations = Mutex(PeerStationRegistry(capacity: capacity))
        keyed = Mutex(PeerStationRegistry(capacity: capacity))
    }

    /// Records which of our instances talks to which instance of `peer` (before pairing with it, or when
    /// its first frame arrives).
    public func route(_ peer: MACAddress, local: InstanceID, peerInstanceID: InstanceID) {
        routes.withLock { table in
            if table[peer] == nil, table.count >= capacity, let victim = table.keys.first { table[victim] = nil }
            table[peer] = (local, peerInstanceID)
        }
    }

    /// Sends a whole Authentication frame and waits for its acknowledgement: adds the peer's NMI station
    /// first (see the type's documentation), sets A3 to the current cluster, and sends again, up to
    /// by the ``policy``, while the frame is not acknowledged (or its status is late: the peer may then get it
    /// twice, and the pairing engine ignores the repeat).
    public func send(authentication frame: [UInt8]) async throws {
        guard frame.count >= ManagementHeader.length, let peer = MACAddress(bytes: Array(frame[4..<10])) else {
            throw PairingError(.malformed, "an Authentication frame of \(frame.count) bytes has no header")
        }
        var addressed = frame
        if let cluster = runtime.cluster { addressed.replaceSubrange(16..<22, with: cluster.bytes) }
        await addStation(for: peer)
        let frame = addressed
        let delivered = await policy.deliver(before: { _ in true }) { timeout in
            guard let cookie = try? await runtime.transmit(frame) else { return nil }
            return await runtime.acknowledgement(of: cookie, within: timeout)
        }
        guard delivered else {
            try Task.checkCancellation()
            throw PairingError(.timedOut, "PASN frame to \(peer) not acknowledged in \(policy.attempts) attempts")
        }
    }

    /// Installs the NM-TK of a pairing with `peer` (see ``PairingLink/protect(_:temporalKey:suite:)``): the
    /// peer's NMI station gets the MFP flag (added if missing), the TK becomes its pairwise key (index 0,
    /// CCMP-128 or GCMP-256, on the NAN interface), and the discovery engine sends it protected SDFs from
    /// then on. The station is kept after the attempt (the key lives with it), at most ``capacity`` of them.
    /// A step the kernel refuses leaves the peer's frames unprotected (logged): pairing itself stands.
    public func protect(_ peer: MACAddress, temporalKey: [UInt8], suite: NDPCipherSuite) async {
        guard !temporalKey.isEmpty else { return }
        // Installed already before frame 2 (this exchange's key): keep it, as it may have received since.
        let installed = provisional.withLock { table in
            defer { table[peer] = nil }
            return table[peer] == temporalKey
        }
        if !installed {
            guard await install(temporalKey, suite: suite, for: peer) else { return }
        }
        // The key lives with the station: keep it when the attempt ends.
        stations.withLock { $0.remove(peer) }
        let pinned = await engine.linkedPeers()
        let evicted = keyed.withLock { $0.use(peer, pinned: pinned).evicted }
        for victim in evicted {
            await engine.protectFrames(to: victim, false)
            await removeStation(victim)
        }
        await engine.protectFrames(to: peer)
        runtime.logger.debug("pairing: NM-TK installed for \(peer); its unicast SDFs go protected")
    }

    /// Installs the TK of a responder's exchange before its frame 2 (see
    /// ``PairingLink/prepareProtection(_:temporalKey:suite:)``): the peer's NMI station (added if missing), MFP,
    /// the pairwise key, but our SDFs to the peer stay unprotected until ``protect(_:temporalKey:suite:)``.
    /// A peer that holds an NM-TK already keeps it until the exchange succeeds (nothing installed early);
    /// at most ``capacity`` such keys at once.
    public func prepareProtection(_ peer: MACAddress, temporalKey: [UInt8], suite: NDPCipherSuite) async {
        guard !temporalKey.isEmpty, !keyed.withLock({ $0.contains(peer) }),
            provisional.withLock({ $0[peer] != nil || $0.count < capacity })
        else { return }
        await addStation(for: peer)
        guard await install(temporalKey, suite: suite, for: peer) else { return }
        // The station now holds the key: withdrawing removes it, not the end of the attempt.
        stations.withLock { $0.remove(peer) }
        provisional.withLock { $0[peer] = temporalKey }
        runtime.logger.debug("pairing: the TK of the exchange with \(peer) installed before frame 2, for its NIK")
    }

    /// Removes the station holding the TK ``prepareProtection(_:temporalKey:suite:)`` installed for `peer`,
    /// if that TK is still `temporalKey` (a later exchange's stays).
    public func withdrawProtection(_ peer: MACAddress, temporalKey: [UInt8]) async {
        let ours = provisional.withLock { table -> Bool in
            guard table[peer] == temporalKey else { return false }
            table[peer] = nil
            return true
        }
        guard ours else { return }
        await removeStation(peer)
        runtime.logger.debug("pairing: the exchange with \(peer) failed; its TK removed")
    }

    /// The peer's NMI station gets the MFP flag (added if missing) and `temporalKey` as its pairwise key
    /// (index 0, the suite's cipher); false (logged) when the kernel refuses a step.
    private func install(_ temporalKey: [UInt8], suite: NDPCipherSuite, for peer: MACAddress) async -> Bool {
        let scope = StationScope.managementInterface(runtime.managementInterface.wdev)
        let mfp = StationFlags.managementFrameProtection
        do {
            do {
                try await runtime.session.setStationFlags(scope, peer: peer, mask: mfp, set: mfp)
            } catch {
                // No station yet (a link that never sent to the peer): add one, MFP from the start.
                let flags: StationFlags = [.authenticated, .associated, mfp]
                try await runtime.session.addStation(
                    NANStationParameters(scope: scope, peer: peer, flagMask: flags, flagSet: flags))
            }
            let cipher = CipherSuite(rawValue: 0x000F_AC00 | UInt32(suite.pairwiseCipher))
            try await runtime.session.addKey(
                NANKey(scope: scope, peer: peer, cipher: cipher, index: 0, data: temporalKey))
            return true
        } catch {
            runtime.logger.debug("pairing: NM-TK for \(peer) not installed, its follow-ups stay unprotected: \(error)")
            return false
        }
    }

    /// The Device Capability our SDFs carry, for PASN frame 1.
    public func deviceCapability() async -> DeviceCapabilityAttribute? { await engine.deviceCapability() }

    /// The NAN Availability our SDFs carry, for PASN frame 1.
    public func availability() async -> NANAvailabilityAttribute? { await engine.availability() }

    /// Keeps what `peer`'s frame 1 announced of its schedule for its station (the one we are about to add
    /// to answer it), until the attempt ends.
    public func peerAnnounced(_ peer: MACAddress, availability: NANAvailabilityAttribute, committedDW: UInt16?) async {
        frame1Schedules.withLock { table in
            if table[peer] == nil, table.count >= capacity, let victim = table.keys.first { table[victim] = nil }
            table[peer] = (availability, committedDW)
        }
    }

    /// Removes the NMI station this link added for `peer`, if any.
    /// A data path that came up with the peer meanwhile uses the station: it stays.
    public func finished(with peer: MACAddress) async {
        frame1Schedules.withLock { $0[peer] = nil }
        let ours = stations.withLock { $0.remove(peer) }
        if ours, !(await engine.linkedPeers().contains(peer)) { await removeStation(peer) }
    }

    /// Adds `peer`'s NMI station with its announced schedule before we send to it (see the type's
    /// documentation); a station this link added already becomes the most recently used.
    private func addStation(for peer: MACAddress) async {
        // The station holding this exchange's TK, added or found a moment ago (prepareProtection).
        guard provisional.withLock({ $0[peer] == nil }) else { return }
        let pinned = await engine.linkedPeers()
        let (isNew, evicted) = stations.withLock { $0.use(peer, pinned: pinned) }
        for victim in evicted { await removeStation(victim) }
        guard isNew else { return }
        let scope = StationScope.managementInterface(runtime.managementInterface.wdev)
        do {
            try await runtime.session.addStation(NANStationParameters(scope: scope, peer: peer))
            runtime.logger.debug("pairing: NMI station \(peer) added")
        } catch {
            // Already there (the data path's, with its schedule): use it, leave it. Refused: send without
            // one (a driver that schedules management frames itself does not need it).
            stations.withLock { $0.remove(peer) }
            runtime.logger.debug("pairing: no NMI station added for \(peer): \(error)")
            return
        }
        await installPeerSchedule(peer)
    }

    /// Sets the schedule `peer` announced, cut to our local schedule, on its NMI station
    /// (`NAN_SET_PEER_SCHED`). Nothing without a local schedule or when the peer announced no committed
    /// slot on our channels: its frames then wait for DWs. A refusal is logged and changes nothing else.
    private func installPeerSchedule(_ peer: MACAddress) async {
        guard let local = await engine.localSchedule() else { return }
        var announced = await engine.announcedSchedule(of: peer)
        if announced.availability.isEmpty, let heard = frame1Schedules.withLock({ $0[peer] }) {
            announced = ([heard.availability], heard.committedDW)
        }
        let schedule = NL80211DataPathRadio.peerSchedule(
            of: peer, availability: PeerAvailability(announced.availability),
            committedDW: announced.committedDW ?? 0x0001, local: local)
        guard !schedule.maps.isEmpty else {
            runtime.logger.debug(
                "pairing: \(peer) announced no committed slot on our channels; its frames wait for DWs")
            return
        }
        do {
            try await runtime.session.setPeerSchedule(schedule, on: runtime.managementInterface.wdev)
            runtime.logger.debug("pairing: the schedule \(peer) announced is set on its NMI station")
        } catch {
            runtime.logger.debug("pairing: the schedule of \(peer) not set, its frames wait for DWs: \(error)")
        }
    }

    private func removeStation(_ peer: MACAddress) async {
        do {
            try await runtime.session.removeStation(.managementInterface(runtime.managementInterface.wdev), peer: peer)
        } catch {
            runtime.logger.debug("pairing: NMI station \(peer) not removed: \(error)")
        }
    }

    /// Sends the NIK key data in a follow-up along the peer's route.
    public func send(keyDescriptor: SharedKeyDescriptorAttribute, to peer: MACAddress) async throws {
        guard let route = routes.withLock({ $0[peer] }) else {
            throw PairingError(.unexpectedMessage, "no service instance to send the NIK to \(peer) through")
        }
        _ = try await engine.send(keyDescriptor: keyDescriptor, from: route.local, to: peer, peerInstanceID: route.peer)
    }

    /// Sends a bootstrapping request or response in a follow-up along the peer's route.
    public func send(bootstrapping: PairingBootstrappingAttribute, to peer: MACAddress) async throws {
        guard let route = routes.withLock({ $0[peer] }) else {
            throw PairingError(.unexpectedMessage, "no service instance to send bootstrapping to \(peer) through")
        }
        // The peer's station and schedule before our first frame to it: the rest leave outside the DWs.
        await addStation(for: peer)
        _ = try await engine.send(bootstrapping: bootstrapping, from: route.local, to: peer, peerInstanceID: route.peer)
    }
}

extension PairingEngine {
    /// The interest to register with the runtime (before NAN starts) for the PASN frames ``serve(_:)`` takes.
    /// Room for 1024 frames: ``serve(_:)`` hands them over one at a time, and while an SAE run holds the
    /// engine a flood of frame 1s (100 a second on the bench) filled the 64 it had in well under a second;
    /// the newer frames, a real peer's frame 3 among them, were dropped.
    public static let runtimeInterest = NANEventInterest(authenticationFrames: true, bufferSize: 1024)

    /// Feeds the PASN Authentication frames of a runtime event stream (registered with
    /// ``runtimeInterest``) to this engine until the stream ends or the task is cancelled.
    public func serve(_ events: AsyncThrowingStream<NL80211Event, any Error>) async throws {
        for try await event in events {
            if case .frameReceived(_, _, _, let bytes) = event { await handle(authentication: bytes) }
        }
    }
}

public import NANWire

/// The NAN data-path engine of one NAN interface: runs ``DataPathNegotiations`` against the radio, keeps
/// the NDI, the schedule and the peer stations, and reports ``DataPathEvent``s.
///
/// The NDI and our schedule are set up with the first publish that accepts data paths or the first
/// request, and removed (schedule cleared first) at ``shutDown()``.
actor DataPathEngine {
    let radio: any DataPathRadio
    private(set) var negotiations: DataPathNegotiations?
    private(set) var interface: DataInterface?
    private var cluster: MACAddress = .broadcast
    private var windowFrequency: Int?
    private var sequence: UInt16 = 0

    private struct Outgoing {
        var bytes: [UInt8]
        var ndp: NDPIdentifier
        var attempts: Int
        /// Sent once, never retried (terminations, keepalives).
        var last: Bool
        /// A keepalive to this peer NMI: its acknowledgement is the peer's sign of life.
        var keepalive: MACAddress? = nil
        /// The channel for the first attempt when it is not the DW's (``transmitsOnDataLink``); a retry goes
        /// at the next DW as every other frame.
        var dataLinkFrequency: Int? = nil
    }
    private var waiting: [Outgoing] = []
    private var inFlight: [UInt64: Outgoing] = [:]
    /// A frame is retried at this many DWs before the data path is given up.
    static let maximumAttempts = 8
    static let maximumQueued = 64
    /// How long a setup may take (generous: NAFs wait for DWs, and a loaded machine is slow).

    private var pathWatchers: [NDPIdentifier: AsyncStream<DataPathEvent>.Continuation] = [:]
    private var publishWatchers: [InstanceID: AsyncStream<DataPathEvent>.Continuation] = [:]
    private var pathPublish: [NDPIdentifier: InstanceID] = [:]
    private var established: [NDPIdentifier: NDPLink] = [:]
    private let clock = ContinuousClock()

    /// Per peer with data paths up: keepalives not acknowledged in a row, and when the last went out.
    private var liveness: [MACAddress: (misses: Int, lastProbe: ContinuousClock.Instant)] = [:]
    /// Per data path: the station's packet count and when it last changed (for the idle timeout).
    private var activity: [NDPIdentifier: (packets: UInt64, since: ContinuousClock.Instant)] = [:]
    /// How often a peer with data paths up is probed (a Schedule Update Notification NAF, acknowledged by
    /// its radio).
    var keepaliveInterval: Duration = .seconds(2)
    /// After this many unacknowledged probes in a row the peer is lost and its data paths end.
    var peerLossMisses = 5
    /// A data path with no packets either way for this long is ended (nil: never), unless it was given
    /// its own with ``request(to:publishID:serviceInfo:idleTimeout:)`` or ``accept(publishID:serviceInfo:admitting:security:idleTimeout:)``.
    var idleTimeout: Duration? = nil
    /// Idle timeouts asked for per publish (applied to the data paths it accepts) and per requested data path.
    private var publishIdleTimeouts: [InstanceID: Duration] = [:]
    private var pathIdleTimeouts: [NDPIdentifier: Duration] = [:]

    /// Sets the default idle timeout (nil: never).
    func setIdleTimeout(_ timeout: Duration?) { idleTimeout = timeout }

    /// The idle timeout of one data path.
    func idleTimeout(of id: NDPIdentifier) -> Duration? {
        if let own = pathIdleTimeouts[id] { return own }
        if let publishID = pathPublish[id], let forPublish = publishIdleTimeouts[publishID] { return forPublish }
        return idleTimeout
    }

    /// Sets how often peers are probed and after how many unanswered probes they are lost.
    func setKeepalive(interval: Duration, misses: Int) {
        keepaliveInterval = interval
        peerLossMisses = max(1, misses)
    }

    /// Receives one line per NAF sent or received and per kernel step (diagnostics); nil for none.
    let trace: (@Sendable (String) -> Void)?

    /// How our schedule is laid out (``DataPathScheduleLayout/swapped`` forces peers onto the counter path).
    let scheduleLayout: DataPathScheduleLayout

    /// An experiment (`WAWARE_DP_NDL_TX=1`, docs/data-path.md): a NAF that completes a setup (the open
    /// confirm, the key install) goes after the peer's stations and schedule are in, on the channel of our
    /// common committed slots instead of the DW's, so the radio may send it before the next DW. Default false.
    let transmitsOnDataLink: Bool

    init(radio: any DataPathRadio, scheduleLayout: DataPathScheduleLayout = .preferred, transmitsOnDataLink: Bool = false,
         trace: (@Sendable (String) -> Void)? = nil) {
        self.radio = radio
        self.scheduleLayout = scheduleLayout
        self.transmitsOnDataLink = transmitsOnDataLink
        self.trace = trace
    }

    /// Runs once, before the first accept or request: connects the engine to its radio's events (see
    /// ``DataPathTap``), so an engine nobody uses is not woken at every DW. Nil: nothing to do.
    private var activation: (@Sendable () async throws -> Void)?

    /// Sets what runs before the first accept or request.
    func setActivation(_ activation: @escaping @Sendable () async throws -> Void) {
        self.activation = activation
    }

    /// Told each schedule the kernel took as our local schedule (the discovery engine announces it in its
    /// SDFs); nil: nobody.
    private var scheduleObserver: (@Sendable (DataPathSchedule) async -> Void)?

    /// Sets who is told of each schedule installed.
    func setScheduleObserver(_ observer: @escaping @Sendable (DataPathSchedule) async -> Void) {
        scheduleObserver = observer
    }

    /// What our SDFs say about this device so that a peer can request a data path from us: our Device
    /// Capability and the channels we can use (``DeviceAttributes``).
    var deviceAttributes: DeviceAttributes {
        DeviceAttributes(capability: radio.capabilities.0, usableChannels: usableChannels, committed: negotiations?.local.schedule)
    }

    /// The channels our radio may put in a schedule: channel 6, our own 5 GHz choices, then (with 5 GHz) every
    /// other 20 MHz channel outside DFS, so a peer that commits one of those can be met on it. The `channel6`
    /// layout stands for a 2.4 GHz-only device: channel 6 alone.
    var usableChannels: [DataPathChannel] {
        let own = radio.fiveGHzCandidates
        guard !own.isEmpty, scheduleLayout != .channel6 else { return [.channel6] }
        return [.channel6] + own + DataPathChannel.nonDFS5GHz.filter { !own.contains($0) }
    }

    /// Installs `schedule` as our local schedule in the kernel and tells the observer.
    private func install(_ schedule: DataPathSchedule) async throws {
        try await radio.setLocalSchedule(schedule)
        await scheduleObserver?(schedule)
    }

    /// The data paths that are up.
    var connections: [NDPLink] { Array(established.values) }
    /// The data paths that are up, as reported when they connected.
    private(set) var connectionReports: [DataPathConnection] = []

    // MARK: Set-up

    private func ready() async throws -> DataPathNegotiations {
        if let negotiations { return negotiations }
        if let activation {
            self.activation = nil
            do {
                try await activation()
            } catch {
                // Not registered (the kernel refused a frame registration): the next use tries again
                // instead of running an engine that hears nothing.
                self.activation = activation
                throw error
            }
        }
        let created = try await radio.createDataInterface()
        interface = created
        var chosen: DataPathSchedule?
        for candidate in radio.fiveGHzCandidates + [nil] as [DataPathChannel?] {
            let schedule = scheduleLayout.schedule(fiveGHz: candidate)
            do {
                try await install(schedule)
                trace?("dp local schedule \(schedule.channels) committed \(schedule.committedSlotCount) slots")
                chosen = schedule
                break
            } catch {
                trace?("dp local schedule with \(candidate.map { "\($0)" } ?? "2.4 GHz only") refused: \(error)")
                if candidate == nil { await radio.removeDataInterface(created); interface = nil; throw error }
            }
        }
        let (capability, elements) = radio.capabilities
        let nmi = radio.localAddress.bytes
        var local = DataPathLocalDevice(
            nmi: radio.localAddress, schedule: chosen ?? .preferred(fiveGHz: nil), deviceCapability: capability,
            capabilityElements: elements, ndcID: MACAddress(0x50, 0x6f, 0x9a, 0x01, nmi[4], nmi[5]),
            usableChannels: usableChannels)
        // The swapped layout exists to make peers take our counter-proposal: it keeps its schedule.
        local.realignsOnPeers = scheduleLayout != .swapped
        var table = DataPathNegotiations(local: local, localNDI: created.address)
        table.protectedPeers = Set(protectedPeers)
        negotiations = table
        return table
    }

    /// Peers our data-path NAFs go to protected (``DataPathNegotiations/protectedPeers``), oldest first, at most
    /// 256 (as the discovery engine's).
    private var protectedPeers: [MACAddress] = []

    /// Sends our data-path NAFs to `peer` protected from now on (`protects` false stops it): its NMI station
    /// holds the NM-TK of a pairing (``NANEngine/protectFrames(to:_:)``).
    func setProtected(_ peer: MACAddress, _ protects: Bool) {
        protectedPeers.removeAll { $0 == peer }
        if protects, !peer.isMulticast {
            protectedPeers.append(peer)
            if protectedPeers.count > 256 { protectedPeers.removeFirst() }
        }
        negotiations?.protectedPeers = Set(protectedPeers)
    }

    /// Accepts data-path requests to our publish `publishID`; the stream reports each one. Ends with the engine.
    /// With `security`, only NCS-SK requests with that credential are accepted; without, only open ones.
    /// `idleTimeout` ends each accepted data path after that long without a packet either way (nil: the
    /// engine's default). `admission` says whose requests are taken, asked again at each request.
    func accept(publishID: InstanceID, serviceInfo: [UInt8] = [], admitting admission: DataPathAdmission = .anyone,
                security: NDPSecurityPolicy? = nil, idleTimeout: Duration? = nil) async throws -> AsyncStream<DataPathEvent> {
        _ = try await ready()
        negotiations?.publishSecurity[publishID] = security
        publishIdleTimeouts[publishID] = idleTimeout
        negotiations?.acceptingPublishes.insert(publishID)
        negotiations?.admittedPeers[publishID] = admission
        negotiations?.responseServiceInfo[publishID] = serviceInfo
        let (stream, continuation) = AsyncStream.makeStream(of: DataPathEvent.self, bufferingPolicy: .bufferingNewest(64))
        publishWatchers[publishID]?.finish()
        publishWatchers[publishID] = continuation
        return stream
    }

    /// As ``accept(publishID:serviceInfo:admitting:security:idleTimeout:)``, admitting only `peers` (nil: anyone).
    func accept(publishID: InstanceID, serviceInfo: [UInt8] = [], from peers: Set<MACAddress>?,
                security: NDPSecurityPolicy? = nil, idleTimeout: Duration? = nil) async throws -> AsyncStream<DataPathEvent> {
        try await accept(publishID: publishID, serviceInfo: serviceInfo, admitting: peers.map(DataPathAdmission.only) ?? .anyone,
                         security: security, idleTimeout: idleTimeout)
    }

    /// Stops accepting requests to `publishID` (data paths already up stay up).
    func stopAccepting(publishID: InstanceID) {
        negotiations?.acceptingPublishes.remove(publishID)
        negotiations?.admittedPeers[publishID] = nil
        negotiations?.publishSecurity[publishID] = nil
        negotiations?.masterKeys.forget(publishID)
        publishWatchers.removeValue(forKey: publishID)?.finish()
        publishIdleTimeouts[publishID] = nil
    }

    /// Asks `peer` for a data path to its publish `publishID` (NCS-SK with `security`, else open); the stream
    /// reports how it goes. `idleTimeout` ends it after that long without a packet either way (nil: the
    /// engine's default). `peerAvailability`: what the peer's SDFs announced of its schedule, which our
    /// proposal meets where ours would share few slots with it.
    func request(to peer: MACAddress, publishID: InstanceID, serviceInfo: [UInt8] = [], security: NDPSecurityPolicy? = nil,
                 idleTimeout: Duration? = nil, peerAvailability: [NANAvailabilityAttribute] = [])
        async throws -> (NDPIdentifier, AsyncStream<DataPathEvent>) {
        _ = try await ready()
        guard var table = negotiations,
              let (id, actions) = try table.initiate(to: peer, publishID: publishID, serviceInfo: serviceInfo,
                                                     security: security, peerAvailability: peerAvailability, now: clock.now) else {
            throw DataPathError.tooManyDataPaths
        }
        negotiations = table
        let (stream, continuation) = AsyncStream.makeStream(of: DataPathEvent.self, bufferingPolicy: .bufferingNewest(16))
        pathWatchers[id] = continuation
        pathIdleTimeouts[id] = idleTimeout
        await perform(actions)
        return (id, stream)
    }

    /// Ends a data path from our side. It runs to the end even when the caller's task is cancelled (Ctrl-C
    /// cancels the task holding the data path): the radio refuses work from a cancelled task, so the
    /// termination would not go out and the peer would learn of the end only by losing us (`peer-lost`).
    func end(_ id: NDPIdentifier) async {
        await Task { await self.endNow(id) }.value
    }

    private func endNow(_ id: NDPIdentifier) async {
        guard var table = negotiations else { return }
        let actions = table.terminate(id)
        negotiations = table
        await perform(actions)
    }

    /// Set while ``shutDown()`` runs: frames and establishments that arrive while it waits change nothing.
    private var stopping = false
    /// Establishments whose kernel steps are running (the actor is free meanwhile), and who waits for none to be.
    private var establishing = 0
    private var establishingDone: [CheckedContinuation<Void, Never>] = []

    /// Ends every data path (telling the peers), removes the stations, clears the schedule and deletes the NDI;
    /// like ``end(_:)``, even from a cancelled task.
    func shutDown() async {
        await Task { await self.shutDownNow() }.value
    }

    private func shutDownNow() async {
        stopping = true
        defer { stopping = false }
        if var table = negotiations {
            let actions = table.phases.keys.flatMap { table.terminate($0) }
            negotiations = table
            await perform(actions)
        }
        // An establishment whose kernel steps were running undoes them when it sees `stopping`: wait for
        // it, so nothing it added is left once the schedule and the NDI go (and once this returns).
        while establishing > 0 {
            await withCheckedContinuation { establishingDone.append($0) }
        }
        // A data path that was established while the terminations went out (actor reentrancy) goes too.
        for id in Array(established.keys) { await tearDown(id) }
        for continuation in publishWatchers.values { continuation.finish() }
        publishWatchers.removeAll()
        if negotiations != nil { await radio.clearLocalSchedule() }
        if let interface { await radio.removeDataInterface(interface) }
        interface = nil
        negotiations = nil
    }

    // MARK: Radio events

    func handle(_ event: DataPathRadioEvent) async {
        switch event {
        case .clusterJoined(let id):
            cluster = id
        case .discoveryWindow(let frequency):
            windowFrequency = frequency
            let due = waiting
            waiting.removeAll()
            for item in due { await transmit(item) }
            await resendUnanswered()
            await expire()
            await supervise()
        case .frameReceived(let bytes):
            await received(bytes)
        case .channelsEvacuated(let frequencies):
            trace?("dp kernel evacuated \(frequencies.sorted()) MHz")
            await evacuate(frequencies: frequencies)
        case .transmitStatus(let cookie, let acknowledged):
            if terminationsInFlight[cookie] != nil { return terminationSent(cookie) }
            guard let item = inFlight.removeValue(forKey: cookie) else {
                unclaimedStatuses.append(cookie)
                if unclaimedStatuses.count > 16 { unclaimedStatuses.removeFirst() }
                return
            }
            trace?("dp tx status cookie \(cookie) acked \(acknowledged) attempt \(item.attempts) \(item.ndp)")
            if let peer = item.keepalive, let state = liveness[peer] {
                let misses = acknowledged ? 0 : state.misses + 1
                liveness[peer] = (misses, state.lastProbe)
                if misses >= peerLossMisses {
                    trace?("dp peer \(peer) lost after \(misses) unacknowledged keepalives")
                    await lose(peer)
                }
                return
            }
            if acknowledged || item.last { return }
            if item.attempts >= Self.maximumAttempts {
                if var table = negotiations {
                    let actions = table.drop(item.ndp, reason: DataPathEndReason(.timeout))
                    negotiations = table
                    await perform(actions)
                }
            } else if waiting.count < Self.maximumQueued {
                waiting.append(item)
            }
        }
    }

    /// Sends again a request (or secure confirm) that has had no answer for a few DWs.
    private func resendUnanswered() async {
        guard var table = negotiations else { return }
        let actions = table.discoveryWindow()
        negotiations = table
        if !actions.isEmpty { trace?("dp \(actions.count) unanswered setup frame(s) sent again") }
        await perform(actions)
    }

    private func expire() async {
        guard var table = negotiations else { return }
        let actions = table.tick(now: clock.now)
        negotiations = table
        await perform(actions)
    }

    private func received(_ bytes: [UInt8]) async {
        guard !stopping, var table = negotiations,
              let frame = try? NANManagementFrame(bytes: bytes), case .action(let naf) = frame.body,
              let source = sender(of: frame.header, protected: naf.isProtected) else { return }
        // Anyone can send a frame from a peer's address: only one that passed the kernel's integrity check is
        // the peer's sign of life (the acknowledgements of our keepalives are the other).
        let authenticated = isAuthenticated(frame.header, protected: naf.isProtected, from: source)
        if authenticated, liveness[source] != nil { liveness[source]?.misses = 0 }
        if naf.subtype == .scheduleUpdateNotification {
            await receivedScheduleUpdate(naf, from: source, authenticated: authenticated)
            return
        }
        guard let message = try? DataPathMessage(naf) else { return }
        if message.subtype == .dataPathTermination, !authenticated,
           let link = established[NDPIdentifier(peer: source, initiatorNDI: message.ndp.initiatorNDI, ndpID: message.ndp.ndpID)],
           link.pairwiseKey != nil {
            ignoredTerminations += 1
            trace?("dp unprotected termination of secure \(link.id) from \(frame.header.source) ignored")
            return
        }
        let body = Array(bytes.dropFirst(ManagementHeader.length))
        let actions = table.receive(message, body: body, from: source, now: clock.now)
        negotiations = table
        trace?("dp rx \(message.subtype) status \(message.ndp.status.rawValue) from \(frame.header.source) ndp \(message.ndp.ndpID) -> \(actions.count) actions")
        await perform(actions)
    }

    /// Terminations of a secure data path that came unprotected, so from anyone: ignored (diagnostics). The
    /// peer's own come protected under the data path's key, NDI to NDI (``sendProtectedTermination(_:for:)``),
    /// as wpa_supplicant 2.12 sends them.
    private(set) var ignoredTerminations = 0

    /// Sends a termination of the secure data path `link` from our NDI to the peer's NDI as a protected
    /// dual of public action frame, which the kernel protects under the data path's key: the one kind of
    /// termination a peer can tell from a forged one. Best effort (the NMI copy goes as well).
    private func sendProtectedTermination(_ message: DataPathMessage, for link: NDPLink) async {
        guard let interface else { return }
        sequence &+= 1
        let header = ManagementHeader(destination: link.peerNDI, source: interface.address, bssid: cluster, sequenceControl: sequence << 4)
        guard let bytes = try? NANManagementFrame(header: header, body: .action(message.frame(isProtected: true))).encoded() else { return }
        let cookie: UInt64
        do {
            cookie = try await radio.transmit(bytes, from: interface)
        } catch {
            trace?("dp protected termination of \(link.id) not sent: \(error)")
            return
        }
        // The kernel protects the frame as it leaves, under the key of the peer's station, which the end of
        // the data path removes (and its queue with it): wait for the frame to go, at most a second.
        if unclaimedStatuses.contains(cookie) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            terminationsInFlight[cookie] = continuation
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(1))
                await self?.terminationSent(cookie)
            }
        }
    }

    /// Protected terminations waiting for their transmit status, by cookie.
    private var terminationsInFlight: [UInt64: CheckedContinuation<Void, Never>] = [:]
    /// Cookies whose transmit status came before anything waited for it (the last few).
    private var unclaimedStatuses: [UInt64] = []

    private func terminationSent(_ cookie: UInt64) {
        terminationsInFlight.removeValue(forKey: cookie)?.resume()
    }

    /// The peer NMI a received NAF speaks for: its source, when it came to our NMI; the peer of the data path
    /// whose NDI sent it, when it came to our NDI protected (the kernel took it under that data path's key,
    /// so it is that peer's). Nil for anything else.
    private func sender(of header: ManagementHeader, protected: Bool) -> MACAddress? {
        if header.destination == radio.localAddress { return header.source }
        guard protected, let interface, header.destination == interface.address else { return nil }
        return established.values.first(where: { $0.peerNDI == header.source })?.id.peer
    }

    /// Whether a NAF from `peer` passed the kernel's integrity check under a key of that peer: protected
    /// (category 9) and sent either to our NMI by a peer whose NMI station holds a pairing's NM-TK, or to our
    /// NDI from the NDI of a secure data path with it (as wpa_supplicant 2.12 sends its NAFs for a secure
    /// NDP). The kernel drops an unprotected robust frame from a station with management frame protection,
    /// which both of those stations have; from any other address a category 9 frame proves nothing.
    private func isAuthenticated(_ header: ManagementHeader, protected: Bool, from peer: MACAddress) -> Bool {
        guard protected else { return false }
        if header.destination == radio.localAddress { return negotiations?.protectedPeers.contains(peer) ?? false }
        return established.values.contains { $0.id.peer == peer && $0.peerNDI == header.source && $0.pairwiseKey != nil }
    }

    // MARK: Peer loss and idle data paths

    /// Probes peers that are due and ends data paths that have been idle too long.
    private func supervise() async {
        let now = clock.now
        for (peer, state) in liveness where now - state.lastProbe >= keepaliveInterval {
            liveness[peer]?.lastProbe = now
            guard let local = negotiations?.local else { continue }
            await announceSchedule(local.schedule, to: peer, keepalive: true)
        }
        guard let interface else { return }
        for link in established.values {
            guard let limit = idleTimeout(of: link.id),
                  let packets = await radio.packetCount(of: link.peerNDI, on: interface) else { continue }
            if let seen = activity[link.id], seen.packets == packets {
                if now - seen.since >= limit, var table = negotiations {
                    trace?("dp \(link.id) idle for \(now - seen.since): ending it")
                    let actions = table.terminate(link.id, reason: DataPathEndReason(.idle, code: .unspecified))
                    negotiations = table
                    await perform(actions)
                }
            } else {
                activity[link.id] = (packets, now)
            }
        }
    }

    /// The peer stopped answering: its data paths end without a termination frame.
    private func lose(_ peer: MACAddress) async {
        liveness[peer] = nil
        guard var table = negotiations else { return }
        let ids = table.phases.keys.filter { $0.peer == peer }
        let actions = ids.flatMap { table.drop($0, reason: DataPathEndReason(.peerLost)) }
        negotiations = table
        await perform(actions)
    }

    // MARK: Schedule updates and channel evacuation

    /// Schedule Update Notifications refused: from a peer with no data path up, undecodable, without a
    /// readable availability, older than the peer's schedule we hold (out of order), or unauthenticated and
    /// leaving no slot in common (it would end the data paths). Diagnostics.
    private(set) var ignoredScheduleUpdates = 0

    /// Sends `schedule` in a Schedule Update Notification to `peer` (a peer with data paths up). As a
    /// keepalive its acknowledgement counts as the peer's sign of life.
    private func announceSchedule(_ schedule: DataPathSchedule, to peer: MACAddress, keepalive: Bool) async {
        guard let any = established.values.first(where: { $0.id.peer == peer }) else { return }
        sequence &+= 1
        let header = ManagementHeader(destination: peer, source: radio.localAddress, bssid: cluster, sequenceControl: sequence << 4)
        let message = ScheduleUpdate.notification(announcing: schedule)
        guard let bytes = try? NANManagementFrame(header: header, body: .action(message.frame())).encoded() else { return }
        await transmit(Outgoing(bytes: bytes, ndp: any.id, attempts: 0, last: true, keepalive: keepalive ? peer : nil))
    }

    /// A peer with data paths up announced its schedule. The same schedule (its keepalives) changes nothing;
    /// a newer one is installed for its NMI station (`NAN_SET_PEER_SCHED`, cut to our channels), unless it
    /// shares no slot with ours: then, when the notification is `authenticated` (``isAuthenticated(_:protected:from:)``),
    /// the peer's data paths end (`schedule-changed`, NDL unacceptable); when it is not, anyone could have
    /// sent it, so it is ignored and counted and the schedule we hold stays (as for an SDF, ``peerAnnounced(_:by:)``).
    private func receivedScheduleUpdate(_ naf: NANActionFrame, from peer: MACAddress, authenticated: Bool) async {
        guard established.values.contains(where: { $0.id.peer == peer }) else {
            ignoredScheduleUpdates += 1
            return
        }
        let update: ScheduleUpdate
        do {
            update = try ScheduleUpdate(naf)
        } catch {
            ignoredScheduleUpdates += 1
            trace?("dp schedule update from \(peer) ignored: \(error)")
            return
        }
        if !authenticated, let local = negotiations?.local.schedule, update.availability.commonSlots(with: local).isEmpty {
            ignoredScheduleUpdates += 1
            trace?("dp unprotected schedule update from \(peer) ignored: no slot in common with ours")
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
            trace?("dp schedule of \(peer) from its discovery frame ignored: no slot in common with ours")
            return
        }
        await follow(availability, of: peer, from: "discovery frame")
    }

    /// Installs a peer's newer schedule (`source`: what announced it) for its NMI station; the same schedule
    /// changes nothing, an older one is ignored.
    private func follow(_ availability: PeerAvailability, of peer: MACAddress, from source: String) async {
        let links = established.values.filter { $0.id.peer == peer }
        guard let current = links.first?.peerAvailability, availability != current else { return }
        guard ScheduleUpdate.sequence(availability.sequenceID, isNewerThan: current.sequenceID) else {
            ignoredScheduleUpdates += 1
            trace?("dp \(source) from \(peer) ignored: sequence \(availability.sequenceID) is not after \(current.sequenceID)")
            return
        }
        trace?("dp \(source) from \(peer): sequence \(current.sequenceID) -> \(availability.sequenceID)")
        for link in links { established[link.id]?.peerAvailability = availability }
        await reinstallPeerSchedule(peer, reason: "its new schedule shares no slot with ours")
    }

    /// Installs the schedule we hold for `peer` again against our schedule in use; ends the peer's data paths
    /// when the two share no slot (`schedule-changed`, the peer told) or the kernel refuses it.
    /// Returns whether the peer's data paths go on.
    @discardableResult
    private func reinstallPeerSchedule(_ peer: MACAddress, against schedule: DataPathSchedule? = nil, reason detail: String) async -> Bool {
        guard let local = schedule ?? negotiations?.local.schedule,
              let link = established.values.first(where: { $0.id.peer == peer }) else { return false }
        let ids = established.values.filter { $0.id.peer == peer }.map(\.id)
        if link.peerAvailability.commonSlots(with: local).isEmpty {
            trace?("dp \(peer): \(detail), ending its \(ids.count) data path(s)")
            await terminate(ids, reason: DataPathEndReason(.scheduleChanged, code: .ndlUnacceptable, detail: detail))
            return false
        }
        do {
            try await radio.updatePeerSchedule(link, localSchedule: local)
            trace?("dp peer schedule of \(peer) installed again (sequence \(link.peerAvailability.sequenceID))")
            return true
        } catch {
            await terminate(ids, reason: DataPathEndReason(.kernelFailure, code: .ndlUnacceptable, detail: "\(error)"))
            return false
        }
    }

    private func terminate(_ ids: [NDPIdentifier], reason: DataPathEndReason) async {
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
            trace?("dp evacuation of \(listed) MHz leaves no channel: ending every data path")
            await terminate(everyone, reason: DataPathEndReason(.scheduleChanged, code: .ndlUnacceptable,
                                                                 detail: "channel evacuation (\(listed) MHz) left no channel"))
            return negotiations?.local.schedule
        }
        // Peer schedules first, cut to the channels of the new schedule (valid against the old one too): the
        // kernel may refuse a local schedule without a channel that an installed peer schedule still names.
        var continuing: [MACAddress] = []
        for peer in Set(established.values.map(\.id.peer)) {
            if await reinstallPeerSchedule(peer, against: next, reason: "channel evacuation (\(listed) MHz) left no slot in common") {
                continuing.append(peer)
            }
        }
        do {
            try await install(next)
        } catch {
            trace?("dp local schedule without \(listed) MHz refused: \(error)")
            await terminate(negotiations.map { Array($0.phases.keys) } ?? [], reason: DataPathEndReason(.kernelFailure, code: .ndlUnacceptable, detail: "\(error)"))
            return negotiations?.local.schedule
        }
        negotiations?.local.schedule = next
        trace?("dp local schedule \(next.channels) committed \(next.committedSlotCount) slots (evacuated \(listed) MHz)")
        for peer in continuing { await announceSchedule(next, to: peer, keepalive: false) }
        return next
    }

    // MARK: Actions

    private func perform(_ actions: [DataPathAction]) async {
        /// Data paths ended by a failed schedule change: their later actions are dropped.
        var abandoned: Set<NDPIdentifier> = []
        let paired: [(action: DataPathAction, link: NDPLink?)] = transmitsOnDataLink ? Self.dataLinkFirst(actions) : actions.map { ($0, nil) }
        for (action, dataLink) in paired {
            if let id = action.dataPath, abandoned.contains(id) { continue }
            switch action {
            case .changeSchedule(let schedule, let previous, let id):
                do {
                    try await install(schedule)
                    trace?("dp local schedule \(schedule.channels) committed \(schedule.committedSlotCount) slots (to meet the peer's schedule, \(id))")
                } catch {
                    trace?("dp local schedule of the counter-proposal refused: \(error)")
                    abandoned.insert(id)
                    guard var table = negotiations else { continue }
                    table.local.schedule = previous
                    let actions = table.terminate(id, reason: DataPathEndReason(.kernelFailure, code: .ndlUnacceptable, detail: "\(error)"))
                    negotiations = table
                    await perform(actions)
                }
            case .send(let message, let peer, let ndp):
                sequence &+= 1
                let header = ManagementHeader(destination: peer, source: radio.localAddress, bssid: cluster,
                                              sequenceControl: sequence << 4)
                let protected = negotiations?.protectedPeers.contains(peer) ?? false
                if message.subtype == .dataPathTermination, let link = established[ndp], link.pairwiseKey != nil {
                    await sendProtectedTermination(message, for: link)
                }
                guard let bytes = try? NANManagementFrame(header: header, body: .action(message.frame(isProtected: protected))).encoded() else { continue }
                await transmit(Outgoing(bytes: bytes, ndp: ndp, attempts: 0, last: message.subtype == .dataPathTermination,
                                        dataLinkFrequency: dataLinkFrequency(dataLink, ndp)))
            case .sendSealed(let message, let body, let peer, let ndp):
                // The MIC covers these exact bytes: sent as they are, after the header.
                sequence &+= 1
                let header = ManagementHeader(destination: peer, source: radio.localAddress, bssid: cluster,
                                              sequenceControl: sequence << 4)
                var writer = ByteWriter(capacity: ManagementHeader.length + body.count)
                header.encode(into: &writer)
                writer.writeBytes(body)
                trace?("dp tx sealed \(message.subtype) \(ndp)")
                await transmit(Outgoing(bytes: writer.bytes, ndp: ndp, attempts: 0, last: false,
                                        dataLinkFrequency: dataLinkFrequency(dataLink, ndp)))
            case .refused(let id, let publishID, let reason):
                trace?("dp refused \(id): \(reason)")
                publishWatchers[publishID]?.yield(.terminated(id, reason))
            case .requested(let id, let publishID, let info):
                pathPublish[id] = publishID
                publishWatchers[publishID]?.yield(.requested(id, serviceInfo: info))
            case .establish(let link):
                trace?("dp establish \(link.id) peer NDI \(link.peerNDI) common slots \(link.peerAvailability.maps.count) maps")
                await establish(link)
            case .ended(let id, let reason, let wasEstablished):
                trace?("dp ended \(id) \(reason)")
                if wasEstablished || established[id] != nil { await tearDown(id) }
                pathIdleTimeouts[id] = nil
                waiting.removeAll { $0.ndp == id && !$0.last }
                report(id, .terminated(id, reason), final: true)
            }
        }
    }

    private func transmit(_ item: Outgoing) async {
        var item = item
        item.attempts += 1
        let frequency = item.dataLinkFrequency ?? windowFrequency
        let onDataLink = item.dataLinkFrequency == nil ? "" : " (data link)"
        // Later attempts (no acknowledgement, or the kernel refused it) go at a DW.
        item.dataLinkFrequency = nil
        do {
            let cookie = try await radio.transmit(item.bytes, frequency: frequency)
            trace?("dp tx \(item.bytes.count > 30 ? item.bytes[30] : 0) cookie \(cookie) attempt \(item.attempts) freq \(frequency ?? 0)\(onDataLink) \(item.ndp)")
            inFlight[cookie] = item
            if inFlight.count > Self.maximumQueued, let oldest = inFlight.keys.min() { inFlight.removeValue(forKey: oldest) }
        } catch {
            trace?("dp tx failed on \(frequency ?? 0) MHz\(onDataLink): \(error)")
            if item.attempts < Self.maximumAttempts && !item.last && waiting.count < Self.maximumQueued { waiting.append(item) }
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
                let later = action.link != nil ? nil : ordered[(index + 1)...].firstIndex {
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
    private func dataLinkFrequency(_ link: NDPLink?, _ ndp: NDPIdentifier) -> Int? {
        guard let link, established[ndp] != nil, let local = negotiations?.local.schedule else { return nil }
        var count: [Int: Int] = [:]
        for slot in link.peerAvailability.commonSlots(with: local) {
            if let channel = local.slots[slot] { count[local.channels[channel].frequency, default: 0] += 1 }
        }
        return count.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }

    private func establish(_ link: NDPLink) async {
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
            trace?("dp \(link.id) refused: \(conflict)")
            await terminate([link.id], reason: DataPathEndReason(.addressInUse, code: .ndpRejected, detail: conflict))
            return
        }
        do {
            try await radio.addPeer(link, localSchedule: localSchedule)
            try await radio.addPeerDataStation(link, on: interface)
            if stopping || negotiations == nil {
                // The engine began to stop while the stations went in: take them out again.
                await radio.removePeerDataStation(link.peerNDI, of: link.id.peer, on: interface)
                if !established.values.contains(where: { $0.id.peer == link.id.peer }) { await radio.removePeer(link.id.peer) }
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
        if liveness[link.id.peer] == nil { liveness[link.id.peer] = (0, clock.now) }
        let peerIID = link.peerInterfaceID ?? InterfaceIdentifier(eui64Of: link.peerNDI)
        // A listener knows a TCP connection's data path by its source address: keep that address on this
        // path's station, whatever another peer on the NDI advertises.
        await radio.bindPeerAddress(peerIID, to: link.peerNDI, on: interface)
        let connection = DataPathConnection(
            id: link.id, interfaceName: interface.name, localNDI: interface.address, peerNDI: link.peerNDI,
            localAddress: InterfaceIdentifier(eui64Of: interface.address).linkLocalAddress,
            peerAddress: peerIID.linkLocalAddress, cipherSuite: link.pairwiseKey.map { "\($0.cipherSuite)" } ?? "open", peerServiceInfo: link.peerServiceInfo,
            isInitiator: link.isInitiator)
        connectionReports.append(connection)
        report(link.id, .connected(connection), final: false)
    }

    /// Why `link` may not go in beside the data paths up, or nil when it may. The kernel holds one station, so
    /// one key, per peer NDI address, and the NDI address a peer claims is its own say: a link whose NDI
    /// address a data path of another NMI holds would take that path's station (and its link-local address),
    /// and a link not keyed by the same PMK would take a secure path's station. Such a link is refused; the
    /// path up is never ended for it. (A device that starts NAN again with a new NMI and the same NDI address,
    /// its old data path never ended, gets its new one once that one is lost: keepalives or the idle timeout.)
    /// The same NMI's links share the station when they are keyed alike, as before.
    private func conflict(of link: NDPLink) -> String? {
        for other in established.values where other.id != link.id && other.peerNDI == link.peerNDI {
            if other.id.peer != link.id.peer {
                return "its NDI address \(link.peerNDI) belongs to a data path up with \(other.id.peer)"
            }
            if other.pairwiseKey != nil, link.pairwiseKey == nil || link.masterKeyTag != other.masterKeyTag {
                return "its NDI address \(link.peerNDI) belongs to a secure data path (\(other.id)) that "
                    + (link.pairwiseKey == nil ? "an open one" : "one keyed by another PMK") + " may not share"
            }
        }
        return nil
    }

    /// Removes the stations `establish` added for a data path that is no longer in the table (those another
    /// data path still uses stay).
    private func undo(_ link: NDPLink, on interface: DataInterface) async {
        if !established.values.contains(where: { $0.peerNDI == link.peerNDI }) {
            await radio.removePeerDataStation(link.peerNDI, of: link.id.peer, on: interface)
        }
        if !established.values.contains(where: { $0.id.peer == link.id.peer }) {
            await radio.removePeer(link.id.peer)
        }
    }

    private func tearDown(_ id: NDPIdentifier) async {
        connectionReports.removeAll { $0.id == id }
        activity[id] = nil
        pathIdleTimeouts[id] = nil
        guard let link = established.removeValue(forKey: id), let interface else { return }
        if !established.values.contains(where: { $0.id.peer == link.id.peer }) { liveness[link.id.peer] = nil }
        if !established.values.contains(where: { $0.peerNDI == link.peerNDI }) {
            await radio.removePeerDataStation(link.peerNDI, of: link.id.peer, on: interface)
        }
        if !established.values.contains(where: { $0.id.peer == link.id.peer }) {
            await radio.removePeer(link.id.peer)
        }
    }

    private func report(_ id: NDPIdentifier, _ event: DataPathEvent, final: Bool) {
        if let watcher = pathWatchers[id] {
            watcher.yield(event)
            if final { pathWatchers.removeValue(forKey: id)?.finish() }
        }
        if let publishID = pathPublish[id] {
            publishWatchers[publishID]?.yield(event)
            if final { pathPublish.removeValue(forKey: id) }
        }
    }
}

/// Data-path failures the engine reports itself (the kernel's come as they are).
public struct DataPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// The table of data paths is full.
    public static let tooManyDataPaths = DataPathError(description: "too many data paths at once")
    /// The engine has stopped.
    public static let stopped = DataPathError(description: "the data-path engine has stopped")
}

extension DataPathAction {
    /// The data path an action is about.
    var dataPath: NDPIdentifier? {
        switch self {
        case .send(_, _, let id), .sendSealed(_, _, _, let id), .changeSchedule(_, _, let id): return id
        case .requested(let id, _, _), .refused(let id, _, _), .ended(let id, _, _): return id
        case .establish(let link): return link.id
        }
    }
}

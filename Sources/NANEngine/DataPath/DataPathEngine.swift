import NANLogging
public import NANSystem
import NANWire

/// The NAN data-path engine of one NAN interface: runs ``DataPathNegotiations`` against the radio, keeps
/// the NDI, the schedule and the peer stations, and reports ``DataPathEvent``s.
///
/// The NDI and our schedule are set up with the first publish that accepts data paths or the first
/// request, and removed (schedule cleared first) at ``shutDown()``. The engine is one actor in four files:
/// this one (state, set-up, the calls its owner makes), `+Frames` (radio events, received NAFs, sending),
/// `+Links` (the kernel's stations for a data path, peer loss, idle data paths) and `+Schedules` (schedule
/// updates and channel evacuation). What it sends is queued in a ``DataPathTransmitQueue``; whether peers
/// and data paths are alive is kept in ``DataPathLiveness``.
actor DataPathEngine {
    let radio: any DataPathRadio
    /// The negotiation state machine; nil until the first use.
    var negotiations: DataPathNegotiations?
    /// Our NAN data interface; nil until the first use.
    var interface: DataInterface?
    /// The cluster we are in (the BSSID of our NAFs).
    var cluster: MACAddress = .broadcast
    /// The channel of the current DW (where queued frames go).
    var windowFrequency: Int?
    /// The sequence number of our last NAF.
    var sequence: UInt16 = 0

    /// Frames waiting for a DW, and what their transmit statuses mean.
    var queue = DataPathTransmitQueue()
    /// Keepalives of peers and idle timeouts of data paths.
    var liveness = DataPathLiveness()

    /// Who is told of each requested data path, and of each one accepted for a publish.
    var pathWatchers: [NDPIdentifier: AsyncStream<DataPathEvent>.Continuation] = [:]
    var publishWatchers: [InstanceID: AsyncStream<DataPathEvent>.Continuation] = [:]
    /// The publish each accepted data path was asked for.
    var pathPublish: [NDPIdentifier: InstanceID] = [:]
    /// The data paths whose stations are in the kernel.
    var established: [NDPIdentifier: NDPLink] = [:]
    let clock = ContinuousClock()

    /// Sets how often peers are probed and after how many unanswered probes they are lost.
    func setKeepalive(interval: Duration, misses: Int) {
        liveness.keepaliveInterval = interval
        liveness.peerLossMisses = max(1, misses)
    }

    /// Diagnostics (trace level): one line per NAF sent or received and per kernel step.
    let logger: Logger

    /// How our schedule is laid out (``DataPathScheduleLayout/swapped`` forces peers onto the counter path).
    let scheduleLayout: DataPathScheduleLayout

    /// An experiment (`WAWARE_DP_NDL_TX=1`, docs/data-path.md): a NAF that completes a setup (the open
    /// confirm, the key install) goes after the peer's stations and schedule are in, on the channel of our
    /// common committed slots instead of the DW's, so the radio may send it before the next DW. Default false.
    let transmitsOnDataLink: Bool

    init(
        radio: any DataPathRadio, scheduleLayout: DataPathScheduleLayout = .preferred,
        transmitsOnDataLink: Bool = false,
        logger: Logger = .disabled
    ) {
        self.radio = radio
        self.scheduleLayout = scheduleLayout
        self.transmitsOnDataLink = transmitsOnDataLink
        self.logger = logger
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
        DeviceAttributes(
            capability: radio.capabilities.0, usableChannels: usableChannels, committed: currentSchedule)
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
    /// Discovery stations follow: those it would leave without a common slot, or naming a channel it drops,
    /// go first (the kernel may refuse a local schedule without a channel an installed peer schedule names);
    /// the others are cut to its channels once it is in.
    func install(_ schedule: DataPathSchedule) async throws {
        await removeDiscoveryStations(outside: schedule)
        try await radio.setLocalSchedule(schedule)
        await scheduleObserver?(schedule)
        await refreshDiscoveryStations(against: schedule)
    }

    /// The data paths that are up.
    var connections: [NDPLink] { Array(established.values) }

    /// The data paths that are up, as their owners see them (ordered by peer, then NDP ID).
    var connectionReports: [DataPathConnection] {
        guard let interface else { return [] }
        return established.values.sorted { ($0.id.peer, $0.id.ndpID) < ($1.id.peer, $1.id.ndpID) }
            .map { Self.connection($0, on: interface) }
    }

    /// How a data path up looks to its owner: both interfaces and link-local addresses, and its security.
    static func connection(_ link: NDPLink, on interface: DataInterface) -> DataPathConnection {
        let peerIID = link.peerInterfaceID ?? InterfaceIdentifier(eui64Of: link.peerNDI)
        return DataPathConnection(
            id: link.id, interfaceName: interface.name, localNDI: interface.address, peerNDI: link.peerNDI,
            localAddress: InterfaceIdentifier(eui64Of: interface.address).linkLocalAddress,
            peerAddress: peerIID.linkLocalAddress, cipherSuite: link.pairwiseKey?.cipherSuite,
            peerServiceInfo: link.peerServiceInfo, isInitiator: link.isInitiator)
    }

    /// Terminations of a secure data path that came unprotected, so from anyone: ignored (diagnostics). The
    /// peer's own come protected under the data path's key, NDI to NDI (``sendProtectedTermination(_:for:)``),
    /// as wpa_supplicant 2.12 sends them.
    var ignoredTerminations = 0
    /// Data Path Requests left unanswered because their initiator NDI address is held by a data path up with
    /// another NMI (``received(_:)``; diagnostics).
    var heldAddressRequests = 0
    /// Schedule Update Notifications refused: from a peer with no data path up, undecodable, without a
    /// readable availability, older than the peer's schedule we hold (out of order), or unauthenticated and
    /// leaving no slot in common (it would end the data paths). Diagnostics.
    var ignoredScheduleUpdates = 0
    /// How long a NAF's transmit status may take (it waits for the next DW, or a slot of its data link).
    static let statusTimeout = TransmitPolicy.dataPath.statusTimeout

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
        let chosen: DataPathSchedule
        do {
            chosen = try await installDeviceSchedule()
        } catch {
            await radio.removeDataInterface(created); interface = nil; throw error
        }
        let (capability, elements) = radio.capabilities
        let nmi = radio.localAddress.bytes
        var local = DataPathLocalDevice(
            nmi: radio.localAddress, schedule: chosen, deviceCapability: capability,
            capabilityElements: elements, ndcID: MACAddress(0x50, 0x6f, 0x9a, 0x01, nmi[4], nmi[5]),
            usableChannels: usableChannels)
        // The swapped layout exists to make peers take our counter-proposal: it keeps its schedule.
        local.realignsOnPeers = scheduleLayout != .swapped
        var table = DataPathNegotiations(local: local, localNDI: created.address)
        table.protectedPeers = Set(protectedPeers)
        negotiations = table
        return table
    }

    /// The device schedule installed before any data path (``installDeviceSchedule()``); the data path's
    /// negotiations start from it, and replace it (``currentSchedule``) when they realign or evacuate.
    var deviceSchedule: DataPathSchedule?
    /// Peers whose NMI station we added before a setup's first NAF (``prepare(_:)``), at most one per setup.
    var preparedPeers: Set<MACAddress> = []
    /// Peers whose NMI station we added for discovery's unicast SDFs (``prepareDiscoveryStation(for:availability:committedDW:)``).
    var discoveryStations = PeerStationRegistry(capacity: DataPathEngine.discoveryStationCapacity)
    /// What each discovery station's schedule was made from, to install it again when either side's changes.
    var discoveryStationSchedules: [MACAddress: DiscoveryStationSchedule] = [:]

    /// Our local schedule now: the data path's once it is set up, else the device schedule; nil before
    /// either is installed.
    var currentSchedule: DataPathSchedule? { negotiations?.local.schedule ?? deviceSchedule }

    /// The peers with a data path up (their NMI stations belong to the data path).
    var linkedPeers: Set<MACAddress> { Set(established.keys.map(\.peer)) }

    /// Installs our device schedule once NAN is up, before any data path (docs/design/outside-dw.md): the
    /// layout's schedule with the first 5 GHz candidate the kernel takes, else 2.4 GHz only. The discovery
    /// engine announces it (committed, sequence ID 1 on), so peers may send to us outside the DWs, and it
    /// is the local schedule peer stations are set against. Returns the schedule in use (the one already
    /// installed, if any).
    @discardableResult
    func installDeviceSchedule() async throws -> DataPathSchedule {
        if let current = currentSchedule { return current }
        for candidate in radio.fiveGHzCandidates + [nil] as [DataPathChannel?] {
            let schedule = scheduleLayout.schedule(fiveGHz: candidate)
            do {
                try await install(schedule)
                logger.trace("dp local schedule \(schedule.channels) committed \(schedule.committedSlotCount) slots")
                deviceSchedule = schedule
                return schedule
            } catch {
                logger.trace("dp local schedule with \(candidate.map { "\($0)" } ?? "2.4 GHz only") refused: \(error)")
                if candidate == nil { throw error }
            }
        }
        throw DataPathError(.kernelStep, "no local schedule taken")
    }

    /// Peers our data-path NAFs go to protected (``DataPathNegotiations/protectedPeers``), oldest first, at most
    /// 256 (as the discovery engine's).
    var protectedPeers: [MACAddress] = []

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
    func accept(
        publishID: InstanceID, serviceInfo: [UInt8] = [], admitting admission: DataPathAdmission = .anyone,
        security: NDPSecurityPolicy? = nil, idleTimeout: Duration? = nil
    ) async throws -> AsyncStream<DataPathEvent> {
        _ = try await ready()
        negotiations?.publishSecurity[publishID] = security
        liveness.setIdleTimeout(idleTimeout, forPublish: publishID)
        negotiations?.acceptingPublishes.insert(publishID)
        negotiations?.admittedPeers[publishID] = admission
        negotiations?.responseServiceInfo[publishID] = serviceInfo
        let (stream, continuation) = AsyncStream.makeStream(
            of: DataPathEvent.self, bufferingPolicy: .bufferingNewest(64))
        publishWatchers[publishID]?.finish()
        publishWatchers[publishID] = continuation
        return stream
    }

    /// As ``accept(publishID:serviceInfo:admitting:security:idleTimeout:)``, admitting only `peers` (nil: anyone).
    func accept(
        publishID: InstanceID, serviceInfo: [UInt8] = [], from peers: Set<MACAddress>?,
        security: NDPSecurityPolicy? = nil, idleTimeout: Duration? = nil
    ) async throws -> AsyncStream<DataPathEvent> {
        try await accept(
            publishID: publishID, serviceInfo: serviceInfo, admitting: peers.map(DataPathAdmission.only) ?? .anyone,
            security: security, idleTimeout: idleTimeout)
    }

    /// Stops accepting requests to `publishID` (data paths already up stay up).
    func stopAccepting(publishID: InstanceID) {
        negotiations?.acceptingPublishes.remove(publishID)
        negotiations?.admittedPeers[publishID] = nil
        negotiations?.publishSecurity[publishID] = nil
        negotiations?.masterKeys.forget(publishID)
        publishWatchers.removeValue(forKey: publishID)?.finish()
        liveness.setIdleTimeout(nil, forPublish: publishID)
    }

    /// Asks `peer` for a data path to its publish `publishID` (NCS-SK with `security`, else open); the stream
    /// reports how it goes. `idleTimeout` ends it after that long without a packet either way (nil: the
    /// engine's default). `peerAvailability`: what the peer's SDFs announced of its schedule, which our
    /// proposal meets where ours would share few slots with it, and which the peer's NMI station gets before
    /// the request goes (with `peerCommittedDW`, its Device Capability's committed DW info).
    func request(
        to peer: MACAddress, publishID: InstanceID, serviceInfo: [UInt8] = [], security: NDPSecurityPolicy? = nil,
        idleTimeout: Duration? = nil, peerAvailability: [NANAvailabilityAttribute] = [],
        peerCommittedDW: UInt16? = nil
    )
        async throws -> (NDPIdentifier, AsyncStream<DataPathEvent>)
    {
        _ = try await ready()
        guard var table = negotiations,
            let (id, actions) = try table.initiate(
                to: peer, publishID: publishID, serviceInfo: serviceInfo,
                security: security, peerAvailability: peerAvailability, now: clock.now)
        else {
            throw DataPathError.tooManyDataPaths
        }
        negotiations = table
        let (stream, continuation) = AsyncStream.makeStream(
            of: DataPathEvent.self, bufferingPolicy: .bufferingNewest(16))
        pathWatchers[id] = continuation
        liveness.setIdleTimeout(idleTimeout, forPath: id)
        await perform(
            actions,
            preparing: SetupStation(
                peer: peer, availability: PeerAvailability(peerAvailability), committedDW: peerCommittedDW ?? 0x0001))
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
    var stopping = false
    /// Establishments whose kernel steps are running (the actor is free meanwhile), and who waits for none to be.
    var establishing = 0
    var establishingDone: [CheckedContinuation<Void, Never>] = []

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
        for peer in preparedPeers { await radio.removePeer(peer) }
        preparedPeers.removeAll()
        for peer in discoveryStations.peers { await radio.removePeer(peer) }
        discoveryStations = PeerStationRegistry(capacity: Self.discoveryStationCapacity)
        discoveryStationSchedules.removeAll()
        for continuation in publishWatchers.values { continuation.finish() }
        publishWatchers.removeAll()
        if currentSchedule != nil { await radio.clearLocalSchedule() }
        if let interface { await radio.removeDataInterface(interface) }
        interface = nil
        negotiations = nil
        deviceSchedule = nil
    }

    // MARK: Reporting

    func report(_ id: NDPIdentifier, _ event: DataPathEvent, final: Bool) {
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
    /// The kind of failure; match on this.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable name, used in messages.
        public let description: String
        init(_ description: String) { self.description = description }
        /// The radio cannot carry data paths (no NAN data interfaces, or discovery offloaded to the driver).
        public static let notSupported = Code("this adapter cannot carry NAN data paths")
        /// The table of data paths is full.
        public static let tooManyDataPaths = Code("too many data paths at once")
        /// The engine has stopped.
        public static let stopped = Code("the data-path engine has stopped")
        /// The adapter cannot install keys on NAN interfaces (no `SECURE_NAN`).
        public static let noSecureNAN = Code("the adapter does not support keys on NAN interfaces (no SECURE_NAN)")
        /// The kernel refused a step (``DataPathError/detail`` names it, ``DataPathError/errno`` says why).
        public static let kernelStep = Code("the kernel refused a data-path step")
    }

    /// What went wrong.
    public let code: Code
    /// What was being done, or what failed, if more than the code says.
    public let detail: String?
    /// The kernel's errno behind a ``Code/kernelStep``, when it gave one.
    public let errno: Errno?

    /// Creates an error.
    public init(_ code: Code, _ detail: String? = nil, errno: Errno? = nil) {
        self.code = code
        self.detail = detail
        self.errno = errno
    }

    /// The detail, else the code's text.
    public var description: String { detail ?? code.description }

    /// The table of data paths is full.
    public static let tooManyDataPaths = DataPathError(.tooManyDataPaths)
    /// The engine has stopped.
    public static let stopped = DataPathError(.stopped)
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

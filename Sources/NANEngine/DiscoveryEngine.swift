import NANLogging
import NANWire

/// The discovery engine: one actor that owns every local publish and subscribe, consumes the radio's
/// events in order, and sends service discovery frames timed to the discovery windows (DW).
///
/// On a user-space radio it builds and parses SDFs itself; on an offloading radio it hands functions to
/// the driver and translates its match and termination events. The public face is `NANEngine`.
actor DiscoveryEngine {
    /// Tunables; the defaults are what the VM measurements chose.
    struct Options: Sendable {
        /// Replies to active subscribes go out at once rather than in the next DW.
        var replyImmediately = true
        /// Follow-ups go out at once rather than in the next DW.
        var followUpImmediately = true
        /// How many times a follow-up is sent (once per DW) until acknowledged, each waiting how long for
        /// its TX status.
        var followUp = TransmitPolicy.followUp
        /// Signal at or above which a peer counts as close (nl80211's default RSSI_CLOSE).
        var closeRangeSignal = -60
        /// Largest service discovery frame body we build before splitting announcements.
        var frameBudget = 1200
        /// Session events buffered per consumer.
        var eventBuffer = 256
        /// Most peers the peer table keeps (it is fed by frames from the air).
        var peerLimit = 512
        /// Peer instances each local function remembers having reported (for de-duplication and loss).
        var reportedLimit = 256
        /// DW periods of silence after which a peer, or a reported peer instance of a function that does
        /// not report losses, is forgotten.
        var forgetAfterPeriods = 128
        /// DW periods before the current one whose unsolicited publishes are kept for subscribes that ask
        /// what was heard before they started (``SubscribeConfiguration/reportHeardSince``): 1 in a program,
        /// about 10 s' worth in the daemon (instant discovery).
        var recentPublishPeriods = 1
        /// Most publishes kept for them (the oldest go first).
        var recentPublishLimit = 64
        /// Receives one line per DW, frame sent or received, at `trace` level, for timing diagnostics.
        var logger: Logger = .disabled
    }

    /// Service specific info / follow-up payload limit of a Service Descriptor attribute.
    static let maximumServiceInfo = 255

    enum Role {
        case publish(PublishConfiguration)
        case subscribe(SubscribeConfiguration)
        var serviceID: ServiceID {
            switch self {
            case .publish(let c): c.serviceID
            case .subscribe(let c): c.serviceID
            }
        }
        /// `publish` or `subscribe`, for the trace.
        var kind: String {
            switch self {
            case .publish: "publish"
            case .subscribe: "subscribe"
            }
        }
    }

    struct PeerKey: Hashable {
        var peer: MACAddress
        var instance: InstanceID
    }

    /// What a function reported about one peer instance: the service info (a change is reported again)
    /// and the DW period it was last heard in.
    struct Reported {
        var info: [UInt8]
        var lastPeriod: Int
    }

    struct LocalFunction {
        var role: Role
        var continuation: AsyncStream<DiscoveryEvent>.Continuation
        var windowsLeft: Int?
        var windowsSinceAnnouncement = Int.max / 2
        var answered = false
        var reported: [PeerKey: Reported] = [:]
        var expiry: Task<Void, Never>?
        var offloadCookie: UInt64?

        /// DW periods of silence after which a reported peer instance is reported lost; nil: never.
        var lostAfterPeriods: Int? {
            switch role {
            case .publish(let c): c.lostAfterPeriods
            case .subscribe(let c): c.lostAfterPeriods
            }
        }
    }

    nonisolated let radio: any DiscoveryRadio
    nonisolated let codec: any DiscoveryFrameCodec
    nonisolated let options: Options
    nonisolated let localAddress: MACAddress
    let clock = ContinuousClock()

    var cluster: MACAddress? { didSet { refreshResponder() } }
    var windowsSinceJoin = 0
    var instanceIDs = InstanceAllocator()
    var functions: [InstanceID: LocalFunction] = [:]
    var peers: PeerTable
    var window = 0
    /// DW periods seen (a period starts with its 2.4 GHz DW); the clock of peer ages.
    var period = 0
    var windowFrequency: Int?
    /// Tasks waiting for the next DW (`nextWindow()`), by a number so a cancelled one can be removed.
    var windowWaiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    var nextWindowWaiter: UInt64 = 0
    var clusterWaiters: [CheckedContinuation<Bool, Never>] = []
    var stopped = false
    /// Our NIRA, put in every publish and subscribe frame; nil when we have no NIK to announce.
    var identityResolution: IdentityResolutionAttribute? { didSet { refreshResponder() } }
    /// Device Capability, NAN Availability and Device Capability Extension, put in every frame we send; nil
    /// when the radio carries no data path (offloaded discovery, or no NAN data interface).
    var deviceAttributes: DeviceAttributes? { didSet { refreshResponder() } }
    /// Paired peers whose NM-TK is installed: unicast SDFs to them go out protected (category 9), oldest
    /// first, at most ``maximumProtectedPeers``.
    var protectedPeers: [MACAddress] = [] { didSet { refreshResponder() } }
    static let maximumProtectedPeers = 256
    var statistics = EngineStatistics()
    /// Publishes heard in this DW period and the one before, for subscribes that report what was heard
    /// since they were asked for (``SubscribeConfiguration/reportHeardSince``).
    var recentPublishes = RecentPublishes()
    /// Answers active subscribes on the radio's reader thread, from a snapshot of our solicited publishes kept
    /// current by ``refreshResponder()``; nil when replies wait for a DW or the driver runs discovery.
    nonisolated let responder: SolicitedResponder?

    init(radio: any DiscoveryRadio, codec: any DiscoveryFrameCodec, options: Options = Options()) {
        self.radio = radio
        self.codec = codec
        self.options = options
        self.recentPublishes = RecentPublishes(limit: options.recentPublishLimit, periods: options.recentPublishPeriods)
        self.localAddress = radio.localAddress
        self.responder =
            options.replyImmediately && radio.discoveryMode == .userSpace
            ? SolicitedResponder(
                codec: codec, localAddress: radio.localAddress, closeRangeSignal: options.closeRangeSignal,
                logger: options.logger)
            : nil
        self.peers = PeerTable(limit: options.peerLimit, maximumAge: options.forgetAfterPeriods)
    }

    // MARK: Running

    /// Consumes the radio's events until they end or the task is cancelled.
    func run() async {
        if let responder { radio.answerSubscribes(with: responder) }
        await consume(radio)
        shutDown(reason: .failure)
    }

    func consume<Radio: DiscoveryRadio>(_ radio: Radio) async {
        do {
            for try await event in radio.events {
                await handle(event)
                if Task.isCancelled { break }
            }
        } catch {
            // The event stream failed (the session closed): the caller shuts down.
        }
    }

    /// Handles one radio event.
    func handle(_ event: RadioEvent) async {
        switch event {
        case .clusterJoined(let id):
            cluster = id
            windowsSinceJoin = 0
            wakeClusterWaiters()
        case .discoveryWindow(let frequency):
            await discoveryWindow(frequency: frequency)
        case .frameReceived(let bytes, let frequency, let signal):
            await frameReceived(bytes, frequency: frequency, signal: signal)
        case .functionMatched(let match):
            functionMatched(match)
        case .functionTerminated(let cookie, let reason):
            if let id = functions.first(where: { $0.value.offloadCookie == cookie })?.key {
                finish(id, reason: reason)
            }
        case .interfaceRemoved:
            shutDown(reason: .deviceRemoved)
        case .eventsLost(let dropped):
            await eventsLost(dropped: dropped)
        }
    }

    /// Ends every session (with `reason`) and wakes every waiter; later calls fail with `engineStopped`.
    func shutDown(reason: TerminationReason) {
        guard !stopped else { return }
        stopped = true
        for id in functions.keys { finish(id, reason: reason) }
        for waiter in windowWaiters.values { waiter.resume(returning: false) }
        windowWaiters.removeAll()
        for waiter in clusterWaiters { waiter.resume(returning: false) }
        clusterWaiters.removeAll()
    }

    /// Waits until the radio has joined a cluster and, on the user-space path, until the first DW
    /// notification after the join (measured on hwsim: the first DW after a join may be lost to the TSF
    /// adjustment, so services started before it can wait a whole extra DW). False if `timeout` passes
    /// first or the engine stops.
    func waitForCluster(timeout: Duration) async -> Bool {
        if isSynchronized { return true }
        if stopped { return false }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.clusterWaitTimedOut()
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { clusterWaiters.append($0) }
    }

    func clusterWaitTimedOut() {
        for waiter in clusterWaiters { waiter.resume(returning: isSynchronized) }
        clusterWaiters.removeAll()
    }

    /// Joined a cluster, and (user-space path) heard a DW notification since.
    /// Sets (or clears) the NIRA our publish and subscribe frames carry.
    func setIdentityResolution(_ nira: IdentityResolutionAttribute?) {
        identityResolution = nira
        // A device with a NIK to announce takes part in pairing: say so in the Device Capability Extension.
        deviceAttributes?.pairing = nira != nil
    }

    /// Sets what our frames say about this device (nil: nothing).
    func setDeviceAttributes(_ attributes: DeviceAttributes?) {
        var attributes = attributes
        attributes?.pairing = identityResolution != nil
        deviceAttributes = attributes
    }

    /// Told when a peer's discovery frames announce a schedule other than the one they announced before
    /// (the data path follows the schedules of peers it has data paths with); nil: nobody.
    var availabilityObserver: (@Sendable (MACAddress, [NANAvailabilityAttribute]) async -> Void)?

    /// Sets who is told of peers' new schedules.
    func setAvailabilityObserver(_ observer: @escaping @Sendable (MACAddress, [NANAvailabilityAttribute]) async -> Void)
    {
        availabilityObserver = observer
    }

    /// Told of each peer the peer table forgets (not heard for its maximum age, or pushed out when full):
    /// the data path removes the station it added for our SDFs to it; nil: nobody.
    var forgottenPeerObserver: (@Sendable (MACAddress) async -> Void)?

    /// Sets who is told of forgotten peers.
    func setForgottenPeerObserver(_ observer: @escaping @Sendable (MACAddress) async -> Void) {
        forgottenPeerObserver = observer
    }

    /// Adds a peer's NMI station with the schedule it announced before we send it a unicast SDF (a plain
    /// follow-up, or a reply to its active subscribe), so the frame leaves in our next common slot instead of
    /// the next DW; true when the peer has such a station (docs/design/outside-dw.md). Nil: every unicast SDF
    /// waits for a DW, and active subscribes are answered on the reader's thread.
    var stationPreparer: (@Sendable (MACAddress, [NANAvailabilityAttribute], UInt16?) async -> Bool)? {
        didSet { refreshResponder() }
    }

    /// Sets who adds peers' stations before our unicast SDFs.
    func setStationPreparer(
        _ preparer: @escaping @Sendable (MACAddress, [NANAvailabilityAttribute], UInt16?) async -> Bool
    ) {
        stationPreparer = preparer
    }

    /// Per publish accepting secure data paths only, the cipher suites it takes (announced in its SDFs).
    var publishCipherSuites: [InstanceID: [NANCipherSuite]] = [:] { didSet { refreshResponder() } }

    /// Announces that data paths to publish `id` must use `suites` (empty: open ones again).
    func setDataPathCipherSuites(_ suites: [NANCipherSuite], for id: InstanceID) {
        guard functions[id] != nil || suites.isEmpty else { return }
        publishCipherSuites[id] = suites.isEmpty ? nil : suites
    }

    /// What `peer`'s discovery frames last announced of its schedule, with the committed DW info of their
    /// Device Capability (nil without one).
    func announcedSchedule(of peer: MACAddress) -> (availability: [NANAvailabilityAttribute], committedDW: UInt16?) {
        (peers.availability(of: peer), peers.committedDW(of: peer))
    }

    /// Our data-path schedule as installed in the kernel: its committed entries join the NAN Availability
    /// our frames carry.
    func setCommittedSchedule(_ schedule: DataPathSchedule) { deviceAttributes?.committed = schedule }

    /// Starts (or stops) sending unicast SDFs to `peer` as protected SDFs.
    func setProtected(_ peer: MACAddress, _ protects: Bool) {
        protectedPeers.removeAll { $0 == peer }
        guard protects, !peer.isMulticast else { return }
        protectedPeers.append(peer)
        if protectedPeers.count > Self.maximumProtectedPeers { protectedPeers.removeFirst() }
    }

    var isSynchronized: Bool {
        cluster != nil && (radio.discoveryMode == .offloaded || windowsSinceJoin > 0)
    }

    func wakeClusterWaiters() {
        guard isSynchronized else { return }
        for waiter in clusterWaiters { waiter.resume(returning: true) }
        clusterWaiters.removeAll()
    }

    // MARK: Starting and stopping services

    /// Starts a publish; its events arrive on the returned stream.
    func publish(_ configuration: PublishConfiguration) async throws -> (InstanceID, AsyncStream<DiscoveryEvent>) {
        guard !configuration.type.isEmpty else { throw DiscoveryError.noPublishType }
        try checkServiceInfo(configuration.serviceInfo)
        return try await start(.publish(configuration), timeToLive: configuration.timeToLive)
    }

    /// Starts a subscribe; its events arrive on the returned stream.
    func subscribe(_ configuration: SubscribeConfiguration) async throws -> (InstanceID, AsyncStream<DiscoveryEvent>) {
        try checkServiceInfo(configuration.serviceInfo)
        try checkFitsInFrame(configuration)
        return try await start(.subscribe(configuration), timeToLive: configuration.timeToLive)
    }

    /// Stops a publish or subscribe; its stream ends with `.terminated(.userRequest)`.
    func stop(_ id: InstanceID) async {
        guard let function = functions[id] else { return }
        if let cookie = function.offloadCookie {
            try? await radio.removeFunction(cookie: cookie)
        }
        finish(id, reason: .userRequest)
    }

    func start(_ role: Role, timeToLive: TimeToLive) async throws -> (InstanceID, AsyncStream<DiscoveryEvent>) {
        guard !stopped else { throw DiscoveryError.engineStopped }
        let (stream, continuation) = AsyncStream.makeStream(
            of: DiscoveryEvent.self, bufferingPolicy: .bufferingNewest(options.eventBuffer))
        var function = LocalFunction(role: role, continuation: continuation, windowsLeft: timeToLive.discoveryWindows)
        let id: InstanceID
        switch radio.discoveryMode {
        case .userSpace:
            guard let free = instanceIDs.allocate() else { throw DiscoveryError.tooManyServices }
            id = free
        case .offloaded:
            let handle = try await radio.addFunction(offloaded(role, timeToLive: timeToLive))
            id = handle.instanceID
            instanceIDs.reserve(id)
            function.offloadCookie = handle.cookie
            function.windowsLeft = nil  // the driver counts DWs and reports the end
        }
        if let duration = timeToLive.duration {
            function.expiry = Task { [weak self] in
                try? await Task.sleep(for: duration)
                guard !Task.isCancelled else { return }
                await self?.expire(id)
            }
        }
        functions[id] = function
        refreshResponder()
        if options.logger.isEnabled(.trace) { options.logger.trace("start \(role.kind)#\(id.rawValue)") }
        await announceNow(id)
        if case .subscribe(let c) = role, let since = c.reportHeardSince {
            for heard in recentPublishes.since(since) {
                publishHeard(heard.item, from: heard.peer, close: heard.close, only: id)
            }
        }
        return (id, stream)
    }

    /// Sends a new service's first announcement at once: the kernel queues it for the next DW, which saves
    /// waiting for the next DW notification (the notification comes just after a DW ends).
    func announceNow(_ id: InstanceID) async {
        guard radio.discoveryMode == .userSpace, cluster != nil, let function = functions[id] else { return }
        var frame = OutgoingDiscoveryFrame(destination: .broadcast, announcements: [])
        switch function.role {
        case .publish(let c) where c.type.contains(.unsolicited):
            frame.announcements = [announcement(for: c, id: id, requestor: InstanceID(rawValue: 0))]
            functions[id]?.windowsSinceAnnouncement = 0
        case .subscribe(let c) where c.active:
            frame.announcements = [subscribeAnnouncement(for: c, id: id)]
        default:
            return
        }
        _ = await transmit(frame, frequency: nil)
    }

    func expire(_ id: InstanceID) async {
        guard let function = functions[id] else { return }
        if let cookie = function.offloadCookie { try? await radio.removeFunction(cookie: cookie) }
        finish(id, reason: .timeToLiveExpired)
    }

    func finish(_ id: InstanceID, reason: TerminationReason) {
        guard let function = functions.removeValue(forKey: id) else { return }
        publishCipherSuites[id] = nil
        refreshResponder()
        function.expiry?.cancel()
        function.continuation.yield(.terminated(reason))
        function.continuation.finish()
        instanceIDs.release(id)
    }

    /// A service response filter's body (control byte + addresses or Bloom bits) follows a one-byte length
    /// in the Service Descriptor attribute: at most 255 bytes, so at most 42 addresses.
    static let maximumResponseFilterBody = 255

    /// A subscribe whose announcement cannot be sent (a service response filter longer than its length
    /// byte allows, or a frame over the budget) would send nothing, silently, in every DW, and take the
    /// other announcements of its frame down with it: refuse it now.
    func checkFitsInFrame(_ c: SubscribeConfiguration) throws {
        let filterBody = max(0, srfSize(c.responseFilter) - 1)
        if filterBody > Self.maximumResponseFilterBody {
            switch c.responseFilter?.addressSet {
            case .addresses(let list)?:
                throw DiscoveryError.responseFilterTooLong(list.count, limit: (Self.maximumResponseFilterBody - 1) / 6)
            default:
                throw DiscoveryError.tooLong(filterBody, limit: Self.maximumResponseFilterBody)
            }
        }
        let cost = announcementCost(subscribeAnnouncement(for: c, id: InstanceID(rawValue: 1)))
        if cost > options.frameBudget { throw DiscoveryError.tooLong(cost, limit: options.frameBudget) }
    }

    func checkServiceInfo(_ info: [UInt8]) throws {
        if info.count > Self.maximumServiceInfo {
            throw DiscoveryError.tooLong(info.count, limit: Self.maximumServiceInfo)
        }
    }

    /// Hands the responder what our replies are built from now: called whenever a solicited publish starts or
    /// ends, or anything our frames carry changes.
    func refreshResponder() {
        guard let responder else { return }
        var snapshot = SolicitedResponder.Snapshot(cluster: cluster, protectedPeers: Set(protectedPeers))
        // With a schedule of ours to set peer stations against (the device schedule, announced committed).
        snapshot.leavesAnnouncedSchedulesToEngine = stationPreparer != nil && deviceAttributes?.committed != nil
        // What `transmit` adds to a reply (never protected: the responder leaves protected peers to us).
        var frame = OutgoingDiscoveryFrame(destination: .broadcast, announcements: [])
        frame.identityResolution = identityResolution
        frame.deviceAttributes = deviceAttributes?.attributes ?? []
        for (id, function) in functions {
            guard case .publish(let c) = function.role, c.type.contains(.solicited),
                let reply = ReplyTemplate(
                    announcement(for: c, id: id, requestor: InstanceID(rawValue: 0)), in: frame, codec: codec,
                    source: localAddress, cluster: cluster ?? .broadcast)
            else { continue }
            snapshot.publishes.append(.init(local: id, configuration: c, reply: reply))
        }
        responder.update(snapshot)
    }

    // MARK: Queries

    /// Every peer heard, with radio facts.
    func knownPeers() -> [Peer] { peers.all }

    /// How many peer instances the function `id` remembers having reported (tests check the bound).
    func reportedCount(_ id: InstanceID) -> Int { functions[id]?.reported.count ?? 0 }

    /// The local instance IDs in use.
    var activeInstances: [InstanceID] { functions.keys.sorted() }
}

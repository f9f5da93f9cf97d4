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
        /// How many times a follow-up is sent (once per DW) until acknowledged.
        var followUpAttempts = 3
        /// How long to wait for a TX status before counting a frame as not acknowledged.
        var transmitStatusTimeout: Duration = .seconds(2)
        /// Signal at or above which a peer counts as close (nl80211's default RSSI_CLOSE).
        var closeRangeSignal = -60
        /// Largest service discovery frame body we build before splitting announcements.
        var frameBudget = 1200
        /// Session events buffered per consumer.
        var eventBuffer = 256
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
    }

    struct PeerKey: Hashable {
        var peer: MACAddress
        var instance: InstanceID
    }

    struct LocalFunction {
        var role: Role
        var continuation: AsyncStream<DiscoveryEvent>.Continuation
        var windowsLeft: Int?
        var windowsSinceAnnouncement = Int.max / 2
        var answered = false
        var reported: [PeerKey: [UInt8]] = [:]
        var expiry: Task<Void, Never>?
        var offloadCookie: UInt64?
    }

    nonisolated let radio: any DiscoveryRadio
    nonisolated let codec: any DiscoveryFrameCodec
    nonisolated let options: Options
    nonisolated let localAddress: MACAddress
    let clock = ContinuousClock()

    var cluster: MACAddress?
    var windowsSinceJoin = 0
    var instanceIDs = InstanceAllocator()
    var functions: [InstanceID: LocalFunction] = [:]
    var peers = PeerTable()
    var window = 0
    var windowFrequency: Int?
    var windowWaiters: [CheckedContinuation<Bool, Never>] = []
    var clusterWaiters: [CheckedContinuation<Bool, Never>] = []
    var statusWaiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    var earlyStatuses: [UInt64: Bool] = [:]
    var stopped = false
    var statistics = EngineStatistics()

    init(radio: any DiscoveryRadio, codec: any DiscoveryFrameCodec, options: Options = Options()) {
        self.radio = radio
        self.codec = codec
        self.options = options
        self.localAddress = radio.localAddress
    }

    // MARK: Running

    /// Consumes the radio's events until they end or the task is cancelled.
    func run() async {
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
        case .transmitStatus(let cookie, let acknowledged):
            transmitStatus(cookie: cookie, acknowledged: acknowledged)
        case .functionMatched(let match):
            functionMatched(match)
        case .functionTerminated(let cookie, let reason):
            if let id = functions.first(where: { $0.value.offloadCookie == cookie })?.key {
                finish(id, reason: reason)
            }
        case .interfaceRemoved:
            shutDown(reason: .failure)
        }
    }

    /// Ends every session (with `reason`) and wakes every waiter; later calls fail with `engineStopped`.
    func shutDown(reason: TerminationReason) {
        guard !stopped else { return }
        stopped = true
        for id in functions.keys { finish(id, reason: reason) }
        for waiter in windowWaiters { waiter.resume(returning: false) }
        windowWaiters.removeAll()
        for waiter in clusterWaiters { waiter.resume(returning: false) }
        clusterWaiters.removeAll()
        for waiter in statusWaiters.values { waiter.resume(returning: false) }
        statusWaiters.removeAll()
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
        await announceNow(id)
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
        function.expiry?.cancel()
        function.continuation.yield(.terminated(reason))
        function.continuation.finish()
        instanceIDs.release(id)
    }

    func checkServiceInfo(_ info: [UInt8]) throws {
        if info.count > Self.maximumServiceInfo {
            throw DiscoveryError.tooLong(info.count, limit: Self.maximumServiceInfo)
        }
    }

    // MARK: Queries

    /// Every peer heard, with radio facts.
    func knownPeers() -> [Peer] { peers.all }

    /// The local instance IDs in use.
    var activeInstances: [InstanceID] { functions.keys.sorted() }
}

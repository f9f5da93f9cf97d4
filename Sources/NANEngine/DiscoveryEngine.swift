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
        /// Receives one line per DW, frame sent or received, for timing diagnostics.
        var trace: (@Sendable (String) -> Void)? = nil
    }

    /// Service specific info / follow-up payload limit of a Service Descriptor attribute.
    static let maximumServiceInfo = 255

    private enum Role {
        case publish(PublishConfiguration)
        case subscribe(SubscribeConfiguration)
        var serviceID: ServiceID {
            switch self {
            case .publish(let c): c.serviceID
            case .subscribe(let c): c.serviceID
            }
        }
    }

    private struct PeerKey: Hashable {
        var peer: MACAddress
        var instance: InstanceID
    }

    private struct LocalFunction {
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
    private let clock = ContinuousClock()

    private var cluster: MACAddress?
    private var windowsSinceJoin = 0
    private var instanceIDs = InstanceAllocator()
    private var functions: [InstanceID: LocalFunction] = [:]
    private var peers = PeerTable()
    private var window = 0
    private var windowFrequency: Int?
    private var windowWaiters: [CheckedContinuation<Bool, Never>] = []
    private var clusterWaiters: [CheckedContinuation<Bool, Never>] = []
    private var statusWaiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
    private var earlyStatuses: [UInt64: Bool] = [:]
    private var stopped = false
    private(set) var statistics = EngineStatistics()

    init(radio: any DiscoveryRadio, codec: any DiscoveryFrameCodec, options: Options = Options()) {
        self.radio = radio
        self.codec = codec
        self.options = options
        self.localAddress = radio.localAddress
    }

    // MARK: Running

    /// Consumes the radio's events until they end or the task is cancelled.
    func run() async {
        for await event in radio.events {
            await handle(event)
            if Task.isCancelled { break }
        }
        shutDown(reason: .failure)
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

    private func clusterWaitTimedOut() {
        for waiter in clusterWaiters { waiter.resume(returning: isSynchronized) }
        clusterWaiters.removeAll()
    }

    /// Joined a cluster, and (user-space path) heard a DW notification since.
    private var isSynchronized: Bool {
        cluster != nil && (radio.discoveryMode == .offloaded || windowsSinceJoin > 0)
    }

    private func wakeClusterWaiters() {
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

    private func start(_ role: Role, timeToLive: TimeToLive) async throws -> (InstanceID, AsyncStream<DiscoveryEvent>) {
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
    private func announceNow(_ id: InstanceID) async {
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

    private func expire(_ id: InstanceID) async {
        guard let function = functions[id] else { return }
        if let cookie = function.offloadCookie { try? await radio.removeFunction(cookie: cookie) }
        finish(id, reason: .timeToLiveExpired)
    }

    private func finish(_ id: InstanceID, reason: TerminationReason) {
        guard let function = functions.removeValue(forKey: id) else { return }
        function.expiry?.cancel()
        function.continuation.yield(.terminated(reason))
        function.continuation.finish()
        instanceIDs.release(id)
    }

    private func checkServiceInfo(_ info: [UInt8]) throws {
        if info.count > Self.maximumServiceInfo {
            throw DiscoveryError.tooLong(info.count, limit: Self.maximumServiceInfo)
        }
    }

    // MARK: Queries

    /// Every peer heard, with radio facts.
    func knownPeers() -> [Peer] { peers.all }

    /// The local instance IDs in use.
    var activeInstances: [InstanceID] { functions.keys.sorted() }

    // MARK: Discovery windows

    private func discoveryWindow(frequency: Int) async {
        options.trace?("dw \(window + 1) \(frequency) MHz")
        window += 1
        windowFrequency = frequency
        if cluster != nil {
            windowsSinceJoin += 1
            wakeClusterWaiters()
        }
        statistics.discoveryWindows += 1
        var announcements: [ServiceAnnouncement] = []
        var expired: [InstanceID] = []
        for id in functions.keys.sorted() {
            guard var function = functions[id] else { continue }
            // A service started between two notifications is live in the DW that follows; the notification
            // after its n-th DW ends a TTL of n DWs.
            if let left = function.windowsLeft {
                if left <= 1 { expired.append(id); continue }
                function.windowsLeft = left - 1
            }
            switch function.role {
            case .publish(let c) where c.type.contains(.unsolicited):
                function.windowsSinceAnnouncement += 1
                if function.windowsSinceAnnouncement >= max(1, c.announcementPeriod) {
                    function.windowsSinceAnnouncement = 0
                    announcements.append(announcement(for: c, id: id, requestor: InstanceID(rawValue: 0)))
                }
            case .subscribe(let c) where c.active && !function.answered:
                announcements.append(subscribeAnnouncement(for: c, id: id))
            default:
                break
            }
            functions[id] = function
        }
        for id in expired { finish(id, reason: .timeToLiveExpired) }
        let waiters = windowWaiters
        windowWaiters.removeAll()
        for waiter in waiters { waiter.resume(returning: true) }
        guard radio.discoveryMode == .userSpace, !announcements.isEmpty else { return }
        for batch in batches(announcements) {
            _ = await transmit(batch, frequency: frequency)
        }
    }

    /// Splits announcements into frames that fit the frame budget.
    private func batches(_ announcements: [ServiceAnnouncement]) -> [OutgoingDiscoveryFrame] {
        var frames: [OutgoingDiscoveryFrame] = []
        var current = OutgoingDiscoveryFrame(destination: .broadcast, announcements: [])
        var size = 0
        for item in announcements {
            let cost = 40 + item.serviceInfo.count + (item.matchFilter?.bytes.count ?? 0) + srfSize(item.responseFilter)
            if size + cost > options.frameBudget && !current.announcements.isEmpty {
                frames.append(current)
                current = OutgoingDiscoveryFrame(destination: .broadcast, announcements: [])
                size = 0
            }
            current.announcements.append(item)
            size += cost
        }
        if !current.announcements.isEmpty { frames.append(current) }
        return frames
    }

    private func announcement(for c: PublishConfiguration, id: InstanceID, requestor: InstanceID) -> ServiceAnnouncement {
        ServiceAnnouncement(
            kind: .publish, serviceID: c.serviceID, instanceID: id, requestorInstanceID: requestor,
            matchFilter: c.transmitFilter, serviceInfo: c.serviceInfo, rangeLimited: c.closeRangeOnly,
            offersDataPath: c.offersDataPath)
    }

    private func subscribeAnnouncement(for c: SubscribeConfiguration, id: InstanceID) -> ServiceAnnouncement {
        ServiceAnnouncement(
            kind: .subscribe, serviceID: c.serviceID, instanceID: id, matchFilter: c.transmitFilter,
            responseFilter: c.responseFilter, serviceInfo: c.serviceInfo, rangeLimited: c.closeRangeOnly)
    }

    private func srfSize(_ filter: ServiceResponseFilter?) -> Int {
        switch filter?.addressSet {
        case nil: 0
        case .addresses(let list): 2 + 6 * list.count
        case .bloomFilter(let bloom): 2 + bloom.bits.count
        }
    }

    /// Waits for the next discovery window; false if the engine stopped first.
    private func nextWindow() async -> Bool {
        if stopped { return false }
        return await withCheckedContinuation { windowWaiters.append($0) }
    }

    // MARK: Sending

    /// Encodes and sends a frame; returns its cookie, or nil if it could not be sent.
    private func transmit(_ frame: OutgoingDiscoveryFrame, frequency: Int?) async -> UInt64? {
        do {
            let bytes = try codec.encode(frame, source: localAddress, cluster: cluster ?? .broadcast)
            let cookie = try await radio.transmit(bytes, frequency: frequency)
            statistics.framesSent += 1
            if let trace = options.trace {
                let kinds = frame.announcements.map { "\($0.kind)#\($0.instanceID.rawValue)" }.joined(separator: ",")
                trace("tx to \(frame.destination) [\(kinds)] cookie \(cookie)")
            }
            return cookie
        } catch {
            statistics.sendFailures += 1
            return nil
        }
    }

    private func transmitStatus(cookie: UInt64, acknowledged: Bool) {
        options.trace?("tx status cookie \(cookie) \(acknowledged ? "acked" : "not acked")")
        if acknowledged { statistics.framesAcknowledged += 1 } else { statistics.framesNotAcknowledged += 1 }
        if let waiter = statusWaiters.removeValue(forKey: cookie) {
            waiter.resume(returning: acknowledged)
        } else {
            if earlyStatuses.count > 256 { earlyStatuses.removeAll() }
            earlyStatuses[cookie] = acknowledged
        }
    }

    /// Waits for the TX status of `cookie`; false if none comes in time.
    private func acknowledged(_ cookie: UInt64) async -> Bool {
        if let early = earlyStatuses.removeValue(forKey: cookie) { return early }
        if stopped { return false }
        let timeout = options.transmitStatusTimeout
        return await withCheckedContinuation { continuation in
            statusWaiters[cookie] = continuation
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.statusTimedOut(cookie)
            }
        }
    }

    private func statusTimedOut(_ cookie: UInt64) {
        statusWaiters.removeValue(forKey: cookie)?.resume(returning: false)
    }

    /// Sends a follow-up from our instance `local` to a peer's instance; reports whether it was acknowledged.
    func send(_ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID) async throws -> DeliveryStatus {
        if payload.count > Self.maximumServiceInfo {
            throw DiscoveryError.tooLong(payload.count, limit: Self.maximumServiceInfo)
        }
        guard !stopped else { throw DiscoveryError.engineStopped }
        guard let function = functions[local] else { throw DiscoveryError.sessionEnded }
        if radio.discoveryMode == .offloaded {
            var followUp = OffloadedFunction(kind: .followUp, serviceID: function.role.serviceID)
            followUp.followUpID = peerInstanceID
            followUp.followUpRequestorID = local
            followUp.followUpDestination = peer
            followUp.serviceInfo = payload
            _ = try await radio.addFunction(followUp)
            return .handedToDriver
        }
        let frame = OutgoingDiscoveryFrame(
            destination: peer,
            announcements: [
                ServiceAnnouncement(
                    kind: .followUp, serviceID: function.role.serviceID, instanceID: local,
                    requestorInstanceID: peerInstanceID, serviceInfo: payload)
            ])
        for attempt in 0..<max(1, options.followUpAttempts) {
            if attempt > 0 || !options.followUpImmediately {
                guard await nextWindow() else { break }
            }
            guard let cookie = await transmit(frame, frequency: nil) else { continue }
            if await acknowledged(cookie) { return .acknowledged }
        }
        return .notAcknowledged
    }

    // MARK: Receiving

    private func frameReceived(_ bytes: [UInt8], frequency: Int?, signal: Int?) async {
        statistics.framesReceived += 1
        let frame: IncomingDiscoveryFrame
        do {
            frame = try codec.decode(bytes)
        } catch {
            statistics.framesUndecodable += 1
            return
        }
        guard frame.source != localAddress else { return }
        if let trace = options.trace {
            let kinds = frame.announcements.map { "\($0.kind)#\($0.instanceID.rawValue)>\($0.requestorInstanceID.rawValue)" }
            trace("rx from \(frame.source) [\(kinds.joined(separator: ","))] \(signal ?? 0) dBm")
        }
        peers.heard(frame.source, frequency: frequency, signal: signal, window: window, at: clock.now)
        let close = (signal ?? Int.min) >= options.closeRangeSignal
        for item in frame.announcements {
            switch item.kind {
            case .publish: publishHeard(item, from: frame.source, close: close)
            case .subscribe: await subscribeHeard(item, from: frame.source, close: close)
            case .followUp: followUpHeard(item, from: frame.source)
            }
        }
    }

    private func result(_ item: ServiceAnnouncement, from peer: MACAddress, local: InstanceID) -> DiscoveryResult {
        DiscoveryResult(
            peer: peer, peerInstanceID: item.instanceID, localInstanceID: local, serviceInfo: item.serviceInfo,
            offersDataPath: item.offersDataPath,
            radio: peers.facts(for: peer) ?? PeerRadioFacts(discoveryWindowsHeard: 0, lastHeard: clock.now))
    }

    /// Reports `event` unless the same peer instance was already reported with the same service info.
    private func report(_ id: InstanceID, key: PeerKey, info: [UInt8], _ event: DiscoveryEvent) {
        guard var function = functions[id] else { return }
        if function.reported[key] == info { return }
        function.reported[key] = info
        functions[id] = function
        deliver(event, to: function)
    }

    private func deliver(_ event: DiscoveryEvent, to function: LocalFunction) {
        if case .dropped = function.continuation.yield(event) { statistics.eventsDropped += 1 }
    }

    /// A peer publishes: tell every matching subscribe.
    private func publishHeard(_ item: ServiceAnnouncement, from peer: MACAddress, close: Bool) {
        for (id, function) in functions {
            guard case .subscribe(let c) = function.role, c.serviceID == item.serviceID else { continue }
            if item.requestorInstanceID.rawValue != 0 && item.requestorInstanceID != id { continue }
            guard MatchingFilter.matches(subscriber: c.receiveFilter, publisher: item.matchFilter) else { continue }
            if let srf = c.responseFilter, !srf.shouldRespond(peer) { continue }
            if (c.closeRangeOnly || item.rangeLimited) && !close { continue }
            functions[id]?.answered = true
            report(
                id, key: PeerKey(peer: peer, instance: item.instanceID), info: item.serviceInfo,
                .discovered(result(item, from: peer, local: id)))
        }
    }

    /// A peer actively subscribes: answer with every matching solicited publish.
    private func subscribeHeard(_ item: ServiceAnnouncement, from peer: MACAddress, close: Bool) async {
        var replies: [(InstanceID, ServiceAnnouncement, Bool)] = []
        for (id, function) in functions {
            guard case .publish(let c) = function.role, c.serviceID == item.serviceID, c.type.contains(.solicited)
            else { continue }
            guard MatchingFilter.matches(subscriber: item.matchFilter, publisher: c.receiveFilter) else { continue }
            if let srf = item.responseFilter, !srf.shouldRespond(localAddress) { continue }
            if (c.closeRangeOnly || item.rangeLimited) && !close { continue }
            replies.append((id, announcement(for: c, id: id, requestor: item.instanceID), c.broadcastReplies))
            report(
                id, key: PeerKey(peer: peer, instance: item.instanceID), info: item.serviceInfo,
                .replied(result(item, from: peer, local: id)))
        }
        guard !replies.isEmpty else { return }
        if !options.replyImmediately {
            guard await nextWindow() else { return }
        }
        for (_, reply, broadcast) in replies {
            let frame = OutgoingDiscoveryFrame(destination: broadcast ? .broadcast : peer, announcements: [reply])
            _ = await transmit(frame, frequency: options.replyImmediately ? nil : windowFrequency)
        }
    }

    /// A peer sent a follow-up to one of our instances.
    private func followUpHeard(_ item: ServiceAnnouncement, from peer: MACAddress) {
        guard let function = functions[item.requestorInstanceID], function.role.serviceID == item.serviceID else {
            statistics.unmatchedFollowUps += 1
            return
        }
        let message = ReceivedMessage(
            peer: peer, peerInstanceID: item.instanceID, localInstanceID: item.requestorInstanceID,
            payload: item.serviceInfo,
            radio: peers.facts(for: peer) ?? PeerRadioFacts(discoveryWindowsHeard: 0, lastHeard: clock.now))
        deliver(.messageReceived(message), to: function)
    }

    // MARK: Offloaded path

    private func offloaded(_ role: Role, timeToLive: TimeToLive) -> OffloadedFunction {
        var windows: UInt32?
        if let count = timeToLive.discoveryWindows { windows = UInt32(clamping: count) }
        if let duration = timeToLive.duration {
            let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
            let period = Int64(NANTiming.discoveryWindowPeriodMicroseconds)
            let fromTime = UInt32(clamping: (micros + period - 1) / period)
            windows = min(windows ?? fromTime, fromTime)
        }
        switch role {
        case .publish(let c):
            var f = OffloadedFunction(kind: .publish, serviceID: c.serviceID)
            f.publishType = c.type
            f.broadcastReplies = c.broadcastReplies
            f.closeRange = c.closeRangeOnly
            f.ttlDiscoveryWindows = windows
            f.serviceInfo = c.serviceInfo
            f.receiveFilter = c.receiveFilter
            f.transmitFilter = c.transmitFilter
            return f
        case .subscribe(let c):
            var f = OffloadedFunction(kind: .subscribe, serviceID: c.serviceID)
            f.activeSubscribe = c.active
            f.closeRange = c.closeRangeOnly
            f.ttlDiscoveryWindows = windows
            f.serviceInfo = c.serviceInfo
            f.responseFilter = c.responseFilter
            f.receiveFilter = c.receiveFilter
            f.transmitFilter = c.transmitFilter
            return f
        }
    }

    private func functionMatched(_ match: OffloadedMatch) {
        guard let id = functions.first(where: { $0.value.offloadCookie == match.cookie })?.key,
            let function = functions[id]
        else { return }
        let facts = peers.facts(for: match.peer) ?? PeerRadioFacts(discoveryWindowsHeard: 0, lastHeard: clock.now)
        let result = DiscoveryResult(
            peer: match.peer, peerInstanceID: match.peerInstanceID, localInstanceID: id,
            serviceInfo: match.serviceInfo, offersDataPath: false, radio: facts)
        let key = PeerKey(peer: match.peer, instance: match.peerInstanceID)
        switch (match.peerKind, function.role) {
        case (.publish, .subscribe):
            report(id, key: key, info: match.serviceInfo, .discovered(result))
        case (.subscribe, .publish):
            report(id, key: key, info: match.serviceInfo, .replied(result))
        case (.followUp, _):
            deliver(
                .messageReceived(
                    ReceivedMessage(
                        peer: match.peer, peerInstanceID: match.peerInstanceID, localInstanceID: id,
                        payload: match.serviceInfo, radio: facts)), to: function)
        default:
            break
        }
    }
}

/// NAN timing constants.
public enum NANTiming {
    /// One discovery window period: 512 TU of 1024 µs.
    public static let discoveryWindowPeriodSeconds = 512.0 * 1024.0 / 1_000_000.0
    /// One discovery window period in microseconds (524 288).
    public static let discoveryWindowPeriodMicroseconds = 512 * 1024
}

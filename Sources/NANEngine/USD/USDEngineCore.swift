import NANWire

/// Wi-Fi Aware unsynchronized service discovery (USD): publish, subscribe and follow-ups as NAN SDFs sent
/// outside any cluster, on one channel (2437 MHz unless told otherwise), with A3 the NAN Network ID
/// 51-6F-9A-01-00-00. Unsolicited publishes and active subscribes go to that (group) address; answers and
/// follow-ups go to the peer. The radio listens on the channel (remain-on-channel, period after period)
/// while any session runs.
///
/// Every table that received frames feed is bounded (``USDOptions``), and a frame that fails a check (not
/// an SDF, not addressed to the NAN Network ID, no session of ours it names) changes no state.
actor USDEngineCore<Radio: USDRadio> {
    struct Service {
        enum Role {
            case publish(PublishConfiguration)
            case subscribe(SubscribeConfiguration)
        }
        var role: Role
        var continuation: AsyncStream<DiscoveryEvent>.Continuation
        var deadline: ContinuousClock.Instant?
        /// Peer instances reported, oldest first, with the service info they were reported with.
        var reported: [PeerInstance: [UInt8]] = [:]
        var reportOrder: [PeerInstance] = []

        var serviceID: ServiceID {
            switch role {
            case .publish(let c): c.serviceID
            case .subscribe(let c): c.serviceID
            }
        }
    }

    struct PeerInstance: Hashable {
        var address: MACAddress
        var instance: InstanceID
    }

    let radio: Radio
    let options: USDOptions
    let clock = ContinuousClock()
    var services: [InstanceID: Service] = [:]
    private var allocator = InstanceAllocator()
    var peers: [MACAddress: PeerRadioFacts] = [:]
    private var statuses: [UInt64: CheckedContinuation<Bool?, Never>] = [:]
    private var earlyStatuses: [UInt64: Bool] = [:]
    /// Listens asked for whose end the kernel has not reported yet (see ``listensAhead``).
    var listensQueued = 0
    /// When a listen was last asked for or reported ended: a count with no change for long is stale.
    private var lastListenChange: ContinuousClock.Instant?
    var stopped = false
    private var ticker: Task<Void, Never>?
    /// Whether the last listen the engine asked for was refused (a notice said so).
    private(set) var listenRefused = false
    /// Changes in whether the radio listens (``USDListenNotice``); one consumer.
    nonisolated let listenNotices: AsyncStream<USDListenNotice>
    private let listenNoticeSink: AsyncStream<USDListenNotice>.Continuation
    /// The most TX statuses kept that arrived before their sender asked.
    static var maximumEarlyStatuses: Int { 64 }
    /// How many listens the engine keeps asked for: with the next one queued in the kernel, the kernel
    /// starts it the moment the current one ends. Asking only when told of the end left the radio deaf for
    /// a round trip through user space, which a loaded host stretched to hundreds of milliseconds: a peer's
    /// follow-up, sent once, was lost in such a gap.
    static var listensAhead: Int { 2 }

    init(radio: Radio, options: USDOptions) {
        self.radio = radio
        self.options = options
        (listenNotices, listenNoticeSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(16))
    }

    nonisolated var localAddress: MACAddress { radio.localAddress }

    // MARK: Sessions

    func start(_ role: Service.Role) throws(DiscoveryError) -> (InstanceID, AsyncStream<DiscoveryEvent>) {
        guard !stopped else { throw .engineStopped }
        let info: [UInt8]
        let ttl: TimeToLive
        switch role {
        case .publish(let c):
            guard !c.type.isEmpty else { throw .noPublishType }
            (info, ttl) = (c.serviceInfo, c.timeToLive)
        case .subscribe(let c): (info, ttl) = (c.serviceInfo, c.timeToLive)
        }
        if info.count > DiscoveryEngine.maximumServiceInfo {
            throw .tooLong(info.count, limit: DiscoveryEngine.maximumServiceInfo)
        }
        guard let id = allocator.allocate() else { throw .tooManyServices }
        let (stream, continuation) = AsyncStream.makeStream(
            of: DiscoveryEvent.self, bufferingPolicy: .bufferingNewest(256))
        // USD has no discovery windows: a limit in DWs counts as that many 512 TU periods.
        let windows = ttl.discoveryWindows.map { Duration.microseconds(Int64($0) * 524_288) }
        let limit = [ttl.duration, windows].compactMap { $0 }.min()
        services[id] = Service(role: role, continuation: continuation, deadline: limit.map { clock.now + $0 })
        // A consumer that stops iterating stops the session (not `finish()`, which `stop` itself calls: by the
        // time such a task ran, the instance ID could belong to a new session).
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { Task { await self?.stop(id) } }
        }
        startTicker()
        return (id, stream)
    }

    func stop(_ id: InstanceID, reason: TerminationReason = .userRequest) {
        guard let service = services.removeValue(forKey: id) else { return }
        allocator.release(id)
        service.continuation.yield(.terminated(reason))
        service.continuation.finish()
    }

    /// Ends every session with `reason` and stops sending.
    func shutdown(_ reason: TerminationReason) {
        stopped = true
        for id in Array(services.keys) { stop(id, reason: reason) }
        ticker?.cancel()
        listenNoticeSink.finish()
        for (_, waiter) in statuses { waiter.resume(returning: nil) }
        statuses = [:]
    }

    var knownPeers: [Peer] {
        peers.map { Peer(address: $0.key, radio: $0.value) }.sorted { $0.radio.lastHeard > $1.radio.lastHeard }
    }

    // MARK: Sending

    /// Sends a follow-up from our session `local` to a peer's instance and reports whether it was acknowledged.
    func send(
        _ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID
    ) async throws(DiscoveryError) -> DeliveryStatus {
        if payload.count > DiscoveryEngine.maximumServiceInfo {
            throw .tooLong(payload.count, limit: DiscoveryEngine.maximumServiceInfo)
        }
        guard !stopped else { throw .engineStopped }
        guard let service = services[local] else { throw .sessionEnded }
        let followUp = ServiceAnnouncement(
            kind: .followUp, serviceID: service.serviceID, instanceID: local, requestorInstanceID: peerInstanceID,
            serviceInfo: payload)
        for attempt in 0..<max(1, options.followUpAttempts) {
            if attempt > 0 { try? await Task.sleep(for: options.followUpRetryGap) }
            guard let cookie = await transmit(followUp, to: peer) else { continue }
            if await acknowledgement(of: cookie) == true { return .acknowledged }
        }
        return .notAcknowledged
    }

    /// Encodes and sends one SDF on the channel; its cookie, or nil when it could not be sent.
    func transmit(_ announcement: ServiceAnnouncement, to destination: MACAddress) async -> UInt64? {
        let frame = OutgoingDiscoveryFrame(destination: destination, announcements: [announcement])
        do {
            let bytes = try WireCodec().encode(frame, source: localAddress, cluster: .nanNetworkID)
            return try await radio.transmit(bytes, frequency: options.frequency, wait: options.transmitWait)
        } catch {
            return nil
        }
    }

    private func acknowledgement(of cookie: UInt64) async -> Bool? {
        if let early = earlyStatuses.removeValue(forKey: cookie) { return early }
        let timeout = options.acknowledgementTimeout
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.settle(cookie, nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { statuses[cookie] = $0 }
    }

    func settle(_ cookie: UInt64, _ acknowledged: Bool?) {
        if let waiter = statuses.removeValue(forKey: cookie) {
            waiter.resume(returning: acknowledged)
        } else if let acknowledged {
            if earlyStatuses.count >= Self.maximumEarlyStatuses, let oldest = earlyStatuses.keys.min() {
                earlyStatuses.removeValue(forKey: oldest)
            }
            earlyStatuses[cookie] = acknowledged
        }
    }

    // MARK: Announcing and listening

    private func startTicker() {
        guard ticker == nil else { return }
        ticker = Task { [weak self, period = options.announcementPeriod] in
            while !Task.isCancelled {
                guard let self, await self.tick() else { return }
                try? await Task.sleep(for: period)
            }
        }
    }

    /// One announcement period: ends expired sessions, keeps the radio listening, sends unsolicited
    /// publishes and active subscribes. False once the engine stopped.
    func tick() async -> Bool {
        guard !stopped else { return false }
        let now = clock.now
        for (id, service) in services where service.deadline.map({ $0 <= now }) ?? false {
            stop(id, reason: .timeToLiveExpired)
        }
        await keepListening(now: now)
        for (id, service) in services {
            switch service.role {
            case .publish(let c) where c.type.contains(.unsolicited):
                _ = await transmit(announcement(id, service, requestor: nil), to: .nanNetworkID)
            case .subscribe(let c) where c.active:
                _ = await transmit(announcement(id, service, requestor: nil), to: .nanNetworkID)
            default: break
            }
        }
        return true
    }

    /// Keeps ``listensAhead`` listen periods asked for while any session runs (a count that has not changed
    /// for two periods and a half is taken as lost ends and starts again). A refusal is asked again at the next
    /// announcement period; the first refusal, and the first listen after refusals, are told once on
    /// ``listenNotices``.
    func keepListening(now: ContinuousClock.Instant) async {
        if listensQueued > 0, let last = lastListenChange, now - last > options.listenPeriod * 2.5 {
            listensQueued = 0
        }
        while !services.isEmpty, !stopped, listensQueued < Self.listensAhead {
            // Counted before the call: a tick and an end may both ask while this one waits for the kernel.
            listensQueued += 1
            lastListenChange = now
            do {
                try await radio.listen(frequency: options.frequency, duration: options.listenPeriod)
                if listenRefused {
                    listenRefused = false
                    listenNoticeSink.yield(.resumed(frequency: options.frequency))
                }
            } catch {
                listensQueued -= 1
                if !listenRefused {
                    listenRefused = true
                    listenNoticeSink.yield(.refused(frequency: options.frequency, reason: "\(error)"))
                }
                return
            }
        }
    }

    /// A listen period ended: one fewer queued, and the next asked for.
    func listenEnded() async {
        listensQueued = max(0, listensQueued - 1)
        lastListenChange = clock.now
        await keepListening(now: clock.now)
    }

    func announcement(_ id: InstanceID, _ service: Service, requestor: InstanceID?) -> ServiceAnnouncement {
        switch service.role {
        case .publish(let c):
            return ServiceAnnouncement(
                kind: .publish, serviceID: c.serviceID, instanceID: id,
                requestorInstanceID: requestor ?? InstanceID(rawValue: 0), matchFilter: c.transmitFilter,
                serviceInfo: c.serviceInfo, rangeLimited: c.closeRangeOnly)
        case .subscribe(let c):
            return ServiceAnnouncement(
                kind: .subscribe, serviceID: c.serviceID, instanceID: id,
                requestorInstanceID: requestor ?? InstanceID(rawValue: 0), matchFilter: c.transmitFilter,
                responseFilter: c.responseFilter, serviceInfo: c.serviceInfo, rangeLimited: c.closeRangeOnly)
        }
    }
}

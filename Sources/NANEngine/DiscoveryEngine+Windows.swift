import NANLogging
import NANWire

/// Discovery windows: each DW notification is a tick that announces publishes and active subscribes.
extension DiscoveryEngine {
    func discoveryWindow(frequency: Int) async {
        options.logger.trace("dw \(window + 1) \(frequency) MHz")
        window += 1
        windowFrequency = frequency
        if cluster != nil {
            windowsSinceJoin += 1
            wakeClusterWaiters()
        }
        statistics.discoveryWindows += 1
        let startsPeriod = !NANTiming.isFiveGigahertzOrAbove(frequency)
        if startsPeriod {
            period += 1
            for peer in forgetSilentPeers() { await forgottenPeerObserver?(peer) }
        }
        var announcements: [ServiceAnnouncement] = []
        var expired: [InstanceID] = []
        for id in functions.keys.sorted() {
            guard var function = functions[id] else { continue }
            // A service started between two notifications is live in the DW that follows; the notification
            // after its n-th DW ends a TTL of n DWs. A TTL counts DW periods of 512 TU: a dual-band device
            // is told of a 2.4 GHz and a 5 GHz DW in each period, and only the 2.4 GHz one, which every NAN
            // device attends, starts a period (otherwise the TTL would halve when 5 GHz is allowed).
            if startsPeriod, let left = function.windowsLeft {
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
            case .subscribe(let c) where c.active && (!function.answered || needsRefresh(function)):
                announcements.append(subscribeAnnouncement(for: c, id: id))
            default:
                break
            }
            functions[id] = function
        }
        for id in expired { finish(id, reason: .timeToLiveExpired) }
        let waiters = windowWaiters
        windowWaiters.removeAll()
        for waiter in waiters.values { waiter.resume(returning: true) }
        guard radio.discoveryMode == .userSpace, !announcements.isEmpty else { return }
        for batch in batches(announcements) {
            _ = await transmit(batch, frequency: nil)  // hwsim queues it for the next DW slot; no channel needed
        }
    }

    /// Forgets peers and reported peer instances not heard for too long: a function that reports losses
    /// (`lostAfterPeriods`) is told `.lost`; the others forget after `forgetAfterPeriods`, and are told too
    /// (`reported: false`) so their consumer can drop its own record. Either way the instance, heard again,
    /// is reported again. Returns the peers the peer table forgot.
    func forgetSilentPeers() -> [MACAddress] {
        let forgotten = peers.expire(period: period)
        recentPublishes.expire(period: period)
        for id in functions.keys.sorted() {
            guard var function = functions[id], !function.reported.isEmpty else { continue }
            let limit = max(1, function.lostAfterPeriods ?? options.forgetAfterPeriods)
            let silent = function.reported.filter { period - $0.value.lastPeriod > limit }.keys
            guard !silent.isEmpty else { continue }
            for key in silent.sorted(by: { ($0.peer, $0.instance.rawValue) < ($1.peer, $1.instance.rawValue) }) {
                function.reported[key] = nil
                deliver(.lost(lostPeer(key, local: id, reported: function.lostAfterPeriods != nil)), to: function)
            }
            functions[id] = function
        }
        return forgotten
    }

    /// An answered active subscribe asks again when a publisher it found has been silent for half its loss
    /// time (a solicited-only publisher speaks only when asked).
    func needsRefresh(_ function: LocalFunction) -> Bool {
        guard let lostAfter = function.lostAfterPeriods else { return false }
        let half = max(1, lostAfter / 2)
        return function.reported.values.contains { period - $0.lastPeriod >= half }
    }

    /// Splits announcements into frames that fit the frame budget.
    func batches(_ announcements: [ServiceAnnouncement]) -> [OutgoingDiscoveryFrame] {
        var frames: [OutgoingDiscoveryFrame] = []
        var current = OutgoingDiscoveryFrame(destination: .broadcast, announcements: [])
        var size = 0
        for item in announcements {
            let cost = announcementCost(item)
            // An NPBA is one per frame and names no instance: an announcement carrying one goes alone.
            let alone = item.bootstrapping != nil || current.announcements.contains { $0.bootstrapping != nil }
            if (size + cost > options.frameBudget || alone) && !current.announcements.isEmpty {
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

    func announcement(for c: PublishConfiguration, id: InstanceID, requestor: InstanceID) -> ServiceAnnouncement {
        var item = ServiceAnnouncement(
            kind: .publish, serviceID: c.serviceID, instanceID: id, requestorInstanceID: requestor,
            matchFilter: c.transmitFilter, serviceInfo: c.serviceInfo, rangeLimited: c.closeRangeOnly,
            offersDataPath: c.offersDataPath)
        item.bootstrapping = c.bootstrappingMethods.map {
            PairingBootstrappingAttribute(dialogToken: 0, type: .advertise, methods: $0)
        }
        if c.offersDataPath { item.cipherSuites = publishCipherSuites[id] ?? [] }
        return item
    }

    func subscribeAnnouncement(for c: SubscribeConfiguration, id: InstanceID) -> ServiceAnnouncement {
        ServiceAnnouncement(
            kind: .subscribe, serviceID: c.serviceID, instanceID: id, matchFilter: c.transmitFilter,
            responseFilter: c.responseFilter, serviceInfo: c.serviceInfo, rangeLimited: c.closeRangeOnly)
    }

    /// About how many bytes `item` takes in a frame (Service Descriptor attribute, header share).
    func announcementCost(_ item: ServiceAnnouncement) -> Int {
        40 + item.serviceInfo.count + (item.matchFilter?.bytes.count ?? 0) + srfSize(item.responseFilter)
    }

    func srfSize(_ filter: ServiceResponseFilter?) -> Int {
        switch filter?.addressSet {
        case nil: 0
        case .addresses(let list): 2 + 6 * list.count
        case .bloomFilter(let bloom): 2 + bloom.bits.count
        }
    }

    /// Waits for the next discovery window; false if the engine stopped first.
    /// False when the engine stops or the waiting task is cancelled first: a follow-up waiting for a DW
    /// that never comes (the device gone quiet) must not outlive its caller's timeout.
    func nextWindow() async -> Bool {
        if stopped || Task.isCancelled { return false }
        let id = nextWindowWaiter
        nextWindowWaiter &+= 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Cancelled before this runs: the handler below found nothing to remove.
                if Task.isCancelled { continuation.resume(returning: false) } else { windowWaiters[id] = continuation }
            }
        } onCancel: {
            Task { await self.cancelWindowWait(id) }
        }
    }

    func cancelWindowWait(_ id: UInt64) {
        windowWaiters.removeValue(forKey: id)?.resume(returning: false)
    }
}

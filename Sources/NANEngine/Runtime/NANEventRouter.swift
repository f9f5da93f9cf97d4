import NANSystem
import NANWire
import Synchronization

/// The runtime's switchboard: takes every nl80211 event of the session once, in order, and hands it to the
/// clients that asked for it (by kind, or by action-frame prefix) and to the one-shot waiters of frame
/// exchanges and cluster waits. Routing runs under a lock, without hopping onto an actor, so a frame
/// reaches its client with no extra task in between.
///
/// Scope: events about the runtime's radio (any interface on it, so NAN data interfaces too); frames to
/// the NAN management interface (or with no interface named); transmit statuses (cookies are per session);
/// overruns. The loss of the NAN management interface or the radio goes to every client.
final class NANEventRouter: Sendable {
    /// One registered client.
    private struct Client {
        var interest: NANEventInterest
        var continuation: AsyncThrowingStream<NL80211Event, any Error>.Continuation
        /// Events dropped since the last overrun report got through.
        var pendingDrops = 0
    }

    /// A one-shot wait: a frame exchange or a cluster wait.
    struct Waiter {
        /// A response frame this waiter takes (and no client sees); nil for none.
        var response: (@Sendable ([UInt8]) -> Bool)?
        /// The transmit cookie whose status it wants, once known.
        var cookie: FrameCookie?
        /// Whether it waits for a cluster join.
        var cluster = false
        /// The status seen so far (a response is still awaited).
        var acknowledged: Bool?
        var outcome: WaitOutcome?
        var continuation: CheckedContinuation<WaitOutcome, Never>?
    }

    /// How a wait ended.
    enum WaitOutcome: Sendable {
        case response(NL80211Event, acknowledged: Bool?)
        case status(acknowledged: Bool)
        case cluster(MACAddress)
        case timedOut(acknowledged: Bool?)
        case ended
    }

    private struct State {
        var clients: [Int: Client] = [:]
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
        /// The waiters by the cookie of their frame, and recent statuses for a waiter that learns its cookie
        /// after the status arrived.
        var statuses = TransmitStatusBook<Int>(
            earlyLimit: NANEventRouter.recentStatusLimit,
            waitingLimit: NANEventRouter.recentStatusLimit)
        var cluster: MACAddress?
        var finished = false
    }

    /// How many transmit statuses are kept for late waiters.
    static let recentStatusLimit = 64

    let wiphy: WiphyIndex
    let managementInterface: WirelessDeviceID
    private let state = Mutex(State())

    init(wiphy: WiphyIndex, managementInterface: WirelessDeviceID) {
        self.wiphy = wiphy
        self.managementInterface = managementInterface
    }

    /// The cluster last joined, if any.
    var cluster: MACAddress? { state.withLock { $0.cluster } }

    // MARK: Clients

    /// Adds a client; its stream ends when the session ends or the client stops iterating.
    func register(_ interest: NANEventInterest) -> AsyncThrowingStream<NL80211Event, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: NL80211Event.self, bufferingPolicy: .bufferingOldest(interest.bufferSize))
        let id: Int? = state.withLock { state in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.clients[state.nextID] = Client(interest: interest, continuation: continuation)
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.clients.removeValue(forKey: id) }
        }
        return stream
    }

    /// The frame prefixes some client asks for.
    var framePrefixes: Set<[UInt8]> {
        state.withLock { Set($0.clients.values.flatMap(\.interest.framePrefixes)) }
    }

    // MARK: Routing

    /// Routes one event of the session.
    func route(_ event: NL80211Event) {
        state.withLock { state in
            switch event {
            case .clusterJoined(let wdev, let id, _) where wdev == managementInterface:
                state.cluster = id
                for (key, waiter) in state.waiters where waiter.cluster {
                    Self.resolve(key, .cluster(id), in: &state)
                }
            case .frameTxStatus(let cookie, let acknowledged):
                if let key = state.statuses.arrived(cookie.rawValue, acknowledged: acknowledged),
                    let waiter = state.waiters[key]
                {
                    Self.status(acknowledged, for: key, waiter, in: &state)
                }
            case .frameReceived(let wdev, _, _, let bytes) where wdev == nil || wdev == managementInterface:
                if let key = state.waiters.first(where: { $0.value.response?(bytes) == true })?.key {
                    let acknowledged = state.waiters[key]?.acknowledged
                    Self.resolve(key, .response(event, acknowledged: acknowledged), in: &state)
                    return  // taken by the exchange
                }
            default:
                break
            }
            guard let audience = audience(of: event) else { return }
            for key in Array(state.clients.keys) {
                guard let client = state.clients[key], audience(client.interest) else { continue }
                Self.deliver(event, to: key, in: &state)
            }
        }
    }

    /// Which clients an event goes to, or nil when it is not about this runtime.
    private func audience(of event: NL80211Event) -> ((NANEventInterest) -> Bool)? {
        let all: (NANEventInterest) -> Bool = { _ in true }
        switch event {
        case .overrun:
            return all
        case .wiphyRemoved(let removed):
            return removed == wiphy ? all : nil
        case .interfaceRemoved(_, let wdev, _) where wdev == managementInterface:
            return all
        case .frameReceived(let wdev, _, _, let bytes):
            // Frames registered on the NMI, or on another interface of this radio (the data path registers
            // protected NAFs on its NDI); never another radio's.
            guard wdev == nil || wdev == managementInterface || wdev?.wiphy == wiphy else { return nil }
            return { $0.wants(frame: bytes) }
        default:
            guard isAboutThisRadio(event), let kind = NANEventKinds.of(event) else { return nil }
            return { $0.kinds.contains(kind) }
        }
    }

    /// Whether an event names this radio or one of its interfaces (or nothing that says otherwise).
    private func isAboutThisRadio(_ event: NL80211Event) -> Bool {
        func on(_ wdev: WirelessDeviceID?, _ phy: WiphyIndex? = nil) -> Bool {
            if let wdev { return wdev.wiphy == wiphy }
            if let phy { return phy == wiphy }
            return true
        }
        switch event {
        case .clusterJoined(let wdev, _, _), .nextDiscoveryWindow(let wdev, _), .scheduleUpdateDone(let wdev, _):
            return on(wdev)
        case .nanMatch(let match):
            return on(match.wdev)
        case .unalignedScheduleUpdated(let phy, let wdev, _), .channelsEvacuated(let phy, let wdev, _):
            return on(wdev, phy)
        case .interfaceAdded(let interface):
            return interface.wiphy == wiphy
        case .interfaceRemoved(let phy, let wdev, _):
            return on(wdev, phy)
        default:
            return true
        }
    }

    /// Yields to one client; a full buffer is reported to it as an overrun before its next event.
    private static func deliver(_ event: NL80211Event, to key: Int, in state: inout State) {
        guard var client = state.clients[key] else { return }
        defer { state.clients[key] = client }
        if client.pendingDrops > 0 {
            switch client.continuation.yield(.overrun(droppedEvents: client.pendingDrops)) {
            case .enqueued: client.pendingDrops = 0
            case .dropped: client.pendingDrops += 1; return
            case .terminated: return
            @unknown default: return
            }
        }
        if case .dropped = client.continuation.yield(event) { client.pendingDrops += 1 }
    }

    /// The session ended: every client's stream ends (with `error`, if any), every waiter wakes.
    func finish(throwing error: (any Error)? = nil) {
        let clients = state.withLock { state -> [Client] in
            state.finished = true
            for key in Array(state.waiters.keys) { Self.resolve(key, .ended, in: &state) }
            defer { state.clients = [:] }
            return Array(state.clients.values)
        }
        for client in clients { client.continuation.finish(throwing: error) }
    }

    // MARK: Waiters

    /// Adds a waiter before the action it waits on (so nothing it wants can slip past); returns its key.
    func addWaiter(_ waiter: Waiter) -> Int {
        state.withLock { state in
            state.nextID += 1
            let key = state.nextID
            state.waiters[key] = waiter
            if state.finished {
                Self.resolve(key, .ended, in: &state)
            } else if waiter.cluster, let cluster = state.cluster {
                Self.resolve(key, .cluster(cluster), in: &state)
            }
            return key
        }
    }

    /// Tells a waiter the cookie of the frame it sent; a status that already arrived counts.
    func setCookie(_ cookie: FrameCookie, for key: Int) {
        state.withLock { state in
            guard var waiter = state.waiters[key] else { return }
            waiter.cookie = cookie
            state.waiters[key] = waiter
            if let acknowledged = state.statuses.takeEarly(cookie.rawValue) {
                Self.status(acknowledged, for: key, waiter, in: &state)
            } else {
                state.statuses.expect(cookie.rawValue, key)
            }
        }
    }

    /// Waits for a waiter's outcome; removes it.
    func wait(_ key: Int) async -> WaitOutcome {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                guard var waiter = state.waiters[key] else {
                    continuation.resume(returning: .ended)
                    return
                }
                if let outcome = waiter.outcome {
                    state.waiters[key] = nil
                    continuation.resume(returning: outcome)
                } else {
                    waiter.continuation = continuation
                    state.waiters[key] = waiter
                }
            }
        }
    }

    /// Waits for a waiter's outcome for at most `timeout`; removes it. Cancelling the calling task ends the
    /// wait at once, like a timeout.
    func wait(_ key: Int, timeout: Duration) async -> WaitOutcome {
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.expire(key)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await wait(key)
        } onCancel: {
            expire(key)
        }
    }

    /// Ends a wait early (timeout, cancellation, failed send).
    func expire(_ key: Int) {
        state.withLock { state in
            let acknowledged = state.waiters[key]?.acknowledged
            Self.resolve(key, .timedOut(acknowledged: acknowledged), in: &state)
        }
    }

    /// Forgets a waiter nobody will wait for (its action failed).
    func remove(_ key: Int) {
        state.withLock { state in
            if let cookie = state.waiters.removeValue(forKey: key)?.cookie {
                _ = state.statuses.cancel(cookie.rawValue)
            }
        }
    }

    /// A transmit status for a waiter: final unless a response is still awaited after an acknowledgement.
    private static func status(_ acknowledged: Bool, for key: Int, _ waiter: Waiter, in state: inout State) {
        if waiter.response == nil || !acknowledged {
            resolve(key, .status(acknowledged: acknowledged), in: &state)
        } else {
            state.waiters[key]?.acknowledged = true
        }
    }

    /// Settles a waiter once: resumes it if it is waiting, else keeps the outcome for ``wait(_:)``.
    private static func resolve(_ key: Int, _ outcome: WaitOutcome, in state: inout State) {
        guard var waiter = state.waiters[key], waiter.outcome == nil else { return }
        if let continuation = waiter.continuation {
            state.waiters[key] = nil
            continuation.resume(returning: outcome)
        } else {
            waiter.outcome = outcome
            state.waiters[key] = waiter
        }
    }
}

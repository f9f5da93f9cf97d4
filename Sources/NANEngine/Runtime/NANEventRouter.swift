import NANSystem
import NANWire
import Synchronization

/// The runtime's switchboard: takes every nl80211 event of the session once, in order, and hands it to the
/// clients that asked for it (by kind, or by action-frame prefix), transmit statuses to ``statuses`` (and to
/// the clients that asked for them too), and cluster joins to the one-shot waits for them.
/// Routing runs under a lock, without hopping onto an actor, so a frame
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

    /// How a cluster wait ended.
    enum WaitOutcome: Sendable {
        case cluster(MACAddress)
        case timedOut
        case ended
    }

    private struct State {
        var clients: [Int: Client] = [:]
        /// Cluster waits, settled or not.
        var waiters: [Int: (outcome: WaitOutcome?, continuation: CheckedContinuation<WaitOutcome, Never>?)] = [:]
        var nextID = 0
        var cluster: MACAddress?
        var finished = false
    }

    let wiphy: WiphyIndex
    let managementInterface: WirelessDeviceID
    private let state = Mutex(State())
    /// Sees every public SDF to the NAN management interface before it is routed (``answerServiceDiscovery(_:)``).
    private let answerer = Mutex<(@Sendable (_ bytes: [UInt8], _ signal: Int?) -> Void)?>(nil)
    /// The transmit statuses of the session's frames, for whoever waits on one.
    let statuses = TransmitStatuses()
    /// Peers that leave frame after frame unacknowledged (``UnacknowledgedPeers``), and who removes such a
    /// peer's station (``whenUnresponsive(_:)``).
    private let unacknowledged = Mutex(UnacknowledgedPeers())
    private let unresponsive = Mutex<(@Sendable (MACAddress) -> Void)?>(nil)

    init(wiphy: WiphyIndex, managementInterface: WirelessDeviceID) {
        self.wiphy = wiphy
        self.managementInterface = managementInterface
    }

    /// Calls `action` (on the reader's thread; it must not wait) for a peer that has left
    /// ``UnacknowledgedPeers/limit`` frames in a row unacknowledged.
    func whenUnresponsive(_ action: @escaping @Sendable (MACAddress) -> Void) {
        unresponsive.withLock { $0 = action }
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

    /// Has `answer` see every public SDF to the NAN management interface, on the reader's thread, before the
    /// frame is routed to any client (so an answer to it leaves before anything else is done with it).
    /// `answer` must return quickly and never wait; a later call replaces it.
    func answerServiceDiscovery(_ answer: @escaping @Sendable (_ bytes: [UInt8], _ signal: Int?) -> Void) {
        answerer.withLock { $0 = answer }
    }

    /// Routes one event of the session.
    func route(_ event: NL80211Event) {
        if case .frameReceived(let wdev, _, let signal, let bytes) = event, wdev == nil || wdev == managementInterface,
            NANEventInterest.body(of: bytes, startsWith: NANFramePrefix.serviceDiscovery),
            let answer = answerer.withLock({ $0 })
        {
            answer(bytes, signal.map(Int.init))
        }
        state.withLock { state in
            switch event {
            case .clusterJoined(let wdev, let id, _) where wdev == managementInterface:
                state.cluster = id
                for key in Array(state.waiters.keys) { Self.resolve(key, .cluster(id), in: &state) }
            case .frameTxStatus(let cookie, let acknowledged, let destination):
                statuses.arrived(cookie.rawValue, acknowledged: acknowledged)
                if let destination, unacknowledged.withLock({ $0.status(of: destination, acknowledged: acknowledged) })
                {
                    unresponsive.withLock { $0 }?(destination)
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

    /// The session ended: every client's stream ends (with `error`, if any), every wait wakes.
    func finish(throwing error: (any Error)? = nil) {
        let clients = state.withLock { state -> [Client] in
            state.finished = true
            for key in Array(state.waiters.keys) { Self.resolve(key, .ended, in: &state) }
            defer { state.clients = [:] }
            return Array(state.clients.values)
        }
        statuses.finish()
        for client in clients { client.continuation.finish(throwing: error) }
    }

    // MARK: Cluster waits

    /// Waits at most `timeout` for a cluster join (at once if one was seen); cancelling the calling task ends
    /// the wait like a timeout.
    func waitForCluster(timeout: Duration) async -> WaitOutcome {
        let key = state.withLock { state in
            state.nextID += 1
            let key = state.nextID
            state.waiters[key] = (nil, nil)
            if state.finished {
                Self.resolve(key, .ended, in: &state)
            } else if let cluster = state.cluster {
                Self.resolve(key, .cluster(cluster), in: &state)
            }
            return key
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.expire(key)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    guard let waiter = state.waiters[key] else { return continuation.resume(returning: .ended) }
                    if let outcome = waiter.outcome {
                        state.waiters[key] = nil
                        continuation.resume(returning: outcome)
                    } else {
                        state.waiters[key] = (nil, continuation)
                    }
                }
            }
        } onCancel: {
            expire(key)
        }
    }

    private func expire(_ key: Int) {
        state.withLock { Self.resolve(key, .timedOut, in: &$0) }
    }

    /// Settles a wait once: resumes it if it is waiting, else keeps the outcome for when it does.
    private static func resolve(_ key: Int, _ outcome: WaitOutcome, in state: inout State) {
        guard let waiter = state.waiters[key], waiter.outcome == nil else { return }
        if let continuation = waiter.continuation {
            state.waiters[key] = nil
            continuation.resume(returning: outcome)
        } else {
            state.waiters[key] = (outcome, nil)
        }
    }
}

import NANEngine
import NANWire
internal import Synchronization

/// Runs one publisher or subscriber for its sequence: takes the service lease, resolves the device
/// selection, starts the engine session, then turns engine events into ``WASessionEvent``s for the
/// selected peers until the session ends or the consumer goes away, and finally stops the session on the
/// radio and gives the lease back.
struct SessionRunner: Sendable {
    let system: WASystem
    let role: ServiceLease.Role
    let service: WAServiceName
    let selection: WADeviceSelection
    let handle: SessionHandle
    let start: @Sendable (any DiscoveryBackend) async throws -> BackendSession

    /// Events kept for a consumer that falls behind; beyond this the oldest are dropped and counted.
    static let eventBuffer = 256

    /// The first iteration's events; a later iteration fails with `rerun` (a session runs once).
    func iterator(rerun: String) -> AsyncThrowingStream<WASessionEvent, any Error>.Iterator {
        guard handle.claimIteration() else {
            return AsyncThrowingStream { $0.finish(throwing: WAError(.invalidArgument, message: rerun)) }
                .makeAsyncIterator()
        }
        return events().makeAsyncIterator()
    }

    /// Starts the session in a task owned by `system`; its events go to the returned stream, whose end
    /// (consumer cancelled or gone) ends the task.
    func events() -> AsyncThrowingStream<WASessionEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: WASessionEvent.self, bufferingPolicy: .bufferingNewest(Self.eventBuffer))
        let task = system.startTask { await run(continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func run(_ output: AsyncThrowingStream<WASessionEvent, any Error>.Continuation) async {
        do {
            let lease = try ServiceLease.acquire(
                adapter: system.adapterName, role: role, service: service, directory: system.runtimeDirectory)
            defer { lease.release() }
            let filter = try PeerFilter(selection: selection, devices: initialDevices())
            let session: BackendSession
            do {
                session = try await start(system.backend)
            } catch {
                throw WAError.from(error, while: "start the \(role.rawValue) of \(service) on \(system.adapterName)")
            }
            handle.started(session)
            output.yield(.started(session.instanceID))
            let end = await loop(session, filter: filter, output: output)
            await session.stop()
            handle.ended()
            switch end {
            case .deviceRemoved:
                throw WAError(
                    .deviceRemoved,
                    message:
                        "\(system.adapterName) went away (removed, unplugged or its driver unloaded) while the \(role.rawValue) of \(service) ran"
                )
            case .terminated(let reason):
                output.yield(.terminated(reason))
            case .cancelled:
                break
            }
            output.finish()
        } catch {
            handle.ended()
            output.finish(throwing: WAError.from(error, while: "run the \(role.rawValue) of \(service)"))
        }
    }

    /// Hands an event to the consumer; one that falls out of the full buffer is counted, not lost silently.
    /// A paired device reported is noted as seen in the store (rate-limited).
    private func deliver(
        _ event: WASessionEvent, to output: AsyncThrowingStream<WASessionEvent, any Error>.Continuation
    ) {
        switch event {
        case .discovered(let endpoint), .updated(let endpoint):
            if let device = endpoint.device { system.lastSeen.saw(device, in: system.store) }
        case .messageReceived(let message):
            if let device = message.endpoint.device { system.lastSeen.saw(device, in: system.store) }
        default: break
        }
        if case .dropped = output.yield(event) { handle.noteDroppedEvent() }
    }

    /// The store now; for `.anyDevice` a broken store only means peers go unnamed.
    private func initialDevices() throws(WAError) -> WAPairedDevice.Devices {
        if selection.includesUnpairedDevices { return (try? system.store.devices()) ?? [:] }
        return try system.store.devices()
    }

    /// Reports engine events until the engine ends the session (returns its reason) or the task is cancelled
    /// (nil). Engine events are read here directly, so a message reaches the consumer with no extra task hop;
    /// store changes and the lost-peer clock run beside it. Filter and endpoints are shared under one lock,
    /// and events are yielded while holding it, so the consumer sees them in the order they were decided.
    private func loop(
        _ session: BackendSession, filter: PeerFilter,
        output: AsyncThrowingStream<WASessionEvent, any Error>.Continuation
    ) async -> End {
        let state = SharedSessionState(filter: filter, tracker: EndpointTracker(service: service))
        // A subscriber of paired devices verifies a paired publisher's pairing key before reporting it.
        let verification =
            SessionVerification.applies(role: role, selection: selection, system: system) ? SessionVerification() : nil
        let system = system
        return await withTaskGroup(of: Void.self) { group in
            let store = system.store
            group.addTask {
                // A failed read (a store briefly corrupt while hand-edited, or unreadable) keeps the last good
                // selection and the watch goes on: the next good read applies what changed meanwhile.
                await Self.watch(store) { devices in
                    state.withLock { state in
                        state.filter.update(devices: devices)
                        for event in state.tracker.refilter(state.filter) { deliver(event, to: output) }
                    }
                }
            }
            var end: End = .terminated(.failure)  // the engine's events ended without saying why
            var events = session.makeIterator()
            while let event = await events.next() {
                if case .terminated(let why) = event {
                    end = why == .deviceRemoved ? .deviceRemoved : .terminated(WATerminationReason(why))
                    break
                }
                let held = state.withLock { state -> [WAEndpoint] in
                    var held: [WAEndpoint] = []
                    for out in state.tracker.handle(event, filter: state.filter) {
                        switch verification?.decide(out) ?? .deliver {
                        case .deliver: deliver(out, to: output)
                        case .verify(let endpoint): held.append(endpoint)
                        case .drop: continue
                        }
                    }
                    return held
                }
                for endpoint in held {
                    guard let verification else { break }
                    group.addTask {
                        if await verification.verify(endpoint, system: system) {
                            deliver(.discovered(endpoint), to: output)
                        }
                    }
                }
            }
            group.cancelAll()
            return Task.isCancelled ? .cancelled : end
        }
    }

    /// How a session loop ended.
    enum End {
        /// The engine ended the session for this reason.
        case terminated(WATerminationReason)
        /// The adapter or its NAN interface went away.
        case deviceRemoved
        /// The consuming task was cancelled.
        case cancelled
    }

    /// Applies every snapshot of `store` until the task is cancelled. A failed read does not end the watch:
    /// it starts again after a pause (the store's own poll interval), beginning with a fresh read.
    static func watch(
        _ store: WADeviceStore, pause: Duration = .milliseconds(500), apply: @Sendable (WAPairedDevice.Devices) -> Void
    ) async {
        while !Task.isCancelled {
            do {
                for try await devices in store.allDevices { apply(devices) }
                return  // cancelled
            } catch {
                try? await Task.sleep(for: pause)
            }
        }
    }
}

/// What the parts of a session loop share, behind a lock.
private final class SharedSessionState: Sendable {
    struct State {
        var filter: PeerFilter
        var tracker: EndpointTracker
    }

    private let state: Mutex<State>

    init(filter: PeerFilter, tracker: EndpointTracker) {
        state = Mutex(State(filter: filter, tracker: tracker))
    }

    /// Runs `body` with the state locked.
    func withLock<T>(_ body: (inout State) -> T) -> T {
        state.withLock { body(&$0) }
    }
}

extension WATerminationReason {
    init(_ reason: TerminationReason) {
        switch reason {
        case .userRequest: self = .userRequest
        case .timeToLiveExpired: self = .timeLimitReached
        case .failure, .deviceRemoved: self = .failure
        }
    }
}

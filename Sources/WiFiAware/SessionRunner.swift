import NANEngine
import NANWire

/// Runs one publisher or subscriber for its sequence: takes the service lease, resolves the device
/// selection, starts the engine session, then turns engine events into ``WASessionEvent``s for the
/// selected peers until the session ends or the consumer goes away, and finally stops the session on the
/// radio and gives the lease back.
struct SessionRunner: Sendable {
    let system: WASystem
    let role: ServiceLease.Role
    let service: WAServiceName
    let selection: WADeviceSelection
    let peerTimeout: Duration?
    let handle: SessionHandle
    let start: @Sendable (any DiscoveryBackend) async throws -> BackendSession

    /// What the session loop reacts to.
    private enum Input: Sendable {
        case engine(DiscoveryEvent)
        case engineEnded
        case devices(WAPairedDevice.Devices)
        case tick
    }

    /// Starts the session in a task owned by `system`; its events go to the returned stream, whose end
    /// (consumer cancelled or gone) ends the task.
    func events() -> AsyncThrowingStream<WASessionEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: WASessionEvent.self, bufferingPolicy: .bufferingNewest(256))
        let task = system.startTask { await run(continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func run(_ output: AsyncThrowingStream<WASessionEvent, any Error>.Continuation) async {
        do {
            let lease = try ServiceLease.acquire(
                adapter: system.adapterName, role: role, service: service, directory: system.runtimeDirectory)
            defer { lease.release() }
            var filter = try PeerFilter(selection: selection, devices: initialDevices())
            let session: BackendSession
            do {
                session = try await start(system.backend)
            } catch {
                throw WAError.from(error, while: "start the \(role.rawValue) of \(service) on \(system.adapterName)")
            }
            handle.started(session)
            output.yield(.started(session.instanceID))
            let reason = await loop(session, filter: &filter, output: output)
            await session.stop()
            handle.ended()
            if let reason { output.yield(.terminated(reason)) }
            output.finish()
        } catch {
            handle.ended()
            output.finish(throwing: WAError.from(error, while: "run the \(role.rawValue) of \(service)"))
        }
    }

    /// The store now; for `.anyDevice` a broken store only means peers go unnamed.
    private func initialDevices() throws(WAError) -> WAPairedDevice.Devices {
        if selection.includesUnpairedDevices { return (try? system.store.devices()) ?? [:] }
        return try system.store.devices()
    }

    /// Handles inputs until the engine ends the session (returns its reason) or the task is cancelled (nil).
    private func loop(
        _ session: BackendSession, filter: inout PeerFilter,
        output: AsyncThrowingStream<WASessionEvent, any Error>.Continuation
    ) async -> WATerminationReason? {
        let (inputs, feed) = AsyncStream.makeStream(of: Input.self)
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var events = session.makeIterator()
                while let event = await events.next() { feed.yield(.engine(event)) }
                feed.yield(.engineEnded)
            }
            let store = system.store
            group.addTask {
                // Errors (a store turned unreadable) keep the last good selection.
                do {
                    for try await devices in store.allDevices { feed.yield(.devices(devices)) }
                } catch {}
            }
            if let peerTimeout {
                group.addTask {
                    let period = min(peerTimeout / 4, .seconds(1))
                    while (try? await Task.sleep(for: period)) != nil { feed.yield(.tick) }
                }
            }
            var tracker = EndpointTracker(service: service, peerTimeout: peerTimeout)
            var reason: WATerminationReason?
            loop: for await input in inputs {
                switch input {
                case .engine(.terminated(let why)):
                    reason = WATerminationReason(why)
                    break loop
                case .engine(let event):
                    for out in tracker.handle(event, filter: filter) { output.yield(out) }
                case .engineEnded:
                    reason = .failure
                    break loop
                case .devices(let devices):
                    filter.update(devices: devices)
                    for out in tracker.refilter(filter) { output.yield(out) }
                case .tick:
                    let peers = await system.backend.peers()
                    for out in tracker.expire(peers: peers, now: .now) { output.yield(out) }
                }
            }
            feed.finish()
            group.cancelAll()
            return Task.isCancelled ? nil : reason
        }
    }
}

extension WATerminationReason {
    init(_ reason: TerminationReason) {
        switch reason {
        case .userRequest: self = .userRequest
        case .timeToLiveExpired: self = .timeLimitReached
        case .failure: self = .failure
        }
    }
}

internal import Synchronization

/// The one ``WASystem`` of this layer: started by its first user, kept until ``stop()``.
final class SharedSystem: Sendable {
    static let shared = SharedSystem()

    private struct Running {
        let system: Task<WASystem, any Error>
        let release: AsyncStream<Void>.Continuation
        let runner: Task<Void, Never>
        let generation: Int
    }

    private let config = Mutex(NetworkWiFiAware.Configuration())
    private let running = Mutex<Running?>(nil)
    private let generations = Atomic<Int>(0)

    var configuration: NetworkWiFiAware.Configuration {
        get { config.withLock { $0 } }
        set { config.withLock { $0 = newValue } }
    }

    /// The system, started now if it is not up.
    ///
    /// - Throws: ``NWError`` with the WiFiAware error that kept it from starting.
    func system() async throws(NWError) -> WASystem {
        let task = running.withLock { running -> Task<WASystem, any Error> in
            if let running { return running.system }
            return start(&running)
        }
        do { return try await task.value } catch {
            running.withLock { if $0?.system == task { $0 = nil } }
            throw NWError.from(error)
        }
    }

    private func start(_ running: inout Running?) -> Task<WASystem, any Error> {
        let generation = generations.add(1, ordering: .relaxed).newValue
        let configuration = config.withLock { $0 }
        let (up, upContinuation) = AsyncThrowingStream.makeStream(
            of: WASystem.self, bufferingPolicy: .bufferingNewest(1))
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let runner = Task {
            do {
                try await WASystem.run(adapter: configuration.adapter, options: configuration.options) { system in
                    upContinuation.yield(system)
                    for await _ in released {}
                }
                upContinuation.finish()
            } catch {
                upContinuation.finish(throwing: error)
            }
            // Ended (stopped, or NAN went down by itself): the next user starts a new one.
            self.running.withLock { if $0?.generation == generation { $0 = nil } }
        }
        let system = Task<WASystem, any Error> {
            for try await system in up { return system }
            throw NWError(.cancelled, message: "Wi-Fi Aware was stopped while starting")
        }
        running = Running(system: system, release: release, runner: runner, generation: generation)
        return system
    }

    func stop() async {
        guard
            let stopping = running.withLock({ running in
                defer { running = nil }; return running
            })
        else { return }
        stopping.release.finish()
        await stopping.runner.value
    }
}

public import NANEngine
public import NANLogging
public import NANSystem
public import NANWire
internal import Synchronization

/// The daemon's device runtimes: one ``NANEngine`` per NAN adapter, started when the first client asks for
/// the adapter and kept while the daemon runs (or until the adapter goes away). The daemon is then the one
/// owner of the radio, and remembers the publishes it heard for 10 s (instant discovery).
public actor RadioPool: RadioProvider {
    private var running: [String: (engine: NANEngine, task: Task<Void, Never>)] = [:]
    private var starting: [String: Task<NANEngine, any Error>] = [:]

    /// Why an engine's run ended, for the client's one line.
    final class FailureBox: Sendable {
        private let text = Mutex<String?>(nil)
        func set(_ value: String) { text.withLock { $0 = value } }
        func get() -> String? { text.withLock { $0 } }
    }
    let start: NANStartOptions
    let options: DiscoveryOptions
    let clusterTimeout: Duration
    /// Lines from the server (clients, sessions) for `status`.
    private var clientLines: (@Sendable () async -> [String])?

    /// A pool starting NAN with `start` and the engine with `options`.
    public init(
        start: NANStartOptions = NANStartOptions(), options: DiscoveryOptions = DiscoveryOptions(),
        clusterTimeout: Duration = .seconds(10)
    ) {
        self.start = start
        var options = options
        if options.remembersPublishesFor == nil { options.remembersPublishesFor = .seconds(10) }
        self.options = options
        self.clusterTimeout = clusterTimeout
    }

    /// Where `status` gets its client lines.
    public func setClientLines(_ lines: @escaping @Sendable () async -> [String]) { clientLines = lines }

    public func radio(for name: String) async throws(DaemonError) -> any DaemonRadio {
        if let engine = running[name]?.engine { return engine }
        // Clients asking at once share one start: the task is stored before any wait (the actor is reentrant).
        let pending: Task<NANEngine, any Error>
        if let already = starting[name] {
            pending = already
        } else {
            pending = Task { try await self.startEngine(name) }
            starting[name] = pending
        }
        do {
            let engine = try await pending.value
            starting[name] = nil
            return engine
        } catch let error as DaemonError {
            starting[name] = nil
            throw error
        } catch {
            starting[name] = nil
            throw .adapter("NAN could not start on \(name): \(error)")
        }
    }

    /// Lists the adapters, starts NAN and an engine on `name`, and keeps it until the daemon ends.
    private func startEngine(_ name: String) async throws -> NANEngine {
        let adapters: [Adapter]
        do {
            adapters = try await NL80211.withSession { session in try await session.adapters() }
        } catch {
            throw DaemonError.adapter("the daemon cannot list the adapters: \(error)")
        }
        guard let adapter = adapters.first(where: { $0.name == name }) else {
            throw DaemonError.adapter("the daemon has no adapter \(name)")
        }
        if let reason = adapter.nan.unsupportedReason { throw DaemonError.adapter("\(name) has no NAN: \(reason)") }
        let (start, options, clusterTimeout) = (start, options, clusterTimeout)
        let (ready, readyContinuation) = AsyncStream.makeStream(of: NANEngine.self)
        let failure = FailureBox()
        let task = Task {
            do {
                try await NANEngine.run(
                    on: adapter, start: start, clusterTimeout: clusterTimeout, options: options,
                    address: .randomManagementAddress()
                ) { engine in
                    readyContinuation.yield(engine)
                    readyContinuation.finish()
                    // Until the daemon ends (cancelled) or the adapter goes away.
                    while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
                }
            } catch {
                failure.set("\(error)")
            }
            readyContinuation.finish()
            await self.forget(name)
        }
        for await engine in ready {
            running[name] = (engine, task)
            return engine
        }
        throw DaemonError.adapter("NAN did not start on \(name): \(failure.get() ?? "no cluster")")
    }

    private func forget(_ name: String) { running[name] = nil }

    public func statusLines() async -> [String] {
        var lines = running.keys.sorted().compactMap { name in
            running[name].map { "adapter \(name) nmi \($0.engine.localAddress)" }
        }
        if let clientLines { lines += await clientLines() }
        return lines
    }

    /// Stops every runtime (the daemon's end).
    public func stopAll() async {
        for (_, entry) in running {
            entry.task.cancel()
            await entry.task.value
        }
        running = [:]
    }
}

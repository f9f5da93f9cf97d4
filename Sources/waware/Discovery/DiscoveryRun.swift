import FoundationEssentials
internal import Synchronization
@_spi(Experiments) @_spi(Tools) import WiFiAware

/// Brings up Wi-Fi Aware on the adapter a command names, for the duration of a closure.
enum DiscoveryRun {
    /// Runs `body` with Wi-Fi Aware up on the adapter `reference` names (or the default one), through the
    /// public WiFiAware API, which selects the adapter once (the rule every command shares): the path `publish`,
    /// `subscribe`, `peers`, `perf`, `listen` and `connect` take. `body` gets the system and the adapter's phy
    /// name. Once `body` has ended, stopping Wi-Fi Aware is bounded by ``TeardownBound/limit``.
    /// - Parameter performanceMode: the schedule the data paths of this run use (`perf --mode`; nil: the default).
    /// - Throws: `WAError` (a missing, ambiguous or NAN-less adapter, a kernel refusal: ErrorTranslation maps its
    ///   code to the exit code), or what `body` throws.
    static func withSystem<Result: Sendable>(
        adapter reference: String?, masterPreference: UInt8, performanceMode: WAPerformanceMode? = nil,
        fixedAddress: Bool = false, transport: WATransport = .synchronized,
        _ body: (WASystem, String) async throws -> Result
    ) async throws -> Result {
        var options = WASystemOptions()
        options.masterPreference = masterPreference
        options.keepsAdapterAddress = fixedAddress
        options.transport = transport
        options.logger = Diagnostics.logger()
        options.swapsDataPathSchedule = Diagnostics.swapsDataPathSchedule()
        options.limitsDataPathScheduleToChannel6 = Diagnostics.limitsDataPathScheduleToChannel6()
        options.transmitsDataPathSetupOnDataLink = Diagnostics.transmitsDataPathSetupOnDataLink()
        options.performanceMode = performanceMode
        guard let backend = Diagnostics.daemonBackend() else {
            throw WAError(.invalidArgument, message: "WAWARE_DAEMON must be on, off or auto")
        }
        options.backend = backend
        if let socket = Diagnostics.daemonSocket() { options.daemonSocket = socket }
        let bound = Mutex<TeardownBound?>(nil)
        defer { bound.withLock { $0?.finished() } }
        return try await WASystem.run(adapter: reference, options: options) { system in
            // One line when wawared serves this run (stderr, so --json output stays one kind of line). Owning
            // the radio, as every run did before the daemon, says nothing: a line for it on every run was taken
            // for an error by scripts that watch stderr for `waware: ` (connection-simultaneous in CI).
            if system.owner == .daemon { try? ToolStream.standardError.write("waware: using wawared\n") }
            do {
                let result = try await body(system, system.adapterName)
                bound.withLock { $0 = TeardownBound(outcome: nil) }
                return result
            } catch {
                bound.withLock { $0 = TeardownBound(outcome: error) }
                throw error
            }
        }
    }

    /// Seconds since the Unix epoch, to the microsecond: comparable between processes on one machine.
    static func wallClock() -> Double { Date().timeIntervalSince1970 }
}

extension DiscoveryArguments.Values {
    /// Brings Wi-Fi Aware up as these options say and runs `session` for each service named (with its index,
    /// name and validated name), all at once, until every one has ended; Ctrl-C cancels them. `delay`: seconds
    /// to wait once NAN is up.
    func runSessions(
        delay: Double? = nil, output: Output,
        _ session:
            @escaping @Sendable (WASystem, _ phy: String, WADeviceSelection, Int, String, WAServiceName)
            async throws -> Void
    ) async throws {
        try await SignalCancellation.run {
            try await DiscoveryRun.withSystem(
                adapter: adapter, masterPreference: masterPreference, fixedAddress: fixedAddress,
                transport: transport
            ) { system, phy in
                for warning in system.startWarnings { output.fail("warning: \(warning)") }
                // USD asks again for a listen the kernel refused; the user hears of it once, not every 100 ms.
                let notices = Task { for await line in system.listenNotices() { output.fail("warning: \(line)") } }
                defer { notices.cancel() }
                let devices = try self.devices.selection(in: system.store)
                if let delay { try await Task.sleep(for: .milliseconds(Int64(delay * 1000))) }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, (name, service)) in services.enumerated() {
                        group.addTask { try await session(system, phy, devices, index, name, service) }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }
}

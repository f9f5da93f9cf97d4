public import NANLogging
public import NANSystem
public import NANWire

/// How the discovery engine and its data path run on a ``NANRuntime``.
public struct DiscoveryOptions: Sendable {
    /// The caller's logger: one `trace` line per DW and per frame sent or received (timing diagnostics),
    /// under the labels `discovery` and `data-path`. Disabled by default.
    public var logger: Logger = .disabled
    /// How the data path runs.
    public var dataPath = DataPathOptions()
    /// How long unsolicited publishes heard are remembered for subscribes started later with
    /// ``SubscribeConfiguration/reportHeardSince`` (at most 1,024 of them, the oldest heard going first). nil
    /// (the default): this DW period and the one before, for a program's own set-up time; the daemon keeps
    /// 10 s, so a program's new subscribe learns at once of the publishers heard lately (instant discovery).
    public var remembersPublishesFor: Duration? = nil
    /// Makes the defaults.
    public init() {}
}

/// How the data-path engine runs.
public struct DataPathOptions: Sendable {
    /// How the data path lays out its schedule (default ``DataPathScheduleLayout/preferred``; `swapped` and
    /// `channel6` are test knobs).
    public var scheduleLayout: DataPathScheduleLayout = .preferred
    /// An experiment (`WAWARE_DP_NDL_TX=1` in the CLI): the NAF that completes a data-path setup (open confirm,
    /// key install) goes after the peer's schedule is installed, on the channel of the common committed slots
    /// rather than the DW's. Default false.
    public var transmitsOnDataLink = false
    /// Makes the defaults.
    public init() {}
}

extension NANEngine {
    /// Runs a discovery engine as a client of `runtime` for the duration of `body`; every session ends when
    /// it returns. Registers for discovery's events (cluster, DW, transmit status, offload events and, in
    /// user space, SDFs) before calling `body`, so start NAN in `body` (``NANRuntime/start(_:)``).
    public static func run<Result: Sendable>(
        on runtime: NANRuntime, options: DiscoveryOptions = DiscoveryOptions(),
        _ body: (NANEngine) async throws -> Result
    ) async throws -> Result {
        let radio = try await NL80211Radio(runtime: runtime)
        var engineOptions = DiscoveryEngine.Options()
        engineOptions.logger = options.logger.labelled("discovery")
        if let window = options.remembersPublishesFor {
            // One DW period is 512 TU = 524.288 ms.
            let periods = Int((window / .microseconds(524_288)).rounded(.up))
            engineOptions.recentPublishPeriods = max(1, periods)
            engineOptions.recentPublishLimit = 1024
        }
        let dataPath = try await DataPathTap.make(
            runtime: runtime, logger: options.logger.labelled("data-path"),
            scheduleLayout: options.dataPath.scheduleLayout,
            transmitsOnDataLink: options.dataPath.transmitsOnDataLink)
        return try await run(radio: radio, codec: WireCodec(), options: engineOptions, dataPath: dataPath, body)
    }

    /// Brings up NAN on `adapter` with the runtime's start policy and runs a discovery engine on it for the
    /// duration of `body`: ``NANRuntime/run(on:interfaceName:eventBufferSize:logger:_:)``, the engine registered,
    /// ``NANRuntime/start(_:)``, a cluster joined and the first DW after it, then `body`. Every session ends and NAN stops when `body`
    /// returns or throws. `address`: the NMI's address (nil: the adapter's, as the kernel gives it).
    ///
    /// - Throws: `NetlinkError` from the kernel (no permission, no NAN, …), `DiscoveryError.noCluster`,
    ///   or whatever `body` throws.
    public static func run<Result: Sendable>(
        on adapter: Adapter, start: NANStartOptions = NANStartOptions(), clusterTimeout: Duration = .seconds(10),
        options: DiscoveryOptions = DiscoveryOptions(), address: MACAddress? = nil,
        _ body: (NANEngine) async throws -> Result
    ) async throws -> Result {
        try await run(
            on: adapter, start: start, clusterTimeout: clusterTimeout, options: options, address: address,
            beforeStart: { _ in () }
        ) { engine, _ in try await body(engine) }
    }

    /// As the `run(on:start:clusterTimeout:options:_:)` above, for a program with other clients of
    /// the runtime: `beforeStart` runs once the engine is registered and before NAN starts (register other
    /// clients there, such as pairing's Authentication frames, so they miss nothing), and its value is handed
    /// to `body` with the engine and the runtime.
    public static func run<Prepared: Sendable, Result: Sendable>(
        on adapter: Adapter, start: NANStartOptions = NANStartOptions(), clusterTimeout: Duration = .seconds(10),
        options: DiscoveryOptions = DiscoveryOptions(), address: MACAddress? = nil,
        beforeStart: (NANRuntime) async throws -> Prepared,
        _ body: (NANEngine, (runtime: NANRuntime, prepared: Prepared)) async throws -> Result
    ) async throws -> Result {
        try await NANRuntime.run(on: adapter, address: address, logger: options.logger) { runtime in
            try await run(on: runtime, options: options) { engine in
                let prepared = try await beforeStart(runtime)
                try await runtime.start(start)
                // The engine's own wait: the join, then the first DW notification after it (services
                // started before that DW can wait a whole extra DW on hwsim).
                guard await engine.core.waitForCluster(timeout: clusterTimeout) else {
                    throw DiscoveryError.noCluster
                }
                await engine.installDeviceSchedule()
                return try await body(engine, (runtime, prepared))
            }
        }
    }
}

public import NANLogging
public import NANSystem
public import NANWire

/// The NAN device runtime: the one owner of a radio's NAN for the duration of a closure.
///
/// It owns the nl80211 session, the NAN management interface (NMI, created with `SOCKET_OWNER`, so the
/// kernel removes it if the process dies) and the one start/stop policy (``NANStartOptions``). It reads the
/// session's events once and fans them out to the clients that registered for them, by event kind and by
/// action-frame prefix (``events(for:)``), each into its own bounded stream, in the manner of iwd's frame
/// watches. Clients: the discovery engine (``NANEngine/run(on:options:_:)-(NANRuntime,_,_)``), the data path
/// (`DataPathTap`) and pairing (``RuntimePairingLink``). Every client learns the fate of its frames from the
/// one transmit service (``acknowledgement(of:within:)``).
///
/// ```swift
/// try await NANRuntime.run(on: adapter) { runtime in
///     // Register before starting, so no event is missed.
///     let naf = try await runtime.events(for: NANEventInterest(
///         kinds: [.interfaces, .schedule, .stations, .keys], framePrefixes: [NANFramePrefix.nanAction]))
///     try await runtime.start(NANStartOptions())
///     guard await runtime.waitForCluster(timeout: .seconds(10)) != nil else { throw … }
///     // Requests of any kind run on the same session, concurrently with every client:
///     let ndi = try await runtime.session.createInterface(on: runtime.adapter.wiphy, name: "nan-data0", type: .nanData)
///     let cookie = try await runtime.transmit(requestNAF)
///     let acknowledged = await runtime.acknowledgement(of: cookie, within: .seconds(2))
///     for try await event in naf { … }
/// }
/// ```
///
/// A client that is a data-path engine, for instance, registers for NAFs (``NANFramePrefix/nanAction``)
/// and station, key, schedule and interface events; sends its NAFs with ``transmit(_:frequency:)``;
/// and issues NEW_INTERFACE (NAN data), station, key and schedule requests on ``session`` while discovery runs.
/// A daemon hosting several programs would own one runtime and register a client per program.
public actor NANRuntime {
    /// The radio.
    public nonisolated let adapter: Adapter
    /// The nl80211 session. Its requests may be sent from any task; do not read its `events` (the runtime
    /// does): register with ``events(for:)`` instead.
    public nonisolated let session: NL80211Session
    /// The NAN management interface (NMI) this runtime created.
    public nonisolated let managementInterface: NANInterface
    /// Who runs discovery on this radio: user space (we send SDFs) or the driver.
    public nonisolated let discoveryMode: DiscoveryMode
    /// The caller's logger (label `runtime`); clients label their own with ``NANLogging/Logger/labelled(_:)``.
    public nonisolated let logger: Logger

    nonisolated let router: NANEventRouter
    private var registeredPrefixes: Set<[UInt8]> = []
    private var authenticationRegistered = false
    private var started: NANConfiguration?
    private var stopped = false

    init(adapter: Adapter, session: NL80211Session, managementInterface: NANInterface, logger: Logger = .disabled) {
        self.adapter = adapter
        self.logger = logger.labelled("runtime")
        self.session = session
        self.managementInterface = managementInterface
        self.discoveryMode = adapter.nan.capabilities?.userSpaceDiscoveryEngine == true ? .userSpace : .offloaded
        self.router = NANEventRouter(wiphy: managementInterface.wiphy, managementInterface: managementInterface.wdev)
    }

    /// Our NMI address: what peers see.
    public nonisolated var localAddress: MACAddress { managementInterface.address }

    /// Opens a session, creates the NAN management interface on `adapter`, and runs `body` with the runtime;
    /// when `body` returns or throws, NAN stops (if it was started) and the session closes, which removes
    /// the interface.
    ///
    /// - Parameters:
    ///   - adapter: a radio whose NAN is supported.
    ///   - interfaceName: the NMI's name (it has no netdev); nil means `nan<wiphy>`.
    ///   - address: the NMI's address (``NANWire/MACAddress/randomManagementAddress()`` for a random one); nil
    ///     keeps the one the kernel gives (the adapter's).
    ///   - eventBufferSize: how many kernel events the session holds before the runtime routes them.
    ///   - logger: the caller's logger, for the runtime and its clients; disabled by default.
    /// - Throws: the kernel's `NetlinkError` (no permission, no NAN, …) or what `body` throws.
    public static func run<Result: Sendable>(
        on adapter: Adapter, interfaceName: String? = nil, address: MACAddress? = nil, eventBufferSize: Int = 1024,
        logger: Logger = .disabled, _ body: (NANRuntime) async throws -> Result
    ) async throws -> Result {
        try await NL80211.withSession(eventBufferSize: eventBufferSize) { session in
            let name = interfaceName ?? "nan\(adapter.wiphy.rawValue)"
            let interface = try await session.createNANInterface(on: adapter.wiphy, name: name, address: address)
            let runtime = NANRuntime(
                adapter: adapter, session: session, managementInterface: interface, logger: logger)
            runtime.logger.debug("\(adapter.name): NAN interface \(interface.name) (\(interface.address)) created")
            // Events go from the socket's reader straight into the router and on to each client's
            // stream: no task of our own in between (NAN is not started yet, so nothing is missed).
            let router = runtime.router
            session.redirectEvents(
                to: { router.route($0) },
                finished: { error in
                    if let error { router.finish(throwing: error) } else { router.finish() }
                })
            // A peer that stopped acknowledging loses its NMI station before the kernel's loss count on it
            // panics the machine (UnacknowledgedPeers); whoever needs the station adds it again.
            let logger = runtime.logger
            router.whenUnresponsive { peer in
                Task {
                    do {
                        try await session.removeStation(.managementInterface(interface.wdev), peer: peer)
                        logger.debug(
                            "\(peer) left \(UnacknowledgedPeers.limit) frames in a row unacknowledged: its station removed"
                        )
                    } catch {
                        logger.trace(
                            "\(peer) left \(UnacknowledgedPeers.limit) frames unacknowledged; no station removed: \(error)"
                        )
                    }
                }
            }
            do {
                let result = try await body(runtime)
                await runtime.stopAtEnd()
                return result
            } catch {
                await runtime.stopAtEnd()
                throw error
            }
        }
    }

    /// Registers a client: its events arrive on the returned stream, in order, until the session ends (the
    /// stream finishes, or throws the session's failure) or the client stops iterating it. New frame
    /// prefixes are registered with the kernel before this returns. Register before ``start(_:)`` to miss
    /// nothing.
    ///
    /// The stream also carries, whatever the interest: ``NANSystem/NL80211Event/overrun(droppedEvents:)``
    /// (`nil`: the kernel socket overflowed; a count: this client's buffer was full and that many events
    /// were dropped), and the removal of the NMI or the radio.
    ///
    /// - Throws: the kernel's `NetlinkError` if it refuses a frame registration.
    public func events(for interest: NANEventInterest) async throws -> AsyncThrowingStream<NL80211Event, any Error> {
        let stream = router.register(interest)
        for prefix in interest.framePrefixes where !registeredPrefixes.contains(prefix) {
            try await session.registerFrames(on: managementInterface.wdev, matching: prefix)
            registeredPrefixes.insert(prefix)
        }
        if interest.authenticationFrames, !authenticationRegistered {
            try await session.registerFrames(
                on: managementInterface.wdev, type: .authentication, matching: NANEventInterest.pasnPrefix)
            authenticationRegistered = true
        }
        return stream
    }

    /// Starts NAN with the one start policy: the configurations of ``NANStartOptions/configurations(for:)``
    /// in order, the next one tried when the kernel refuses one (dual band falling back to 2.4 GHz).
    ///
    /// - Returns: the configuration the kernel accepted.
    /// - Throws: the kernel's `NetlinkError` for the last configuration refused (at once, with no other
    ///   configuration tried, when it is `alreadyRunning`: NAN runs on the radio for another owner);
    ///   ``NANRuntimeError`` `alreadyStarted`.
    @discardableResult
    public func start(_ options: NANStartOptions = NANStartOptions()) async throws -> NANConfiguration {
        guard started == nil, !stopped else { throw NANRuntimeError.alreadyStarted }
        let attempts = options.configurations(for: adapter)
        var lastError: (any Error)?
        for configuration in attempts {
            do {
                try await session.startNAN(on: managementInterface.wdev, configuration: configuration)
                started = configuration
                return configuration
            } catch let error as NetlinkError where error.code == .alreadyRunning {
                // Another NAN owns the radio: other bands would be refused the same way.
                throw error
            } catch {
                logger.warning(
                    "\(adapter.name) refused NAN with bands \(configuration.bands.map { "\($0)" } ?? "default"): \(error)"
                )
                lastError = error
            }
        }
        throw lastError ?? NANRuntimeError.sessionEnded
    }

    /// The configuration NAN runs with, or nil before ``start(_:)`` and after ``stop(deleteInterface:)``.
    public var configuration: NANConfiguration? { stopped ? nil : started }

    /// The cluster last joined, if any.
    public nonisolated var cluster: MACAddress? { router.cluster }

    /// Waits until NAN has joined (or started) a cluster; returns its ID, or nil on timeout or when the
    /// session ends.
    public nonisolated func waitForCluster(timeout: Duration) async -> MACAddress? {
        if case .cluster(let id) = await router.waitForCluster(timeout: timeout) { return id }
        return nil
    }

    /// Stops NAN and, with `deleteInterface`, deletes the NMI now rather than when the session closes.
    /// Runs in its own task, so it works from a cancelled one (SIGINT). Idempotent.
    ///
    /// - Throws: the kernel's `NetlinkError`.
    public func stop(deleteInterface: Bool = false) async throws {
        guard !stopped else { return }
        stopped = true
        let session = self.session
        let wdev = managementInterface.wdev
        let wasStarted = started != nil
        try await Task {
            if wasStarted { try await session.stopNAN(on: wdev) }
            if deleteInterface { try await session.deleteInterface(wdev) }
        }.value
    }

    /// The end of ``run(on:interfaceName:eventBufferSize:logger:_:)``: stops NAN if still running; errors are moot
    /// (closing the session removes the interface anyway).
    private func stopAtEnd() async {
        try? await stop()
    }
}

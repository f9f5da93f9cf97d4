public import FoundationEssentials
@_exported public import NANLogging
import NANDaemon
import NANEngine
public import NANWire
import NANSystem
internal import Synchronization

/// Wi-Fi Aware on one adapter, for the duration of a closure: the radio that publishers and subscribers
/// run on. Apple's framework has one system-wide radio and no such object; on Linux a program chooses
/// the adapter and owns NAN on it while it runs.
///
/// ```swift
/// let service = try WASubscribableService.named("_file-share._tcp")
/// try await WASystem.run { system in
///     for try await event in system.subscribe(to: service, from: .allPairedDevices) {
///         if case .discovered(let endpoint) = event { print("found", endpoint) }
///     }
/// }
/// ```
///
/// `run` brings NAN up (a NAN interface owned by this process, which the kernel removes if the process
/// dies), waits to join a cluster, calls the closure, and stops every session and NAN when it returns.
public final class WASystem: Sendable {
    /// The adapter's phy name, e.g. `phy0`.
    public let adapterName: String
    /// Our NAN management interface (NMI) address: what peers see. Random at every start unless
    /// ``WASystemOptions/keepsAdapterAddress``.
    public let localAddress: MACAddress
    /// The paired-device store that device selections are resolved in.
    public let store: WADeviceStore
    /// How this system discovers: ``WATransport/synchronized`` (a NAN cluster) or
    /// ``WATransport/unsynchronized`` (USD), never `.automatic` (``WASystemOptions/transport`` resolved).
    public let transport: WATransport
    /// Things worth telling the user once the system is up, e.g. that USD leaves the channel of the access point
    /// the station is connected to. For the tool.
    @_spi(Tools) public let startWarnings: [String]
    /// Who owns the radio for this system: wawared (``WASystemBackend/daemon``) or this process
    /// (``WASystemBackend/inProcess``), never `.automatic`.
    public let owner: WASystemBackend

    let backend: any DiscoveryBackend
    let runtimeDirectory: URL
    /// Data paths shared by connections, and live connections for de-duplication.
    let connections = ConnectionRegistry()
    private let tasks = Mutex<(next: Int, running: [Int: Task<Void, Never>])>((0, [:]))
    /// Where pairing leaves an ND-PMK per peer for NCS-PK-PASN data paths.
    let pairedDataPathKeys = PairedDataPathKeys()
    /// The pairing engine (verification of stored pairings, both roles); nil on a device that never paired
    /// or a radio that does not pass Authentication frames to user space.
    let pairing = Mutex<PairingEngine?>(nil)
    /// Who listens to verification outcomes (``verifications()``).
    let verificationListeners = Mutex<(next: Int, sinks: [Int: AsyncStream<WAVerificationEvent>.Continuation])>(
        (0, [:]))
    /// Notes in the store when paired devices are recognised (at most once a minute per device).
    let lastSeen = LastSeenRecorder()

    init(
        backend: any DiscoveryBackend, adapterName: String, store: WADeviceStore, runtimeDirectory: URL,
        transport: WATransport = .synchronized, startWarnings: [String] = [], owner: WASystemBackend = .inProcess
    ) {
        self.owner = owner
        self.backend = backend
        self.transport = transport
        self.startWarnings = startWarnings
        self.adapterName = adapterName
        self.localAddress = backend.localAddress
        self.store = store
        self.runtimeDirectory = runtimeDirectory
    }

    /// Brings up Wi-Fi Aware on an adapter and runs `body` with it; every session and NAN stop when it returns.
    ///
    /// - Parameters:
    ///   - adapter: A phy name (`phy0`), wiphy index (`0`) or interface name; `nil` takes the only NAN-capable adapter.
    ///   - options: Transport, master preference, cluster timeout and the paired-device store.
    ///   - body: What to do with the system.
    /// - Returns: What `body` returns.
    /// - Throws: ``WAError`` (`adapterNotFound`, `wifiAwareUnsupported`, `permissionDenied`, `noRadioResources`,
    ///   `kernel`), or what `body` throws, unchanged.
    public static func run<Result: Sendable>(
        adapter: String? = nil, options: WASystemOptions = WASystemOptions(),
        _ body: (WASystem) async throws -> Result
    ) async throws -> Result {
        let chosen: Adapter
        let transport: WATransport
        do {
            let adapters = try await NL80211.withSession { session in try await session.adapters() }
            chosen = try AdapterSelection.select(adapter, from: adapters)
            transport = try options.transport.resolved(for: chosen)
        } catch {
            throw WAError.from(error, while: "list Wi-Fi adapters")
        }
        if transport == .unsynchronized { return try await runUnsynchronized(on: chosen, options: options, body) }
        if options.backend != .inProcess, let served = try await runServed(on: chosen, options: options, body) {
            return served.value
        }
        var start = NANStartOptions()
        start.masterPreference = options.masterPreference
        var discovery = DiscoveryOptions()
        discovery.logger = options.logger
        discovery.dataPath.scheduleLayout =
            options.swapsDataPathSchedule
            ? .swapped
            : options.limitsDataPathScheduleToChannel6
                ? .channel6 : options.performanceMode?.scheduleLayout ?? .preferred
        discovery.dataPath.transmitsOnDataLink = options.transmitsDataPathSetupOnDataLink
        do {
            let identity = (try? options.store.existingOwnIdentityKey()).flatMap { NANIdentityKey(bytes: $0.bytes) }
            return try await NANEngine.run(
                on: chosen, start: start, clusterTimeout: options.clusterTimeout, options: discovery,
                address: options.keepsAdapterAddress ? nil : .randomManagementAddress(),
                beforeStart: { runtime in
                    // Pairing verification (PASN Authentication frames), for a device that has paired.
                    identity == nil ? nil : try? await runtime.events(for: PairingEngine.runtimeInterest)
                }
            ) { engine, context in
                let system = WASystem(
                    backend: engine, adapterName: chosen.name, store: options.store,
                    runtimeDirectory: options.runtimeDirectory)
                // A device that has paired (it holds its own NIK) carries a NIRA in its publish and
                // subscribe frames, so its paired peers recognise it whatever its NMI, and verifies its
                // paired peers with their pairing keys (either role).
                if let nik = identity, let nira = try? nik.identityResolution(nmi: engine.localAddress) {
                    await engine.setIdentityResolution(nira)
                    if let frames = context.prepared {
                        system.startPairing(identity: nik, runtime: context.runtime, engine: engine, frames: frames)
                    }
                }
                return try await system.scope(body)
            }
        } catch let error as BodyError {
            throw error.error
        } catch {
            throw WAError.from(error, while: "start Wi-Fi Aware on \(chosen.name)")
        }
    }

    /// Runs `body` over wawared when it answers at ``WASystemOptions/daemonSocket``: nil when it does not and
    /// the options let this process own the radio itself.
    static func runServed<Result: Sendable>(
        on chosen: Adapter, options: WASystemOptions, _ body: (WASystem) async throws -> Result
    ) async throws -> Box<Result>? {
        let first: DaemonConnection
        do {
            first = try await DaemonConnection.connect(path: options.daemonSocket, adapter: chosen.name)
        } catch {
            switch error.code {
            case "unavailable" where options.backend == .automatic:
                return nil
            case "permissionDenied":
                throw WAError(.permissionDenied, message: error.message)
            default:
                throw WAError(.connectionFailed, message: "wawared: \(error.message)")
            }
        }
        let keeper = DaemonConnectionKeeper(path: options.daemonSocket, adapter: chosen.name, first: first)
        let system = WASystem(
            backend: DaemonBackend(keeper: keeper, first: first), adapterName: chosen.name, store: options.store,
            runtimeDirectory: options.runtimeDirectory, owner: .daemon)
        do {
            let value = try await system.scope(body)
            await keeper.close()
            return Box(value: value)
        } catch let error as BodyError {
            await keeper.close()
            throw error.error
        }
    }

    /// A value that may be nil itself.
    struct Box<Value: Sendable>: Sendable {
        let value: Value
    }

    /// Runs `body`, then ends every session it left running and waits for them to stop on the radio.
    /// Errors from `body` come out wrapped in ``BodyError`` so that `run` passes them on unchanged.
    func scope<Result: Sendable>(_ body: (WASystem) async throws -> Result) async throws -> Result {
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(self))
        } catch {
            result = .failure(BodyError(error: error))
        }
        await endSessions()
        return try result.get()
    }

    /// Publishes a declared service to the selected devices: Apple's
    /// `NetworkListener(for: .wifiAware(.connecting(to: service, from: devices)))`.
    ///
    /// Nothing happens on the radio until the returned sequence is iterated.
    ///
    /// - Parameters:
    ///   - service: The service, from the services file (``WAPublishableService/named(_:)``).
    ///   - devices: Which peers to report (default: every paired device).
    ///   - parameters: How to publish.
    public func publish(
        _ service: WAPublishableService, to devices: WADeviceSelection = .allPairedDevices,
        parameters: WAPublisherParameters = WAPublisherParameters()
    ) -> WAPublisher {
        WAPublisher(service: service, devices: devices, parameters: parameters, system: self)
    }

    /// Subscribes to a declared service on the selected devices: Apple's
    /// `NetworkBrowser(for: .wifiAware(.connecting(to: devices, from: service)))`.
    ///
    /// Nothing happens on the radio until the returned sequence is iterated.
    ///
    /// - Parameters:
    ///   - service: The service, from the services file (``WASubscribableService/named(_:)``).
    ///   - devices: Which publishers to report (default: every paired device).
    ///   - parameters: How to subscribe.
    public func subscribe(
        to service: WASubscribableService, from devices: WADeviceSelection = .allPairedDevices,
        parameters: WASubscriberParameters = WASubscriberParameters()
    ) -> WASubscriber {
        WASubscriber(service: service, devices: devices, parameters: parameters, system: self)
    }

    /// The radio's latest facts about an endpoint's device, or `nil` if it was never heard.
    public func performanceReport(for endpoint: WAEndpoint) async -> WAPerformanceReport? {
        await backend.peers().first { $0.address == endpoint.address }.map { WAPerformanceReport($0.radio) }
    }

    /// Every NAN device heard so far, most recently heard first, with the radio's facts about it. Only
    /// devices that send discovery frames (publishers, active subscribers, follow-ups) are heard, and only
    /// while a publish or subscribe runs or NAN listens (``run(adapter:options:_:)`` listens from the start).
    public func peers() async -> [WAPeer] {
        await backend.peers().map { WAPeer(address: $0.address, performance: WAPerformanceReport($0.radio)) }
    }

    // MARK: Internals

    /// Sends a follow-up from a session to one of its endpoints.
    func send(
        _ message: [UInt8], to endpoint: WAEndpoint, from handle: SessionHandle, service: WAServiceName
    ) async throws(WAError) -> WADeliveryStatus {
        guard let local = handle.instanceID else {
            throw WAError(
                .connectionTerminated,
                message: "the session of \(service) is not running; iterate it first, and send before it ends")
        }
        guard endpoint.localInstanceID == local, endpoint.service == service else {
            throw WAError(
                .invalidArgument, message: "endpoint \(endpoint) was not reported by this session of \(service)")
        }
        do {
            let status = try await backend.send(
                message, from: local, to: endpoint.address, peerInstanceID: endpoint.instanceID)
            switch status {
            case .acknowledged: return .acknowledged
            case .notAcknowledged: return .notAcknowledged
            case .handedToDriver: return .handedToDriver
            }
        } catch {
            throw WAError.from(error, while: "send a message to \(endpoint)")
        }
    }

    /// Starts a session task that ``scope(_:)`` ends when the system's closure returns.
    func startTask(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        tasks.withLock { tasks in
            tasks.next += 1
            let key = tasks.next
            let task = Task { [weak self] in
                await operation()
                _ = self?.tasks.withLock { $0.running.removeValue(forKey: key) }
            }
            tasks.running[key] = task
            return task
        }
    }

    /// Cancels the sessions still running and waits until they stopped on the radio.
    func endSessions() async {
        let running = tasks.withLock { Array($0.running.values) }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// The adapter `reference` names, or the default one, by the rule the tool shares (``AdapterSelection``);
    /// it must be able to do Wi-Fi Aware.
    static func select(_ reference: String?, from adapters: [Adapter]) throws(WAError) -> Adapter {
        let chosen = try AdapterSelection.select(reference, from: adapters)
        try AdapterSelection.requireNAN(chosen)
        return chosen
    }

    /// The engine's matching filter for declared elements; `nil` for none.
    static func matchingFilter(_ elements: [[UInt8]]) -> MatchingFilter? {
        elements.isEmpty ? nil : try? MatchingFilter(elements: elements)
    }
}

/// An error thrown by the closure given to ``WASystem/run(adapter:options:_:)``, kept apart from the
/// errors of the layers below so that it is passed on unchanged.
struct BodyError: Error {
    let error: any Error
}

/// How ``WASystem/run(adapter:options:_:)`` brings up Wi-Fi Aware.
public struct WASystemOptions: Sendable {
    /// How to discover: ``WATransport/synchronized`` (the default: a NAN cluster), ``WATransport/unsynchronized``
    /// (USD, on adapters without NAN too) or ``WATransport/automatic`` (USD when the adapter lacks NAN).
    /// CLI: `--usd`, otherwise automatic.
    public var transport: WATransport = .synchronized
    /// NAN master preference, 1-255 (default 2; higher makes this device more likely to lead the cluster).
    public var masterPreference: UInt8 = 2
    /// How long to wait for the radio to join a NAN cluster before giving up (default 10 s).
    public var clusterTimeout: Duration = .seconds(10)
    /// The paired-device store that device selections are resolved in (default ``WADeviceStore/default``).
    public var store: WADeviceStore = .default
    /// Where the per-service locks live: `$XDG_RUNTIME_DIR/waware`, or `/run/waware`.
    public var runtimeDirectory: URL = ServiceLease.defaultDirectory()
    /// The caller's logger; the engine's timing trace (one line per radio event) comes at `trace` level.
    /// Disabled by default.
    public var logger: Logger = .disabled
    /// Keep the adapter's NAN management address rather than a fresh random one (the default: a locally
    /// administered random unicast address at every start, so sightings of this device cannot be linked;
    /// paired devices recognise it by its NIRA). CLI: `--fixed-address`. Default false.
    public var keepsAdapterAddress = false
    // The three switches below are test knobs and experiments, not API: they are SPI (`@_spi(Experiments)
    // import WiFiAware`), for the CLI's WAWARE_DP_* environment variables.

    /// A test knob: our data-path schedule puts the 5 GHz channel in slot 1 and channel 6 in the other slots,
    /// the reverse of the usual layout, so a peer shares no slot with it and must take our counter-proposal
    /// (`WAWARE_DP_SCHEDULE=swapped` in the CLI; needs 5 GHz). Default false.
    @_spi(Experiments) public var swapsDataPathSchedule = false
    /// A test knob: our data-path schedule commits channel 6 only (every slot outside the DWs), as a
    /// 2.4 GHz-only device does, even where 5 GHz is allowed; a peer's 5 GHz slots are then on a channel we
    /// lack (`WAWARE_DP_SCHEDULE=channel6` in the CLI). Overrides ``performanceMode``. Default false.
    @_spi(Experiments) public var limitsDataPathScheduleToChannel6 = false
    /// An experiment: the frame that completes a data-path setup (the open confirm, the key install) is sent
    /// once the peer's schedule is installed, on the channel of the common committed slots instead of at the
    /// next DW (`WAWARE_DP_NDL_TX=1` in the CLI; docs/benchmarks.md). Default false.
    @_spi(Experiments) public var transmitsDataPathSetupOnDataLink = false
    /// The performance mode of this system's data paths (Apple's `WAPerformanceMode`). It sets the schedule
    /// the radio commits, which every data path on the adapter shares: ``WAPerformanceMode/bulk`` one
    /// contiguous block of 15 slots, ``WAPerformanceMode/realtime`` 30 slots with channel 6 spread evenly
    /// over the period (docs/performance.md). Both sides should use the same. Default nil: no mode, the
    /// default schedule (every slot outside the discovery windows, the 5 GHz channel in one long run).
    public var performanceMode: WAPerformanceMode? = nil

    /// Who owns the radio: wawared when it answers (``WASystemBackend/automatic``, the default), wawared
    /// only, or this process only (today's behaviour before the daemon). CLI: `WAWARE_DAEMON=auto|on|off`.
    public var backend: WASystemBackend = .automatic
    /// Where wawared listens (default `/run/waware/wawared.socket`; CLI: `WAWARED_SOCKET`).
    public var daemonSocket: String = DaemonProtocol.defaultSocketPath

    /// The defaults.
    public init() {}
}

/// Who owns the radio a ``WASystem`` runs on.
public enum WASystemBackend: String, Sendable, Hashable {
    /// wawared when it answers on its socket, otherwise this process.
    case automatic
    /// wawared, which serves several programs on one radio; failing when it does not answer.
    case daemon
    /// This process, alone on the radio while it runs.
    case inProcess
}

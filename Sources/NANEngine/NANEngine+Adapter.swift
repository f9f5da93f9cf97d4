public import NANSystem
import NANWire

/// How `NANEngine.run(on:)` brings up NAN.
public struct NANStartOptions: Sendable {
    /// NAN master preference (2...254 usual).
    public var masterPreference: UInt8 = 2
    /// Bands; nil means 2.4 and 5 GHz when the adapter has both (a second DW 128 TU after the 2.4 GHz
    /// one roughly halves the wait for the next DW), falling back to the kernel's choice (2.4 GHz) if
    /// the kernel refuses 5 GHz (e.g. under the world regulatory domain).
    public var bands: NANBands? = nil
    /// Name for the NAN interface (it has no netdev); nil derives one from the wiphy index.
    public var interfaceName: String? = nil
    /// How long to wait for the radio to join a NAN cluster before giving up.
    public var clusterTimeout: Duration = .seconds(10)
    /// Receives one line per DW and per frame sent or received (timing diagnostics); nil for none.
    public var trace: (@Sendable (String) -> Void)? = nil
    /// Makes the defaults.
    public init() {}
}

extension NANEngine {
    /// Brings up NAN on `adapter` and runs a discovery engine on it for the duration of `body`.
    ///
    /// Creates a NAN interface owned by this process (the kernel removes it if the process dies), chooses
    /// user-space or offloaded discovery from the adapter's capabilities, starts NAN (with DW
    /// notifications and SDF registration on the user-space path), waits until a cluster is joined,
    /// then calls `body`. Every session ends and NAN stops when `body` returns or throws.
    ///
    /// - Throws: `NetlinkError` from the kernel (no permission, no NAN, …), `DiscoveryError.noCluster`,
    ///   or whatever `body` throws.
    public static func run<Result: Sendable>(
        on adapter: Adapter, options: NANStartOptions = NANStartOptions(),
        _ body: (NANEngine) async throws -> Result
    ) async throws -> Result {
        let userSpace = adapter.nan.capabilities?.userSpaceDiscoveryEngine ?? false
        return try await NL80211.withSession(eventBufferSize: 1024) { session in
            let name = options.interfaceName ?? "nan\(adapter.wiphy.rawValue)"
            let interface = try await session.createNANInterface(on: adapter.wiphy, name: name)
            if userSpace {
                try await session.registerFrames(on: interface.wdev, matching: NANFramePrefix.serviceDiscovery)
            }
            let tap = try await DataPathTap.make(session: session, interface: interface, adapter: adapter)
            let radio = NL80211Radio(
                session: session, interface: interface, discoveryMode: userSpace ? .userSpace : .offloaded,
                observer: tap?.observer)
            var configuration = NANConfiguration(
                masterPreference: options.masterPreference, bands: options.bands, notifyDiscoveryWindows: userSpace)
            let dualBand: NANBands = [.band2GHz, .band5GHz]
            if options.bands == nil && adapter.nan.bands.isSuperset(of: dualBand) {
                configuration.bands = dualBand
                do {
                    try await session.startNAN(on: interface.wdev, configuration: configuration)
                } catch {
                    configuration.bands = nil
                    try await session.startNAN(on: interface.wdev, configuration: configuration)
                }
            } else {
                try await session.startNAN(on: interface.wdev, configuration: configuration)
            }
            let dataPath = await tap?.start(fiveGHzDiscovery: configuration.bands?.contains(.band5GHz) ?? false, trace: options.trace)
            defer { tap?.stop() }
            do {
                var engineOptions = DiscoveryEngine.Options()
                engineOptions.trace = options.trace
                let result = try await run(radio: radio, codec: WireCodec(), options: engineOptions, dataPath: dataPath) { engine in
                    guard await engine.core.waitForCluster(timeout: options.clusterTimeout) else {
                        throw DiscoveryError.noCluster
                    }
                    return try await body(engine)
                }
                try? await session.stopNAN(on: interface.wdev)
                return result
            } catch {
                try? await session.stopNAN(on: interface.wdev)
                throw error
            }
        }
    }
}

public import NANWire

/// A discovery engine with no radio, fed received frames and discovery windows by the caller: the hook
/// through which the spoofed-frame storm benchmark (`tools/storm-bench`) drives hostile air into the real
/// engine. What the engine sends goes nowhere and is never acknowledged. SPI for benchmarks and tests
/// (`@_spi(Benchmark) import NANEngine`), not for programs.
@_spi(Benchmark)
public struct OfflineDiscoveryEngine: Sendable {
    let core: DiscoveryEngine

    /// Makes an engine whose NMI is `localAddress`, already in `cluster` (frames of other clusters are
    /// ignored, as on a radio).
    public init(localAddress: MACAddress, cluster: MACAddress) async {
        core = DiscoveryEngine(radio: OfflineRadio(localAddress: localAddress), codec: WireCodec())
        await core.handle(.clusterJoined(cluster))
    }

    /// The engine's public face: publish and subscribe on it as on a radio.
    public var engine: NANEngine { NANEngine(core: core) }

    /// Hands the engine one received management frame (header included), as the radio would.
    public func receive(_ frame: [UInt8], frequency: Int = 2437, signal: Int = -50) async {
        await core.handle(.frameReceived(bytes: frame, frequency: frequency, signal: signal))
    }

    /// Tells the engine a discovery window is starting on `frequency`.
    public func discoveryWindow(frequency: Int = 2437) async {
        await core.handle(.discoveryWindow(frequency: frequency))
    }

    /// How many entries the engine's tables fed by received frames hold now.
    public func tableSizes() async -> DiscoveryTableSizes { await core.tableSizes() }
}

/// The sizes of the discovery engine's tables that received frames feed, each bounded by count and age.
@_spi(Benchmark)
public struct DiscoveryTableSizes: Sendable, Hashable {
    /// Peers in the peer table.
    public var peers: Int
    /// Peer instances remembered as reported, summed over the local functions.
    public var reportedPeerInstances: Int
    /// The largest such memory of one local function.
    public var largestReported: Int
}

extension DiscoveryEngine {
    func tableSizes() -> DiscoveryTableSizes {
        let reported = functions.values.map(\.reported.count)
        return DiscoveryTableSizes(
            peers: peers.count, reportedPeerInstances: reported.reduce(0, +), largestReported: reported.max() ?? 0)
    }
}

/// The radio of an ``OfflineDiscoveryEngine``: sends into the void, never reports a TX status.
struct OfflineRadio: DiscoveryRadio {
    let localAddress: MACAddress
    var discoveryMode: DiscoveryMode { .userSpace }
    var events: AsyncStream<RadioEvent> { AsyncStream { $0.finish() } }
    /// Only follow-ups wait for a status (none comes here), so one cookie serves every frame.
    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 { 1 }
    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle {
        throw DiscoveryError.offloadUnavailable
    }
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? { nil }
    func removeFunction(cookie: UInt64) async throws {}
}

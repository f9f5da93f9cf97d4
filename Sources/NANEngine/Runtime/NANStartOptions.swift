public import NANSystem
public import NANWire

/// How a ``NANRuntime`` starts NAN: the one start policy of every program and command.
public struct NANStartOptions: Sendable, Hashable {
    /// Which bands to ask for.
    public enum Bands: Sendable, Hashable {
        /// 2.4 and 5 GHz when the adapter has both (a second DW 128 TU after the 2.4 GHz one roughly halves
        /// the wait for the next DW), else the kernel's choice; if the kernel refuses 5 GHz (e.g. under the
        /// world regulatory domain) NAN starts again with the kernel's choice (2.4 GHz).
        case dualBandIfAvailable
        /// The kernel's choice (2.4 GHz).
        case kernelDefault
        /// Exactly these; a refusal is an error.
        case exactly(NANBands)
    }

    /// Which cluster to start when none is found.
    public enum ClusterID: Sendable, Hashable {
        /// The driver's choice.
        case driverDefault
        /// A random `50:6f:9a:01:xx:xx` when the adapter accepts a configuration (CONFIGURABLE_SYNC), else
        /// the driver's choice. mac80211_hwsim otherwise announces cluster 00:00:00:00:00:00.
        case randomIfConfigurable
        /// This cluster ID (needs CONFIGURABLE_SYNC).
        case fixed(MACAddress)
    }

    /// NAN master preference (2...254 usual).
    public var masterPreference: UInt8 = 2
    /// Bands.
    public var bands: Bands = .dualBandIfAvailable
    /// The cluster to start.
    public var clusterID: ClusterID = .driverDefault
    /// Discovery-window notifications; nil turns them on exactly when discovery runs in user space.
    public var notifyDiscoveryWindows: Bool? = nil

    /// The defaults: master preference 2, dual band if available, the driver's cluster ID.
    public init() {}

    /// The NAN configurations to try, in order, on `adapter`: the second (if any) is the fallback when the
    /// kernel refuses the first.
    public func configurations(for adapter: Adapter) -> [NANConfiguration] {
        let userSpace = adapter.nan.capabilities?.userSpaceDiscoveryEngine ?? false
        let configurable = adapter.nan.capabilities?.configurableSynchronization ?? false
        var cluster: MACAddress?
        switch clusterID {
        case .driverDefault: cluster = nil
        case .randomIfConfigurable: cluster = configurable ? Self.randomClusterID() : nil
        case .fixed(let id): cluster = id
        }
        let base = NANConfiguration(
            masterPreference: masterPreference, bands: nil, clusterID: cluster,
            notifyDiscoveryWindows: notifyDiscoveryWindows ?? userSpace)
        switch bands {
        case .kernelDefault:
            return [base]
        case .exactly(let set):
            var configuration = base
            configuration.bands = set
            return [configuration]
        case .dualBandIfAvailable:
            let dualBand: NANBands = [.band2GHz, .band5GHz]
            guard adapter.nan.bands.isSuperset(of: dualBand) else { return [base] }
            var configuration = base
            configuration.bands = dualBand
            return [configuration, base]
        }
    }

    /// A random NAN cluster ID: 50:6f:9a:01 followed by two random bytes.
    public static func randomClusterID() -> MACAddress {
        MACAddress(0x50, 0x6f, 0x9a, 0x01, UInt8.random(in: 0...255), UInt8.random(in: 0...255))
    }
}

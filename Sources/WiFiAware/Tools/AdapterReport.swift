/// Everything `waware list` and `waware info` show about one adapter, as plain values.
///
/// This is the tool's own view of an adapter, separate from the library's types, so that the JSON field
/// names stay stable when the library changes: the field names below *are* the JSON schema (documented in
/// docs/cli.md). Built from the library's values in `AdapterReport+System.swift`; tests build it directly.
@_spi(Tools) public struct AdapterReport: Codable, Equatable, Sendable {
    /// The phy name (`phy0`).
    public var phy: String
    /// The wiphy index.
    public var wiphy: UInt32
    /// The kernel driver (`mac80211_hwsim`, `iwlwifi`), if known.
    public var driver: String?
    /// The permanent MAC address, if the driver reports one.
    public var address: String?
    /// The interface types the driver can create (`managed`, `AP`, `NAN`, `NAN data`).
    public var interfaceTypes: [String]
    /// What NAN the adapter can do.
    public var nan: NANReport
    /// The combinations of interfaces the driver allows at the same time that include NAN or NAN data
    /// interfaces.
    public var interfaceCombinations: [CombinationReport]
    /// The interfaces that exist on the adapter now.
    public var interfaces: [InterfaceReport]
    /// What unsynchronized service discovery (USD) the adapter can do; nil when not looked at.
    public var usd: USDReport? = nil
}

/// Whether an adapter can do unsynchronized service discovery (USD): remain-on-channel and action frames on
/// a station interface, no NAN needed.
@_spi(Tools) public struct USDReport: Codable, Equatable, Sendable {
    /// Whether USD can run on the adapter.
    public var supported: Bool
    /// `remain-on-channel, action frames` with the longest listen, or why not.
    public var summary: String
}

/// The NAN part of an adapter's capabilities.
@_spi(Tools) public struct NANReport: Codable, Equatable, Sendable {
    /// Whether the driver can create a NAN interface at all.
    public var supported: Bool
    /// A short reason in words: `user-space discovery engine, 2.4+5 GHz, data path`, or why not.
    public var summary: String
    /// `true` when the driver has no discovery engine and user space must run it (`USERSPACE_DE`).
    public var userspaceDiscovery: Bool
    /// `true` when cluster synchronisation can be configured from user space (`CONFIGURABLE_SYNC`).
    public var configurableSync: Bool
    /// The bands NAN may use, lowest first.
    public var bands: [String]
    /// Whether NAN data interfaces (NDI) can be created.
    public var dataPath: Bool
    /// Whether NAN pairing and security are supported (`SECURE_NAN`).
    public var secure: Bool
    /// Operation modes the driver reports (`VHT`, `HE`, `80+80 MHz`, `160 MHz`).
    public var operationModes: [String]
    /// Transmit antennas, if reported.
    public var transmitAntennas: Int?
    /// Receive antennas, if reported.
    public var receiveAntennas: Int?
    /// Longest channel switch, in microseconds, if reported.
    public var maxChannelSwitchTimeMicroseconds: Int?
    /// NAN device capabilities (`extended key ID`, `NDPE`).
    public var deviceCapabilities: [String]

    /// The report for an adapter without NAN.
    static func unsupported(_ summary: String) -> NANReport {
        NANReport(
            supported: false, summary: summary, userspaceDiscovery: false, configurableSync: false, bands: [],
            dataPath: false, secure: false, operationModes: [], transmitAntennas: nil, receiveAntennas: nil,
            maxChannelSwitchTimeMicroseconds: nil, deviceCapabilities: [])
    }
}

/// One allowed combination of interfaces.
@_spi(Tools) public struct CombinationReport: Codable, Equatable, Sendable {
    /// The most interfaces of all types together.
    public var maxInterfaces: Int
    /// How many different channels they may use at once.
    public var channels: Int
    /// Per-group limits: at most `max` interfaces whose types are in `types`.
    public var limits: [Limit]

    /// `at most 2 interfaces on 1 channel: 1 × NAN, 2 × managed or AP`.
    public var text: String {
        let plural = maxInterfaces == 1 ? "interface" : "interfaces"
        let channels = channels == 1 ? "1 channel" : "\(channels) channels"
        let limits = limits.map { "\($0.max) × \($0.types.joined(separator: " or "))" }
        return "at most \(maxInterfaces) \(plural) on \(channels): \(limits.joined(separator: ", "))"
    }

    /// At most `max` interfaces of the listed types.
    public struct Limit: Codable, Equatable, Sendable {
        /// The most interfaces of these types.
        public var max: Int
        /// The interface types the limit counts.
        public var types: [String]
    }
}

/// An interface that exists on an adapter.
@_spi(Tools) public struct InterfaceReport: Codable, Equatable, Sendable {
    /// The interface name (`wlan0`); `nil` for interfaces without a netdev, such as NAN, whose names the
    /// kernel does not report.
    public var name: String?
    /// The interface type (`managed`, `NAN`).
    public var type: String
    /// The wireless device id, in hex as `iw` prints it (`0x2`).
    public var wdev: String
    /// The network interface index; `nil` for interfaces without a netdev (NAN).
    public var ifindex: Int?
    /// The interface's MAC address, if reported.
    public var address: String?

    /// The name, or `wdev 0x2` for an interface without one.
    public var label: String { name ?? "wdev \(wdev)" }
}

extension NANReport {
    /// The reason shown after `NAN: no` for a driver without a NAN interface type.
    static let noInterfaceTypeSummary = "driver has no NAN interface type"

    /// The words shown after `NAN: yes`: where discovery runs, the bands, and the extras.
    ///
    /// `user-space discovery engine, 2.4+5 GHz, data path, secure`
    static func supportedSummary(userspaceDiscovery: Bool, bands: [String], dataPath: Bool, secure: Bool) -> String {
        var parts = [userspaceDiscovery ? "user-space discovery engine" : "discovery engine in the driver"]
        parts.append(bands.isEmpty ? "bands not reported" : bandSummary(bands))
        if dataPath { parts.append("data path") }
        if secure { parts.append("secure") }
        return parts.joined(separator: ", ")
    }

    /// `["2.4GHz", "5GHz"]` → `2.4+5 GHz`.
    static func bandSummary(_ bands: [String]) -> String {
        let numbers = bands.map { $0.hasSuffix("GHz") ? String($0.dropLast(3)) : $0 }
        return numbers.joined(separator: "+") + " GHz"
    }
}

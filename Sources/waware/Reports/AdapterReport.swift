/// Everything `waware list` and `waware info` show about one adapter, as plain values.
///
/// This is the tool's own view of an adapter, separate from the library's types, so that the JSON field
/// names stay stable when the library changes: the field names below *are* the JSON schema (documented in
/// docs/cli.md). Built from the library's values in `AdapterReport+System.swift`; tests build it directly.
struct AdapterReport: Codable, Equatable, Sendable {
    /// The phy name (`phy0`).
    var phy: String
    /// The wiphy index.
    var wiphy: UInt32
    /// The kernel driver (`mac80211_hwsim`, `iwlwifi`), if known.
    var driver: String?
    /// The permanent MAC address, if the driver reports one.
    var address: String?
    /// The interface types the driver can create (`managed`, `AP`, `NAN`, `NAN data`).
    var interfaceTypes: [String]
    /// What NAN the adapter can do.
    var nan: NANReport
    /// The combinations of interfaces the driver allows at the same time that include NAN or NAN data
    /// interfaces.
    var interfaceCombinations: [CombinationReport]
    /// The interfaces that exist on the adapter now.
    var interfaces: [InterfaceReport]
}

/// The NAN part of an adapter's capabilities.
struct NANReport: Codable, Equatable, Sendable {
    /// Whether the driver can create a NAN interface at all.
    var supported: Bool
    /// A short reason in words: `user-space discovery engine, 2.4+5 GHz, data path`, or why not.
    var summary: String
    /// `true` when the driver has no discovery engine and user space must run it (`USERSPACE_DE`).
    var userspaceDiscovery: Bool
    /// `true` when cluster synchronisation can be configured from user space (`CONFIGURABLE_SYNC`).
    var configurableSync: Bool
    /// The bands NAN may use, lowest first.
    var bands: [String]
    /// Whether NAN data interfaces (NDI) can be created.
    var dataPath: Bool
    /// Whether NAN pairing and security are supported (`SECURE_NAN`).
    var secure: Bool
    /// Operation modes the driver reports (`VHT`, `HE`, `80+80 MHz`, `160 MHz`).
    var operationModes: [String]
    /// Transmit antennas, if reported.
    var transmitAntennas: Int?
    /// Receive antennas, if reported.
    var receiveAntennas: Int?
    /// Longest channel switch, in microseconds, if reported.
    var maxChannelSwitchTimeMicroseconds: Int?
    /// NAN device capabilities (`extended key ID`, `NDPE`).
    var deviceCapabilities: [String]

    /// The report for an adapter without NAN.
    static func unsupported(_ summary: String) -> NANReport {
        NANReport(
            supported: false, summary: summary, userspaceDiscovery: false, configurableSync: false, bands: [],
            dataPath: false, secure: false, operationModes: [], transmitAntennas: nil, receiveAntennas: nil,
            maxChannelSwitchTimeMicroseconds: nil, deviceCapabilities: [])
    }
}

/// One allowed combination of interfaces.
struct CombinationReport: Codable, Equatable, Sendable {
    /// The most interfaces of all types together.
    var maxInterfaces: Int
    /// How many different channels they may use at once.
    var channels: Int
    /// Per-group limits: at most `max` interfaces whose types are in `types`.
    var limits: [Limit]

    /// At most `max` interfaces of the listed types.
    struct Limit: Codable, Equatable, Sendable {
        /// The most interfaces of these types.
        var max: Int
        /// The interface types the limit counts.
        var types: [String]
    }
}

/// An interface that exists on an adapter.
struct InterfaceReport: Codable, Equatable, Sendable {
    /// The interface name (`wlan0`); `nil` for interfaces without a netdev, such as NAN, whose names the
    /// kernel does not report.
    var name: String?
    /// The interface type (`managed`, `NAN`).
    var type: String
    /// The wireless device id, in hex as `iw` prints it (`0x2`).
    var wdev: String
    /// The network interface index; `nil` for interfaces without a netdev (NAN).
    var ifindex: Int?
    /// The interface's MAC address, if reported.
    var address: String?

    /// The name, or `wdev 0x2` for an interface without one.
    var label: String { name ?? "wdev \(wdev)" }
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

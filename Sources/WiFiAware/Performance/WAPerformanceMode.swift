/// How a data path is meant to be used, as in Apple's `WAPerformanceMode`: both sides should use the same.
public enum WAPerformanceMode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Throughput first (Apple's default).
    case bulk
    /// Latency first: committed slots spread over the whole NAN period, so a packet waits less for the
    /// next slot. The data-path schedule waware installs already commits every slot outside the discovery
    /// windows (30 of 32, see docs/performance.md), so today both modes run on the same schedule.
    case realtime

    /// `bulk` or `realtime`.
    public var description: String { rawValue }
}

/// The 802.11 access category traffic is sent in, as in Apple's `WAAccessCategory`. Linux picks the
/// category from the IPv6 traffic class (DSCP) of each packet: set ``trafficClass`` on a socket with
/// `IPV6_TCLASS` (or `IP_TOS`) to send in that category.
public enum WAAccessCategory: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// AC_BE, DSCP 0 (user priority 0).
    case bestEffort
    /// AC_BK, DSCP CS1 (8, user priority 1).
    case background
    /// AC_VI, DSCP AF41 (34, user priority 4).
    case interactiveVideo
    /// AC_VO, DSCP EF (46, user priority 6).
    case interactiveVoice

    /// The DSCP code point that Linux (`cfg80211_classify8021d`) maps to this category.
    public var dscp: UInt8 {
        switch self {
        case .bestEffort: 0
        case .background: 8
        case .interactiveVideo: 34
        case .interactiveVoice: 46
        }
    }

    /// The IPv6 traffic class / IPv4 TOS byte: DSCP << 2.
    public var trafficClass: UInt8 { dscp << 2 }

    /// `BE`, `BK`, `VI`, `VO`.
    public var shortName: String {
        switch self {
        case .bestEffort: "BE"
        case .background: "BK"
        case .interactiveVideo: "VI"
        case .interactiveVoice: "VO"
        }
    }

    /// The Swift name, e.g. `bestEffort`.
    public var description: String { rawValue }

    /// Reads `be`, `bk`, `vi`, `vo` or a case name (any case).
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let found = Self.allCases.first(where: { $0.shortName.lowercased() == lowered || $0.rawValue.lowercased() == lowered }) else {
            return nil
        }
        self = found
    }
}

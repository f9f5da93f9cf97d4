import NANEngine

/// How a data path is meant to be used, as in Apple's `WAPerformanceMode`: both sides should use the same.
/// It is the schedule the radio commits for its data paths (``WASystemOptions/performanceMode``; one
/// schedule serves every data path of the adapter), and it is carried on each ``WAPerformanceReport``.
public enum WAPerformanceMode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Throughput first (Apple's default): every slot outside the discovery windows committed, the 5 GHz
    /// channel in one long run (29 slots) and channel 6 in one slot.
    case bulk
    /// Latency first: as many slots, with channel 6 spread evenly over the period (one slot in eight) and
    /// the 5 GHz channel in the other 26, so a packet on either band waits at most 7 slots (112 TU) for the
    /// next common slot instead of up to a whole period on channel 6.
    case realtime

    /// `bulk` or `realtime`.
    public var description: String { rawValue }

    /// The data-path schedule layout the mode asks the engine for.
    var scheduleLayout: DataPathScheduleLayout {
        switch self {
        case .bulk: .preferred
        case .realtime: .realtime
        }
    }
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

import NANEngine

/// How a data path is meant to be used, as in Apple's `WAPerformanceMode`: both sides should use the same.
/// It is the schedule the radio commits for its data paths (``WASystemOptions/performanceMode``; one
/// schedule serves every data path of the adapter), and it is carried on each ``WAPerformanceReport``.
/// Without a mode (nil, the default) the radio commits the default schedule: every slot outside the
/// discovery windows, channel 6 in slot 1 and the 5 GHz channel in the other 29.
public enum WAPerformanceMode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Bulk transfers: one contiguous block of 15 committed slots (slots 1–16 of the 32, the 5 GHz
    /// discovery window in slot 8 left free), channel 6 in slot 1 and the 5 GHz channel in the other 14.
    /// Half the period is free for the radio to sleep or serve other links; traffic waits up to 16 slots
    /// (256 TU) for the next block.
    case bulk
    /// Latency first: every slot outside the discovery windows (30) committed, channel 6 spread evenly over
    /// the period (one slot in eight) and the 5 GHz channel in the other 26, so a packet waits at most 2
    /// slots for the 5 GHz channel and 7 (112 TU) for channel 6.
    case realtime

    /// `bulk` or `realtime`.
    public var description: String { rawValue }

    /// The data-path schedule layout the mode asks the engine for.
    var scheduleLayout: DataPathScheduleLayout {
        switch self {
        case .bulk: .bulk
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
        guard
            let found = Self.allCases.first(where: {
                $0.shortName.lowercased() == lowered || $0.rawValue.lowercased() == lowered
            })
        else {
            return nil
        }
        self = found
    }
}

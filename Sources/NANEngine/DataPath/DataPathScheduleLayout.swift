public import NANWire

/// How the data-path engine lays out its committed schedule over the slots.
public enum DataPathScheduleLayout: String, Hashable, Sendable, CaseIterable {
    /// ``NANWire/DataPathSchedule/preferred(fiveGHz:)``: channel 6 in slot 1, the 5 GHz channel in the others
    /// (every slot outside the DWs). The default, when no performance mode is asked for.
    case preferred
    /// ``NANWire/DataPathSchedule/realtime(fiveGHz:)``: as many slots, with channel 6 spread evenly over the
    /// period (one slot in eight) so a packet waits less for the next common slot. What
    /// `WAPerformanceMode.realtime` asks for.
    case realtime
    /// ``NANWire/DataPathSchedule/bulk(fiveGHz:)``: one contiguous block of 15 committed slots (1–16 but the
    /// DW), channel 6 in slot 1 and the 5 GHz channel in the rest; what `WAPerformanceMode.bulk` asks for.
    case bulk
    /// ``NANWire/DataPathSchedule/swapped(fiveGHz:)``: the same channels in other slots, so a peer with the
    /// preferred layout shares no slot with us and must take our counter-proposal (a device with this layout
    /// never moves its schedule onto a peer's). For testing the counter path (needs a 5 GHz channel).
    case swapped
    /// ``NANWire/DataPathSchedule/preferred(fiveGHz:)`` without a 5 GHz channel even where one is allowed:
    /// channel 6 in every slot outside the DWs, as a 2.4 GHz-only device commits. For testing a peer that
    /// commits channels we lack (`WAWARE_DP_SCHEDULE=channel6`).
    case channel6

    /// The schedule of this layout with `fiveGHz` (nil: 2.4 GHz only).
    public func schedule(fiveGHz: DataPathChannel?) -> DataPathSchedule {
        switch self {
        case .preferred: return .preferred(fiveGHz: fiveGHz)
        case .realtime: return .realtime(fiveGHz: fiveGHz)
        case .bulk: return .bulk(fiveGHz: fiveGHz)
        case .swapped: return .swapped(fiveGHz: fiveGHz)
        case .channel6: return .preferred(fiveGHz: nil)
        }
    }
}

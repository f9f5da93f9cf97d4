internal import NANEngine

/// The NAN discovery window's period: the devices of a cluster meet in a DW once every 512 TU (524.288 ms),
/// the unit waware reports discovery and set-up times in.
public enum WADiscoveryWindow {
    /// One DW period, 512 TU of 1024 µs.
    public static let period: Duration = .microseconds(NANTiming.discoveryWindowPeriodMicroseconds)
    /// One DW period in seconds (0.524288).
    public static let periodSeconds: Double = NANTiming.discoveryWindowPeriodSeconds
}

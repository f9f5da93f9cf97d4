/// NAN timing constants.
public enum NANTiming {
    /// One discovery window period: 512 TU of 1024 µs.
    public static let discoveryWindowPeriodSeconds = 512.0 * 1024.0 / 1_000_000.0
    /// One discovery window period in microseconds (524 288).
    public static let discoveryWindowPeriodMicroseconds = 512 * 1024

    /// Whether a discovery window on this frequency (MHz) is in the 5 or 6 GHz band, the second DW of a
    /// dual-band period, rather than the 2.4 GHz one that starts each period.
    public static func isFiveGigahertzOrAbove(_ frequency: Int) -> Bool { frequency >= 4900 }
}

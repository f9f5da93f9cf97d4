/// NAN timing constants.
public enum NANTiming {
    /// One discovery window period: 512 TU of 1024 µs.
    public static let discoveryWindowPeriodSeconds = 512.0 * 1024.0 / 1_000_000.0
    /// One discovery window period in microseconds (524 288).
    public static let discoveryWindowPeriodMicroseconds = 512 * 1024
}

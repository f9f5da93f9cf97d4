extension Duration {
    /// This duration in seconds, with its fraction: the one conversion of a `Duration` to a number of seconds
    /// in the package.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// This duration in whole milliseconds, the fraction dropped (what the CLI prints, to the millisecond).
    package var inWholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// This duration in whole nanoseconds, 0 for a negative one (what `poll`, Dispatch and the probes take).
    package var inNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}

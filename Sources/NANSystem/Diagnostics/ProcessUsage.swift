#if canImport(Glibc)
    internal import Glibc
#endif

/// What the whole process has used so far (`getrusage(RUSAGE_SELF)`), for benchmarks: CPU time of every
/// thread, and the peak resident set (the kernel's `VmHWM`), so a benchmark can show its memory stays
/// bounded.
public struct ProcessUsage: Sendable, Hashable {
    /// User-mode CPU time, in nanoseconds.
    public var userNanoseconds: UInt64
    /// Kernel-mode CPU time, in nanoseconds.
    public var systemNanoseconds: UInt64
    /// The peak resident set size so far, in KiB (`ru_maxrss`).
    public var peakResidentKiB: Int

    /// User plus kernel CPU time, in nanoseconds.
    public var cpuNanoseconds: UInt64 { userNanoseconds + systemNanoseconds }

    /// The usage now, or `nil` where `getrusage` is unavailable.
    public static var current: ProcessUsage? {
        #if canImport(Glibc)
            var usage = rusage()
            guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return nil }
            func nanoseconds(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1_000 }
            return ProcessUsage(
                userNanoseconds: nanoseconds(usage.ru_utime), systemNanoseconds: nanoseconds(usage.ru_stime),
                peakResidentKiB: Int(usage.ru_maxrss))
        #else
            return nil
        #endif
    }
}

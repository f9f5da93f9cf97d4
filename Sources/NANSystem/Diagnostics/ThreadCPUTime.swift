#if canImport(Glibc)
    internal import Glibc
#endif

/// CPU time consumed by the calling thread, for benchmarks on a shared machine: unlike wall-clock time
/// it does not grow while other processes hold the core.
public enum ThreadCPUTime {
    /// Nanoseconds of CPU time used by this thread (`CLOCK_THREAD_CPUTIME_ID`), or `nil` if unavailable.
    public static var nanoseconds: UInt64? {
        #if canImport(Glibc)
            var now = timespec()
            guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 else { return nil }
            return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        #else
            return nil
        #endif
    }
}

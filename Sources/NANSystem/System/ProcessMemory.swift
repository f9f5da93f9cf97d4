internal import CSystemShim

/// How the process's C heap is kept small, for code above NANSystem (which imports no C module).
public enum ProcessMemory {
    /// Makes every thread allocate from the one main malloc arena instead of glibc's arena per thread: a
    /// waware process allocates little and rarely, and each extra arena keeps its own touched pages
    /// resident (docs/benchmarks.md, issue 26). Call it first, before other threads allocate.
    public static func useOneMallocArena() { _ = waware_malloc_arena_max(1) }
}

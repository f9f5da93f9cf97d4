#if canImport(Glibc)
    internal import Glibc
#endif

/// How many heap bytes the process has in use, from glibc's `mallinfo2()`, for benchmarks: the
/// difference across work whose results are kept alive is the heap those results hold.
///
/// `<malloc.h>` is not part of Swift's Glibc module, so the function is looked up with `dlsym` and called
/// through a C function pointer. `struct mallinfo2` (ten `size_t`) is returned through a hidden result
/// pointer, which the x86-64 System V ABI passes as the first argument; other architectures report
/// `nil`. Lives in NANSystem because it calls C; `nan-bench` uses it and stays free of C itself.
public enum HeapUsage {
    /// Bytes allocated by malloc and in use (`uordblks + hblkhd`), or `nil` where unavailable.
    public static var bytesInUse: Int? {
        #if canImport(Glibc) && arch(x86_64)
            guard let symbol = dlsym(nil, "mallinfo2") else { return nil }
            typealias MallInfo2 = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
            let call = unsafeBitCast(symbol, to: MallInfo2.self)
            var fields = [Int](repeating: 0, count: 10)
            fields.withUnsafeMutableBytes { buffer in
                if let base = buffer.baseAddress { _ = call(base) }
            }
            // struct mallinfo2: arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost.
            return fields[7] + fields[4]
        #else
            return nil
        #endif
    }
}

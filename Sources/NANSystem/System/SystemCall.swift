internal import Glibc

/// The one place where a system call's failure becomes an ``Errno`` and an interrupted call is retried.
///
/// Every call in NANSystem that can fail with `EINTR` goes through ``retrying(_:)``, in the spirit of
/// swift-nio's `syscall(where:)`: `let count = try SystemCall.retrying { read(fd, buffer, size) }`. The one
/// exception is `close(2)`, never retried: Linux frees the descriptor even when a signal interrupts it.
public enum SystemCall {
    /// Runs `call` until it does not fail with `EINTR`: returns its result when it is not `-1`, throws
    /// the errno when it is.
    ///
    /// - Parameter call: a system call returning `-1` and setting `errno` on failure.
    /// - Throws: ``Errno`` of the failed call (never ``Errno/interrupted``).
    @inlinable
    public static func retrying<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            let number = Errno.current
            if number == .interrupted { continue }
            throw number
        }
    }
}

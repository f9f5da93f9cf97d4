internal import Glibc

/// Exclusive advisory locks (`flock(2)`) on an open file, which serialise cooperating threads and
/// processes that lock the same file.
public enum AdvisoryLock {
    /// Blocks until this descriptor holds an exclusive lock on its file (`flock(LOCK_EX)`), retrying
    /// when a signal interrupts the wait.
    ///
    /// - Parameters:
    ///   - descriptor: An open file descriptor.
    ///   - path: The file's path, for the error.
    /// - Throws: ``FileError`` with the errno of `flock`.
    public static func lockExclusively(_ descriptor: Int32, path: String) throws(FileError) {
        while flock(descriptor, LOCK_EX) != 0 {
            let number = errno
            if number == EINTR { continue }
            throw FileError(operation: "lock \(path)", path: path, errno: number)
        }
    }

    /// Releases this descriptor's lock (`flock(LOCK_UN)`); closing the descriptor also releases it.
    public static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
    }
}

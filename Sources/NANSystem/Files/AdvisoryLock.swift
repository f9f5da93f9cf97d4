internal import Glibc

/// Exclusive advisory locks (`flock(2)`) on lock files, which serialise cooperating threads and
/// processes that lock the same file.
public enum AdvisoryLock {
    /// Opens the lock file at `path`, creating it with `mode` if it is missing; never truncates or
    /// replaces it and never follows a symbolic link at the last component. The descriptor is
    /// close-on-exec, so a child process never inherits (and keeps) the lock.
    ///
    /// - Parameters:
    ///   - path: The lock file.
    ///   - mode: The permission bits of a newly created file, e.g. `0o600`.
    /// - Returns: The open descriptor; close it with ``close(_:)``.
    /// - Throws: ``FileError`` with the errno of `open`.
    public static func openLockFile(at path: String, mode: UInt32 = 0o600) throws(FileError) -> Int32 {
        do throws(Errno) {
            return try SystemCall.retrying {
                open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode_t(mode))
            }
        } catch {
            throw FileError(operation: "open the lock file \(path)", path: path, errno: error)
        }
    }

    /// Blocks until this descriptor holds an exclusive lock on its file (`flock(LOCK_EX)`), retrying
    /// when a signal interrupts the wait.
    ///
    /// - Parameters:
    ///   - descriptor: An open file descriptor.
    ///   - path: The file's path, for the error.
    /// - Throws: ``FileError`` with the errno of `flock`.
    public static func lockExclusively(_ descriptor: Int32, path: String) throws(FileError) {
        do throws(Errno) {
            _ = try SystemCall.retrying { flock(descriptor, LOCK_EX) }
        } catch {
            throw FileError(operation: "lock \(path)", path: path, errno: error)
        }
    }

    /// Takes an exclusive lock if no one else holds one (`flock(LOCK_EX|LOCK_NB)`).
    ///
    /// - Returns: `true` if this descriptor now holds the lock, `false` if another holder has it.
    /// - Throws: ``FileError`` with the errno of `flock` for any other failure.
    public static func tryLockExclusively(_ descriptor: Int32, path: String) throws(FileError) -> Bool {
        do throws(Errno) {
            _ = try SystemCall.retrying { flock(descriptor, LOCK_EX | LOCK_NB) }
            return true
        } catch  where error == .wouldBlock {
            return false
        } catch {
            throw FileError(operation: "lock \(path)", path: path, errno: error)
        }
    }

    /// Waits for an exclusive lock, at most `timeout`: tries at once, and if another holder has the lock
    /// calls `waiting` once (to tell the user) and tries again every 50 ms.
    ///
    /// - Returns: `true` when the lock is held, `false` if the timeout passed first.
    /// - Throws: ``FileError`` with the errno of `flock` for any failure other than a held lock.
    public static func lockExclusively(
        _ descriptor: Int32, path: String, timeout: Duration, waiting: () -> Void
    ) throws(FileError) -> Bool {
        if try tryLockExclusively(descriptor, path: path) { return true }
        waiting()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
            _ = nanosleep(&pause, nil)
            if try tryLockExclusively(descriptor, path: path) { return true }
        }
        return false
    }

    /// Releases this descriptor's lock (`flock(LOCK_UN)`); closing the descriptor also releases it.
    public static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
    }

    /// Closes a descriptor from ``openLockFile(at:mode:)`` (which releases its lock).
    public static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }
}

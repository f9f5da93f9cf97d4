internal import NANSystem

/// An exclusive advisory lock (flock) on a lock file, which serialises read-modify-write of the
/// device store between threads and processes.
///
/// The lock file is created once (mode 0600, never through a symbolic link) and never replaced or
/// deleted: replacing it would let two writers hold locks on two different files at the same time.
enum FileLock {
    /// How long a change of the store waits for another process's lock before giving up.
    static let defaultTimeout: Duration = .seconds(30)

    /// Runs `body` while holding an exclusive lock on the file at `path`, creating it if needed.
    ///
    /// Blocks the calling thread while another holder has the lock, at most `timeout`; `waiting` is called
    /// once if it has to wait (to tell the user why nothing happens).
    ///
    /// - Throws: `storageFailed` if the lock cannot be had within `timeout`, a file error otherwise.
    static func withExclusiveLock<T>(
        at path: String, timeout: Duration = defaultTimeout, waiting: () -> Void = {},
        _ body: () throws(WAError) -> T
    ) throws(WAError) -> T {
        let descriptor: Int32
        do throws(FileError) {
            descriptor = try AdvisoryLock.openLockFile(at: path)
        } catch {
            throw WAError.file(error, action: "open the lock file", path: path)
        }
        defer { AdvisoryLock.close(descriptor) }
        let locked: Bool
        do throws(FileError) {
            locked = try AdvisoryLock.lockExclusively(descriptor, path: path, timeout: timeout, waiting: waiting)
        } catch {
            throw WAError.file(error, action: "lock", path: path)
        }
        guard locked else {
            throw WAError(
                .storageFailed,
                message: "another process has held the lock \(path) for more than \(timeout.components.seconds) s; "
                    + "try again when it has finished")
        }
        defer { AdvisoryLock.unlock(descriptor) }
        return try body()
    }
}

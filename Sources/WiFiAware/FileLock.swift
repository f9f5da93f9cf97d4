internal import Foundation
internal import NANSystem

/// An exclusive advisory lock (flock) on a lock file, which serialises read-modify-write of the
/// device store between threads and processes.
///
/// The lock file is created once and never replaced or deleted: replacing it would let two
/// writers hold locks on two different files at the same time.
enum FileLock {
    /// Runs `body` while holding an exclusive lock on the file at `url`, creating it (mode 0600) if needed.
    ///
    /// Blocks the calling thread while another holder has the lock.
    static func withExclusiveLock<T>(at url: URL, _ body: () throws(WAError) -> T) throws(WAError) -> T {
        let handle = try open(url)
        defer { try? handle.close() }
        do throws(FileError) {
            try AdvisoryLock.lockExclusively(handle.fileDescriptor, path: url.path)
        } catch {
            throw WAError(
                .storageFailed,
                message: "cannot lock \(url.path): \(WAError.errnoText(error.errno))",
                errno: error.errno)
        }
        defer { AdvisoryLock.unlock(handle.fileDescriptor) }
        return try body()
    }

    private static func open(_ url: URL) throws(WAError) -> FileHandle {
        do {
            // O_CREAT|O_EXCL: creates the file only if it is missing and never truncates or replaces it.
            try Data().write(to: url, options: .withoutOverwriting)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch  where FileManager.default.fileExists(atPath: url.path) {
            // Someone else created it first, which is fine.
        } catch {
            throw WAError.file(error, action: "create the lock file", path: url.path)
        }
        do {
            return try FileHandle(forUpdating: url)
        } catch {
            throw WAError.file(error, action: "open the lock file", path: url.path)
        }
    }
}

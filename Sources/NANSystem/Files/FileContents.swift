internal import Glibc

/// Whole-file reads with the checks a configuration or state file needs: a regular file (never a FIFO
/// that blocks or a device that never ends), no symbolic link followed, and a size limit.
public enum FileContents {
    /// Reads the regular file at `path`, at most `limit` bytes.
    ///
    /// Opens with `O_NOFOLLOW` (a symbolic link is refused with `ELOOP`) and `O_NONBLOCK` (a FIFO never
    /// blocks the open), then checks with `fstat` that it is a regular file.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - limit: The largest size accepted, in bytes.
    ///   - what: What the file is, for errors, e.g. `the device store`.
    ///   - followingSymbolicLinks: Whether a symbolic link at `path` is followed (a configuration file) or
    ///     refused (a state file that is replaced by rename, which would replace the link).
    ///   - privateToOwner: Whether the file holds secrets: then it must belong to the user running this
    ///     process and give no access to anyone else (mode 0600 or stricter), as the files written here are.
    ///     Another user's file could have been planted; one others may read has leaked already.
    /// - Returns: The contents, or `nil` if there is no file at `path` (`ENOENT`).
    /// - Throws: ``FileError``: the errno of `open` or `read` (`EACCES` for an unreadable folder or file,
    ///   `ELOOP` for a symbolic link; `EACCES` too for a private file of another owner or too open a mode),
    ///   ``FileError/notRegularFile(_:path:)``, or a file larger than `limit`.
    public static func readRegularFile(
        at path: String, limit: Int, what: String, followingSymbolicLinks: Bool = false, privateToOwner: Bool = false
    ) throws(FileError) -> [UInt8]? {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingSymbolicLinks ? 0 : O_NOFOLLOW)
        let operation = "read \(what) \(path)"
        let descriptor: Int32
        do throws(Errno) {
            descriptor = try SystemCall.retrying { open(path, flags) }
        } catch  where error == .noSuchFile {
            return nil
        } catch  where error == .tooManySymbolicLinks && !followingSymbolicLinks {
            throw FileError(
                operation: operation, path: path, errno: error,
                problem: "it is a symbolic link, which is not followed here; use the file it points to")
        } catch {
            throw FileError(operation: operation, path: path, errno: error)
        }
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw FileError(operation: operation, path: path, errno: .current)
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw FileError.notRegularFile(operation, path: path) }
        if privateToOwner {
            let user = geteuid()
            guard status.st_uid == user else {
                throw FileError(
                    operation: operation, path: path, errno: .accessDenied,
                    problem: "it belongs to user \(status.st_uid), not to the user running this (\(user)); "
                        + "a file that another user wrote cannot be trusted with keys")
            }
            guard status.st_mode & 0o077 == 0 else {
                throw FileError(
                    operation: operation, path: path, errno: .accessDenied,
                    problem:
                        "it holds keys but others than its owner may use it (mode \(String(status.st_mode & 0o777, radix: 8))); "
                        + "run chmod 600 on it")
            }
        }
        return try readAll(descriptor, limit: limit, operation: operation, path: path)
    }

    /// Reads an open descriptor (standard input, a pipe) to its end, at most `limit` bytes.
    ///
    /// - Throws: ``FileError`` with the errno of `read`, or when there are more than `limit` bytes.
    public static func readAll(
        _ descriptor: Int32, limit: Int, operation: String, path: String
    ) throws(FileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do throws(Errno) {
                count = try SystemCall.retrying {
                    chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                }
            } catch {
                throw FileError(operation: operation, path: path, errno: error)
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else {
                throw FileError(
                    operation: operation, path: path, errno: .fileTooLarge,
                    problem: "more than \(limit) bytes, the most accepted")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}

internal import Glibc

/// The few file-system operations the layers above need besides reading and replacing files, each
/// failing with a ``FileError`` that carries the ``Errno``.
public enum FileSystem {
    /// Creates the folder at `path` and any missing parents, each with `mode` (an existing folder is fine).
    ///
    /// - Throws: ``FileError`` with the errno of `mkdir` (`EACCES`, `ENOTDIR`, ...).
    public static func createFolder(at path: String, mode: UInt32) throws(FileError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            do throws(Errno) {
                _ = try SystemCall.retrying { mkdir(prefix, mode_t(mode)) }
            } catch  where error == .fileExists {
                // Already there; whether it is a folder shows at the next component or when it is used.
            } catch {
                throw FileError(operation: "create the folder \(prefix)", path: prefix, errno: error)
            }
            prefix += "/"
        }
    }

    /// Renames `source` to `destination` (`rename(2)`: atomic, replaces a file at `destination`).
    ///
    /// - Throws: ``FileError`` with the errno of `rename`.
    public static func rename(_ source: String, to destination: String) throws(FileError) {
        do throws(Errno) {
            _ = try SystemCall.retrying { Glibc.rename(source, destination) }
        } catch {
            throw FileError(operation: "rename \(source) to \(destination)", path: source, errno: error)
        }
    }

    /// Gives `source` the name `destination` only if nothing has that name: `link(2)` (which fails with
    /// `EEXIST` rather than replace), then `unlink(2)` of `source`. Unlike a check before `rename(2)`, no
    /// file that appears meanwhile is replaced.
    ///
    /// - Throws: ``FileError`` with the errno of `link` (`EEXIST` when `destination` exists).
    public static func renameWithoutReplacing(_ source: String, to destination: String) throws(FileError) {
        do throws(Errno) {
            _ = try SystemCall.retrying { link(source, destination) }
        } catch {
            throw FileError(operation: "rename \(source) to \(destination)", path: destination, errno: error)
        }
        _ = unlink(source)
    }

    /// The bytes an unprivileged user may still write on the file system that holds `path` (`statvfs(3)`);
    /// nil when it cannot be asked.
    public static func availableBytes(at path: String) -> UInt64? {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return nil }
        return UInt64(status.f_bavail).multipliedReportingOverflow(by: UInt64(status.f_frsize)).partialValue
    }

    /// Whether anything (a file, folder, link, even a dangling one) exists at `path` (`lstat(2)`).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}

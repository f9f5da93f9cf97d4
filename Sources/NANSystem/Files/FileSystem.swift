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
            } catch where error == .fileExists {
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

    /// Whether anything (a file, folder, link, even a dangling one) exists at `path` (`lstat(2)`).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}

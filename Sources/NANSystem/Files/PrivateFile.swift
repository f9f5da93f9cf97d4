internal import Glibc

/// Files only their owner may read: written so that no other user can ever see their contents.
///
/// Foundation's atomic write creates its temporary file with the default mode and leaves the caller
/// to restrict it afterwards, so for an instant the new contents may be readable by others. Here the
/// temporary file is created with mode 0600 in the same system call that creates it.
public enum PrivateFile {
    /// Replaces the file at `path` with `bytes`, atomically and readable by the owner only.
    ///
    /// Creates a temporary file next to the target with `open(O_CREAT|O_EXCL|O_WRONLY|O_CLOEXEC, 0600)`,
    /// writes everything, `fsync`s it, renames it over the target and `fsync`s the folder, so a reader
    /// sees the old contents or the new ones, never part of them, also after a crash. On failure the
    /// temporary file is removed and the target is left as it was.
    ///
    /// - Parameters:
    ///   - path: The file to replace (or create). Its folder must exist.
    ///   - bytes: The new contents.
    /// - Throws: ``FileError`` naming the step that failed, its path and errno.
    public static func replace(at path: String, with bytes: [UInt8]) throws(FileError) {
        try replace(at: path, with: bytes, beforeRename: { _ in })
    }

    /// ``replace(at:with:)`` with a hook that sees the temporary file, written and synced, just before
    /// it is renamed (for tests).
    static func replace(at path: String, with bytes: [UInt8], beforeRename: (String) -> Void) throws(FileError) {
        let folder = folderPath(of: path)
        let (descriptor, temporary) = try createTemporary(in: folder, for: path)
        var renamed = false
        defer {
            if !renamed { _ = unlink(temporary) }
        }
        do {
            defer { _ = close(descriptor) }
            try writeAll(bytes, to: descriptor, path: temporary)
            do throws(Errno) {
                _ = try SystemCall.retrying { fsync(descriptor) }
            } catch {
                throw FileError(operation: "flush \(temporary) to disk", path: temporary, errno: error)
            }
        }
        beforeRename(temporary)
        guard rename(temporary, path) == 0 else {
            throw FileError(operation: "rename \(temporary) to \(path)", path: path, errno: .current)
        }
        renamed = true
        try syncFolder(folder)
    }

    /// The folder part of `path` (`.` for a bare name, `/` for a file at the root).
    static func folderPath(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Opens a new, empty temporary file `.<name>.<random>.tmp` beside `path`, mode 0600.
    private static func createTemporary(in folder: String, for path: String) throws(FileError) -> (Int32, String) {
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        let prefix = (folder == "/" ? "" : folder) + "/." + name + "."
        var attempts = 0
        while true {
            let candidate = prefix + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
            do throws(Errno) {
                let descriptor = try SystemCall.retrying {
                    open(candidate, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode_t(0o600))
                }
                return (descriptor, candidate)
            } catch {
                attempts += 1
                // EEXIST: a name collision (astronomically rare), worth another name.
                if error == .fileExists && attempts < 100 { continue }
                throw FileError(operation: "create a temporary file in \(folder)", path: folder, errno: error)
            }
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FileError) {
        var written = 0
        while written < bytes.count {
            let result: Int
            do throws(Errno) {
                result = try SystemCall.retrying {
                    bytes.withUnsafeBytes { buffer in
                        write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                    }
                }
            } catch {
                throw FileError(operation: "write \(path)", path: path, errno: error)
            }
            // A regular file never accepts 0 of a non-empty write; don't spin if one does.
            guard result > 0 else { throw FileError(operation: "write \(path)", path: path, errno: .ioError) }
            written += result
        }
    }

    /// Makes the rename durable. File systems that cannot sync a folder (`EINVAL`) are accepted.
    private static func syncFolder(_ folder: String) throws(FileError) {
        let descriptor: Int32
        do throws(Errno) {
            descriptor = try SystemCall.retrying { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        } catch {
            throw FileError(operation: "open the folder \(folder)", path: folder, errno: error)
        }
        defer { _ = close(descriptor) }
        do throws(Errno) {
            _ = try SystemCall.retrying { fsync(descriptor) }
        } catch  where error == .invalidArgument {
            return
        } catch {
            throw FileError(operation: "flush the folder \(folder) to disk", path: folder, errno: error)
        }
    }
}

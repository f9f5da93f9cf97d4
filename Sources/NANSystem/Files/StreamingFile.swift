internal import Glibc

/// A file read or written in pieces (a resource sent over a connection): opened once, closed when
/// released. New files are created 0600 with `O_EXCL`, so an existing file is never overwritten.
public final class StreamingFile: @unchecked Sendable {
    private let descriptor: Int32
    /// The path it was opened with.
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens a regular file for reading (no symbolic link followed), with its size.
    public static func openForReading(_ path: String) throws(FileError) -> (file: StreamingFile, size: UInt64) {
        let fd: Int32
        do throws(Errno) {
            fd = try SystemCall.retrying { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            throw FileError(operation: "open \(path)", path: path, errno: error)
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let error = FileError(operation: "read \(path)", path: path, errno: .current)
            close(fd)
            throw error
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FileError.notRegularFile("send \(path)", path: path)
        }
        return (StreamingFile(descriptor: fd, path: path), UInt64(status.st_size))
    }

    /// Creates a new file (mode 0600); fails with `EEXIST` if one is there.
    public static func create(_ path: String) throws(FileError) -> StreamingFile {
        do throws(Errno) {
            let fd = try SystemCall.retrying {
                open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
            }
            return StreamingFile(descriptor: fd, path: path)
        } catch {
            throw FileError(operation: "create \(path)", path: path, errno: error)
        }
    }

    /// Up to `maximum` bytes from the current position; empty at the end.
    public func read(maximum: Int) throws(FileError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(1, maximum))
        do throws(Errno) {
            let count = try SystemCall.retrying {
                buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            }
            buffer.removeSubrange(count...)
            return buffer
        } catch {
            throw FileError(operation: "read \(path)", path: path, errno: error)
        }
    }

    /// Appends every byte.
    public func write(_ bytes: [UInt8]) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            do throws(Errno) {
                offset += try SystemCall.retrying {
                    bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                }
            } catch {
                throw FileError(operation: "write \(path)", path: path, errno: error)
            }
        }
    }

    /// Flushes the contents to disk.
    public func synchronize() throws(FileError) {
        do throws(Errno) { _ = try SystemCall.retrying { fsync(descriptor) } } catch {
            throw FileError(operation: "flush \(path) to disk", path: path, errno: error)
        }
    }

    /// Removes the file at `path` (nothing if there is none).
    public static func remove(_ path: String) { _ = unlink(path) }
}

internal import Glibc

/// A file operation that failed: which system call, on which path, with the errno it returned.
///
/// `"\(error)"` is one line, e.g. `cannot create a temporary file in /var/lib/waware: Permission denied (errno 13)`.
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done, e.g. `create a temporary file in /var/lib/waware`.
    public var operation: String
    /// The file or folder concerned.
    public var path: String
    /// The errno the system call returned (positive).
    public var errno: Int32

    /// Creates a file error.
    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// Whether the system refused for lack of permission (`EACCES` or `EPERM`), as opposed to the file
    /// system failing (full, read-only, missing folder, I/O error).
    public var isPermissionDenied: Bool { errno == 13 || errno == 1 }

    /// `cannot <operation>: <strerror> (errno N)`.
    /// (glibc's `strerror` returns a static or thread-local string, so this is safe from any thread.)
    public var description: String {
        "cannot \(operation): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

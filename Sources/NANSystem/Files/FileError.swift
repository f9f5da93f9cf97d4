/// A file operation that failed: what was being done, on which path, and why (an ``Errno``).
///
/// `"\(error)"` is one line, e.g. `cannot create a temporary file in /var/lib/waware: Permission denied (EACCES)`.
/// Checks the system does not make (a file that is not a regular file, a folder others may write) carry
/// their own ``problem`` text and the closest errno.
public struct FileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done, e.g. `create a temporary file in /var/lib/waware`.
    public var operation: String
    /// The file or folder concerned.
    public var path: String
    /// Why: the errno the system call returned, or the closest one for a check of our own.
    public var errno: Errno
    /// For a check of our own, what is wrong, e.g. `not a regular file`; `nil` when the system refused.
    public var problem: String?

    /// Creates a file error.
    public init(operation: String, path: String, errno: Errno, problem: String? = nil) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.problem = problem
    }

    /// Whether the system refused for lack of permission (`EACCES` or `EPERM`), as opposed to the file
    /// system failing (full, read-only, missing folder, I/O error) or a check of our own.
    public var isPermissionDenied: Bool { problem == nil && errno.isPermissionDenied }

    /// Whether the file is not a regular file (a folder, a FIFO, a device such as `/dev/zero`).
    public var isNotRegularFile: Bool { problem == Self.notRegularFileText }

    /// `cannot <operation>: <problem or errno text>`.
    public var description: String {
        "cannot \(operation): \(problem ?? errno.description)"
    }

    static let notRegularFileText = "not a regular file"

    /// The file at `path` is a folder, FIFO, socket or device where a regular file is needed.
    public static func notRegularFile(_ operation: String, path: String) -> FileError {
        FileError(operation: operation, path: path, errno: .invalidArgument, problem: notRegularFileText)
    }
}

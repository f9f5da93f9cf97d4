#if canImport(Glibc)
import Glibc
#endif

/// Standard output or standard error, written with `write(2)`: no buffering (a streaming command's lines
/// show as they happen), and a failure is a typed error rather than a trap.
public enum StandardStream: Sendable, Hashable {
    /// File descriptor 1.
    case output
    /// File descriptor 2.
    case error

    /// Why a write failed.
    public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The errno of the failed `write(2)`.
        public var errno: Int32
        /// The reader went away (`EPIPE`, with SIGPIPE ignored): nobody is left to tell.
        public var isBrokenPipe: Bool { errno == EPIPE }
        /// E.g. `No space left on device (ENOSPC)`.
        public var description: String {
            let text = strerror(errno).map { String(cString: $0) } ?? "errno \(errno)"
            return text + (Self.names[errno].map { " (\($0))" } ?? "")
        }
        static let names: [Int32: String] = [
            EPIPE: "EPIPE", ENOSPC: "ENOSPC", EIO: "EIO", EBADF: "EBADF", EAGAIN: "EAGAIN", EFBIG: "EFBIG",
            EDQUOT: "EDQUOT", EINVAL: "EINVAL",
        ]
    }

    var descriptor: Int32 { self == .output ? 1 : 2 }

    /// The stream's name in messages: `standard output` or `standard error`.
    public var name: String { self == .output ? "standard output" : "standard error" }

    /// Writes all of `bytes`, retrying after `EINTR` and after partial writes.
    ///
    /// - Throws: ``WriteError`` with the errno of the write that failed (`EPIPE`, `ENOSPC`, `EBADF`, ...).
    public func write(_ bytes: [UInt8]) throws(WriteError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                let error = Glibc.errno
                if error == EINTR { continue }
                throw WriteError(errno: error)
            }
            offset += written
        }
    }

    /// Writes `text` as UTF-8.
    ///
    /// - Throws: ``WriteError``.
    public func write(_ text: String) throws(WriteError) {
        try write(Array(text.utf8))
    }

    /// Ends the process now with `status` (no stdio flush needed: nothing here buffers).
    public static func exitProcess(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}

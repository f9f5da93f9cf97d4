/// Why a stream socket call failed: a code to switch on, the call, its errno and what it was for.
public struct StreamSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable name for the code.
        public let name: String
        init(_ name: String) { self.name = name }

        /// Nothing could be sent or received (or no connection came) within the time allowed.
        public static let timedOut = Code("timed out")
        /// The peer reset the connection, or it broke (`ECONNRESET`, `EPIPE`).
        public static let connectionReset = Code("connection reset")
        /// Nothing listens at the address (`ECONNREFUSED`).
        public static let connectionRefused = Code("connection refused")
        /// The address cannot be reached (`EHOSTUNREACH`, `ENETUNREACH`, `EADDRNOTAVAIL`, an unknown interface).
        public static let unreachable = Code("unreachable")
        /// The socket was closed by this process.
        public static let closed = Code("closed")
        /// The waiting task was cancelled.
        public static let cancelled = Code("cancelled")
        /// Any other failure; ``StreamSocketError/errno`` says which.
        public static let system = Code("system call failed")

        /// The code's name.
        public var description: String { name }
    }

    /// The class of failure.
    public var code: Code
    /// The system call or step (`connect`, `recv`, `send`, `accept`, `poll`).
    public var call: String
    /// The errno of a failed system call.
    public var errno: Errno?
    /// What was being done.
    public var detail: String?

    /// Creates an error.
    public init(_ code: Code, call: String, errno: Errno? = nil, detail: String? = nil) {
        self.code = code
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    /// The error for `call` failing with `errno`, classified.
    static func failed(_ call: String, _ errno: Errno, detail: String? = nil) -> StreamSocketError {
        let code: Code = switch errno {
        case .connectionReset, .brokenPipe: .connectionReset
        case .connectionRefused: .connectionRefused
        case .hostUnreachable, .networkUnreachable, .addressNotAvailable: .unreachable
        case .timedOut: .timedOut
        default: .system
        }
        return StreamSocketError(code, call: call, errno: errno, detail: detail)
    }

    /// `recv: connection reset: Connection reset by peer (ECONNRESET) (…)`.
    public var description: String {
        var text = "\(call): \(code)"
        if let errno { text += ": \(errno)" }
        if let detail { text += " (\(detail))" }
        return text
    }
}

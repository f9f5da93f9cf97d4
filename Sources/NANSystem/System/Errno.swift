internal import Glibc

/// A system error number (`errno`), typed and named.
///
/// Match with the static members, never with numbers: `catch let e as FileError where e.errno == .accessDenied`.
/// `"\(errno)"` is the system's text and the symbolic name: `Permission denied (EACCES)`.
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The positive errno value.
    public var rawValue: Int32

    /// Wraps a positive errno value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` right now (read it straight after the failed call).
    public static var current: Errno { Errno(rawValue: Glibc.errno) }

    /// `EPERM`: the operation needs a privilege the caller lacks.
    public static var notPermitted: Errno { Errno(rawValue: EPERM) }
    /// `ENOENT`: no such file or folder.
    public static var noSuchFile: Errno { Errno(rawValue: ENOENT) }
    /// `EINTR`: a signal interrupted the call.
    public static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// `EIO`: an input/output error.
    public static var ioError: Errno { Errno(rawValue: EIO) }
    /// `E2BIG`: an argument list too long.
    public static var argumentListTooLong: Errno { Errno(rawValue: E2BIG) }
    /// `EBADF`: not an open file descriptor.
    public static var badFileDescriptor: Errno { Errno(rawValue: EBADF) }
    /// `EAGAIN`/`EWOULDBLOCK`: the call would block (a lock is held elsewhere, no data yet).
    public static var wouldBlock: Errno { Errno(rawValue: EWOULDBLOCK) }
    /// `ENOMEM`: out of memory.
    public static var noMemory: Errno { Errno(rawValue: ENOMEM) }
    /// `EACCES`: the file's permissions refuse the access.
    public static var accessDenied: Errno { Errno(rawValue: EACCES) }
    /// `EBUSY`: the device or resource is busy.
    public static var busy: Errno { Errno(rawValue: EBUSY) }
    /// `EEXIST`: the file (or object) exists already.
    public static var fileExists: Errno { Errno(rawValue: EEXIST) }
    /// `ENODEV`: no such device.
    public static var noSuchDevice: Errno { Errno(rawValue: ENODEV) }
    /// `ENOTDIR`: a path component is not a folder.
    public static var notDirectory: Errno { Errno(rawValue: ENOTDIR) }
    /// `EISDIR`: the path is a folder.
    public static var isDirectory: Errno { Errno(rawValue: EISDIR) }
    /// `EINVAL`: an invalid argument.
    public static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
    /// `ENOSPC`: no space left on the device.
    public static var noSpace: Errno { Errno(rawValue: ENOSPC) }
    /// `EROFS`: a read-only file system.
    public static var readOnlyFileSystem: Errno { Errno(rawValue: EROFS) }
    /// `EPIPE`: the reading end of a pipe or socket is closed.
    public static var brokenPipe: Errno { Errno(rawValue: EPIPE) }
    /// `ERANGE`: a result out of range.
    public static var outOfRange: Errno { Errno(rawValue: ERANGE) }
    /// `ELOOP`: too many symbolic links, or `O_NOFOLLOW` met a symbolic link.
    public static var tooManySymbolicLinks: Errno { Errno(rawValue: ELOOP) }
    /// `EMSGSIZE`: a message too long.
    public static var messageTooLong: Errno { Errno(rawValue: EMSGSIZE) }
    /// `EOPNOTSUPP`: the operation is not supported.
    public static var notSupported: Errno { Errno(rawValue: EOPNOTSUPP) }
    /// `ENOBUFS`: no buffer space (for netlink: the receive buffer overflowed).
    public static var noBufferSpace: Errno { Errno(rawValue: ENOBUFS) }
    /// `ENOTCONN`: not connected (for NAN: not running).
    public static var notConnected: Errno { Errno(rawValue: ENOTCONN) }
    /// `ENOLINK`: the link has been severed.
    public static var noLink: Errno { Errno(rawValue: ENOLINK) }
    /// `EALREADY`: an operation is already in progress.
    public static var alreadyInProgress: Errno { Errno(rawValue: EALREADY) }
    /// `EINPROGRESS`: the operation is now in progress.
    public static var nowInProgress: Errno { Errno(rawValue: EINPROGRESS) }
    /// `ERFKILL`: the radio is blocked by rfkill.
    public static var radioBlocked: Errno { Errno(rawValue: ERFKILL) }
    /// `ENETDOWN`: the network (interface) is down.
    public static var networkDown: Errno { Errno(rawValue: ENETDOWN) }
    /// `EFBIG`: a file too large.
    public static var fileTooLarge: Errno { Errno(rawValue: EFBIG) }
    /// `ETIMEDOUT`: the operation timed out.
    public static var timedOut: Errno { Errno(rawValue: ETIMEDOUT) }
    /// `ECONNRESET`: the peer reset the connection.
    public static var connectionReset: Errno { Errno(rawValue: ECONNRESET) }
    /// `ECONNREFUSED`: nothing listens at the address.
    public static var connectionRefused: Errno { Errno(rawValue: ECONNREFUSED) }
    /// `EHOSTUNREACH`: no route to the host.
    public static var hostUnreachable: Errno { Errno(rawValue: EHOSTUNREACH) }
    /// `ENETUNREACH`: the network is unreachable.
    public static var networkUnreachable: Errno { Errno(rawValue: ENETUNREACH) }
    /// `ECONNABORTED`: a connection was aborted before it was accepted.
    public static var connectionAborted: Errno { Errno(rawValue: ECONNABORTED) }
    /// `EADDRNOTAVAIL`: the address is not available (e.g. a link-local address on the wrong interface).
    public static var addressNotAvailable: Errno { Errno(rawValue: EADDRNOTAVAIL) }

    /// Whether the system refused for lack of permission or privilege (`EACCES` or `EPERM`).
    public var isPermissionDenied: Bool { self == .accessDenied || self == .notPermitted }

    /// The symbolic name, e.g. `EACCES`, or `errno N` for a number without a name here.
    public var name: String {
        switch rawValue {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case E2BIG: "E2BIG"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EBUSY: "EBUSY"
        case EEXIST: "EEXIST"
        case ENODEV: "ENODEV"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case EINVAL: "EINVAL"
        case ENOSPC: "ENOSPC"
        case EROFS: "EROFS"
        case EPIPE: "EPIPE"
        case ERANGE: "ERANGE"
        case ELOOP: "ELOOP"
        case EMSGSIZE: "EMSGSIZE"
        case EOPNOTSUPP: "EOPNOTSUPP"
        case ENOBUFS: "ENOBUFS"
        case ENOTCONN: "ENOTCONN"
        case ENOLINK: "ENOLINK"
        case EALREADY: "EALREADY"
        case EINPROGRESS: "EINPROGRESS"
        case ERFKILL: "ERFKILL"
        case ENETDOWN: "ENETDOWN"
        case ETIMEDOUT: "ETIMEDOUT"
        case EFBIG: "EFBIG"
        case ECONNRESET: "ECONNRESET"
        case ECONNREFUSED: "ECONNREFUSED"
        case EHOSTUNREACH: "EHOSTUNREACH"
        case ENETUNREACH: "ENETUNREACH"
        case EADDRNOTAVAIL: "EADDRNOTAVAIL"
        case ECONNABORTED: "ECONNABORTED"
        default: "errno \(rawValue)"
        }
    }

    /// The system's text for this errno, e.g. `Permission denied` (`strerror_r`, safe from any thread).
    public var message: String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer -> String in
            // The XSI strerror_r (what Swift sees) fills the buffer and returns 0.
            guard let base = buffer.baseAddress, strerror_r(rawValue, base, buffer.count) == 0 else { return name }
            return String(cString: base)
        }
    }

    /// `Permission denied (EACCES)`.
    public var description: String { "\(message) (\(name))" }
}

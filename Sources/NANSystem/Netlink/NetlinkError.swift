/// An error from the netlink layer: a kernel refusal, a missing family, a socket failure or a
/// message that could not be decoded.
///
/// The raw `errno` and the kernel's extended-ack text are kept as they came, so nothing is lost to
/// libnl's merged error codes. Match on ``code``: `catch let e as NetlinkError where e.code == .permissionDenied`.
public struct NetlinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public var code: Code
    /// The errno the kernel or the system call returned, if there was one.
    public var errno: Errno?
    /// The kernel's own explanation (netlink extended ack, `NLMSGERR_ATTR_MSG`), if it sent one.
    public var kernelMessage: String?
    /// The call that failed: an nl80211 or hwsim command name (`NL80211_CMD_START_NAN`) or a libnl or
    /// system function (`genl_ctrl_resolve`, `recv`).
    public var call: String
    /// Extra context, such as which attribute of a reply was malformed and at which offset.
    public var detail: String?

    /// Creates an error.
    public init(code: Code, errno: Errno? = nil, kernelMessage: String? = nil, call: String, detail: String? = nil) {
        self.code = code
        self.errno = errno
        self.kernelMessage = kernelMessage
        self.call = call
        self.detail = detail
    }

    /// The category of a ``NetlinkError``. New codes may be added; match with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case familyNotFound, permissionDenied, noSuchDevice, alreadyRunning, notRunning, notSupported, busy
            case overrun, kernel, malformedMessage, closed, system, invalidRequest, hwsimNotLoaded, hwsimWithoutNAN
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The generic netlink family is not in this kernel (for nl80211: no cfg80211 loaded).
        public static var familyNotFound: Self { Self(.familyNotFound) }
        /// The kernel refused with `EPERM` or `EACCES`: the caller needs `CAP_NET_ADMIN`.
        public static var permissionDenied: Self { Self(.permissionDenied) }
        /// The wiphy, wireless device or interface does not exist (any more): `ENODEV`.
        public static var noSuchDevice: Self { Self(.noSuchDevice) }
        /// NAN is already running on this device: `EEXIST` from `START_NAN` (set by ``NL80211Session/startNAN(on:configuration:)``).
        public static var alreadyRunning: Self { Self(.alreadyRunning) }
        /// NAN is not running on this device (or the interface is down): `ENOTCONN`, or `ENETDOWN`, which
        /// Linux 7.2 returns for `CHANGE_NAN_CONFIG` after `STOP_NAN`.
        public static var notRunning: Self { Self(.notRunning) }
        /// The driver or kernel does not support this operation: `EOPNOTSUPP`.
        public static var notSupported: Self { Self(.notSupported) }
        /// The device is busy: `EBUSY`.
        public static var busy: Self { Self(.busy) }
        /// The socket's receive buffer overflowed (`ENOBUFS`): messages were lost.
        public static var overrun: Self { Self(.overrun) }
        /// Any other kernel error; see ``NetlinkError/errno``.
        public static var kernel: Self { Self(.kernel) }
        /// A message from the kernel could not be decoded; see ``NetlinkError/detail``.
        public static var malformedMessage: Self { Self(.malformedMessage) }
        /// The session was closed before the request completed.
        public static var closed: Self { Self(.closed) }
        /// A system or libnl call failed locally (socket, send, receive); see ``NetlinkError/errno``.
        public static var system: Self { Self(.system) }
        /// A request was refused before it was sent because it breaks a kernel rule; see ``NetlinkError/detail``.
        public static var invalidRequest: Self { Self(.invalidRequest) }
        /// The `MAC80211_HWSIM` generic netlink family is missing: the module is not loaded.
        public static var hwsimNotLoaded: Self { Self(.hwsimNotLoaded) }
        /// This kernel's mac80211_hwsim cannot create NAN radios (no `HWSIM_ATTR_SUPPORT_NAN_DEVICE`).
        public static var hwsimWithoutNAN: Self { Self(.hwsimWithoutNAN) }

        /// A short name for the code, as used in messages.
        public var description: String {
            switch wrapped {
            case .familyNotFound: "family not found"
            case .permissionDenied: "permission denied"
            case .noSuchDevice: "no such device"
            case .alreadyRunning: "already running"
            case .notRunning: "not running"
            case .notSupported: "not supported"
            case .busy: "busy"
            case .overrun: "overrun"
            case .kernel: "kernel error"
            case .malformedMessage: "malformed message"
            case .closed: "session closed"
            case .system: "system error"
            case .invalidRequest: "invalid request"
            case .hwsimNotLoaded: "mac80211_hwsim not loaded"
            case .hwsimWithoutNAN: "mac80211_hwsim without NAN"
            }
        }
    }

    /// One line: what failed, why, and what the user can do about it.
    public var description: String {
        var line = "\(call): \(code)"
        if let errno { line += " (\(errno.name))" }
        if let kernelMessage, !kernelMessage.isEmpty { line += ": kernel says \"\(kernelMessage)\"" }
        if let detail, !detail.isEmpty { line += ": \(detail)" }
        if let hint { line += "; \(hint)" }
        return line
    }

    /// What the user can do, for the codes where there is something to do.
    private var hint: String? {
        switch code {
        case .familyNotFound: "this kernel has no nl80211 (load cfg80211 or use a kernel with wireless support)"
        case .permissionDenied: "run as root or grant CAP_NET_ADMIN"
        case .noSuchDevice: "the radio or interface is gone; list adapters again"
        case .alreadyRunning: "NAN is already running on this device; stop it first"
        case .notRunning: "the device is not running; start NAN (or bring the interface up) first"
        case .notSupported: "the driver does not support this; check the adapter's NAN capabilities"
        case .busy: "the device is busy; retry later"
        case .overrun: "events arrived faster than they were read; state may need to be refreshed"
        case .hwsimNotLoaded: "run `modprobe mac80211_hwsim radios=0`"
        case .hwsimWithoutNAN: "use a kernel whose mac80211_hwsim supports NAN (Linux 7.2 or newer)"
        case .closed: "the session was closed"
        default: nil
        }
    }

    /// Maps a kernel errno from a refused command to an error, keeping the errno and the message.
    ///
    /// - Parameters:
    /// What an errno means for one particular command (such as `EEXIST` from `START_NAN`) is decided
    /// by that command's caller, which re-codes the error; here only the meanings that hold for every
    /// command are applied.
    ///
    /// - Parameters:
    ///   - errno: the errno from the kernel's `NLMSG_ERROR`.
    ///   - kernelMessage: the extended-ack text, if any.
    ///   - call: the command name, e.g. `NL80211_CMD_START_NAN`.
    static func kernel(errno: Errno, kernelMessage: String?, call: String) -> NetlinkError {
        let code: Code
        switch errno {
        case .notPermitted, .accessDenied: code = .permissionDenied
        case .noSuchDevice: code = .noSuchDevice
        case .notConnected, .networkDown: code = .notRunning
        case .notSupported: code = .notSupported
        case .busy: code = .busy
        case .noBufferSpace: code = .overrun
        default: code = .kernel
        }
        return NetlinkError(code: code, errno: errno, kernelMessage: kernelMessage, call: call)
    }

    /// This error with another code (a command's caller giving an errno its meaning for that command).
    public func recoded(as code: Code) -> NetlinkError {
        var copy = self
        copy.code = code
        return copy
    }

    /// A decoding failure at a byte offset of a kernel message.
    static func malformed(_ what: String, at offset: Int, call: String = "decode") -> NetlinkError {
        NetlinkError(code: .malformedMessage, call: call, detail: "\(what) at offset \(offset)")
    }
}

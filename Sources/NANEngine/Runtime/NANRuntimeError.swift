/// Errors of the NAN device runtime. Each has a code to test and a one-line message.
public struct NANRuntimeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The runtime's nl80211 session ended (closed, or the NAN interface is gone).
        case sessionEnded
        /// `start` was called on a runtime that already started NAN.
        case alreadyStarted
    }

    /// The code.
    public var code: Code
    /// The message.
    public var message: String
    /// The message.
    public var description: String { message }

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The session ended.
    static let sessionEnded = NANRuntimeError(
        .sessionEnded, "the NAN device's kernel session ended (NAN interface gone?)")
    /// NAN was already started.
    static let alreadyStarted = NANRuntimeError(.alreadyStarted, "NAN is already started on this runtime")
}

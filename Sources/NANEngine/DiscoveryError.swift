/// Errors of the discovery engine: a ``code`` to match on and a one-line message saying what to do.
///
/// Match on the code, never on the text: `catch let e as DiscoveryError where e.code == .sessionEnded`.
public struct DiscoveryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of a ``DiscoveryError``. New codes may be added; match with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case tooLong, tooManyServices, sessionEnded, engineStopped, offloadUnavailable, noCluster, noPublishType
            case invalidArgument, other
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// Service specific info or a message is longer than a discovery frame carries.
        public static var tooLong: Code { Code(.tooLong) }
        /// All 255 instance IDs are in use.
        public static var tooManyServices: Code { Code(.tooManyServices) }
        /// The publish or subscribe has ended.
        public static var sessionEnded: Code { Code(.sessionEnded) }
        /// The engine has stopped.
        public static var engineStopped: Code { Code(.engineStopped) }
        /// The driver offloads discovery, which this build cannot drive.
        public static var offloadUnavailable: Code { Code(.offloadUnavailable) }
        /// NAN started but joined no cluster in time.
        public static var noCluster: Code { Code(.noCluster) }
        /// A publish with no type.
        public static var noPublishType: Code { Code(.noPublishType) }
        /// A value given to the engine is out of its range; see the message.
        public static var invalidArgument: Code { Code(.invalidArgument) }
        /// Anything else (a radio's own failure); see the message.
        public static var other: Code { Code(.other) }

        /// The code's name, e.g. `sessionEnded`.
        public var description: String { wrapped.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What went wrong and what to do, in one line.
    public var message: String

    /// Creates an error with a code and its message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Creates an error of code ``Code/other`` (a radio's own failure) with a message.
    public init(_ message: String) { self.init(.other, message) }

    /// The message.
    public var description: String { message }

    /// Service specific info or a message is longer than a discovery frame carries.
    public static func tooLong(_ count: Int, limit: Int) -> DiscoveryError {
        DiscoveryError(
            .tooLong,
            "message of \(count) bytes is longer than the \(limit) bytes a discovery frame carries; shorten it")
    }
    /// A service response filter lists more addresses than a discovery frame carries.
    public static func responseFilterTooLong(_ count: Int, limit: Int) -> DiscoveryError {
        DiscoveryError(
            "a service response filter of \(count) addresses does not fit in a discovery frame (at most \(limit)); list fewer addresses or use a Bloom filter"
        )
    }
    /// All 255 instance IDs are in use.
    public static let tooManyServices = DiscoveryError(
        .tooManyServices, "all 255 NAN instance IDs are in use; stop a publish or subscribe first")
    /// The publish or subscribe has ended.
    public static let sessionEnded = DiscoveryError(
        .sessionEnded, "this publish or subscribe has ended; start a new one")
    /// The engine has stopped.
    public static let engineStopped = DiscoveryError(
        .engineStopped, "the discovery engine has stopped (NAN interface gone?)")
    /// The driver offloads discovery but this build cannot drive ADD_NAN_FUNCTION yet.
    public static let offloadUnavailable = DiscoveryError(
        .offloadUnavailable,
        "this adapter runs discovery in its driver, which waware cannot drive yet; use an adapter with user-space discovery (hwsim)"
    )
    /// No cluster joined in time.
    public static let noCluster = DiscoveryError(
        .noCluster, "NAN started but joined no cluster within 10 s; check the adapter with 'waware cluster start'")
    /// A publish with no type.
    public static let noPublishType = DiscoveryError(.noPublishType, "a publish must be solicited, unsolicited or both")
}

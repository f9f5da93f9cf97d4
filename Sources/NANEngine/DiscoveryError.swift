/// Errors of the discovery engine. Each has a one-line message saying what to do.
public struct DiscoveryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }

    /// Service specific info or a message is longer than a discovery frame carries.
    public static func tooLong(_ count: Int, limit: Int) -> DiscoveryError {
        DiscoveryError("message of \(count) bytes is longer than the \(limit) bytes a discovery frame carries; shorten it")
    }
    /// A service response filter lists more addresses than a discovery frame carries.
    public static func responseFilterTooLong(_ count: Int, limit: Int) -> DiscoveryError {
        DiscoveryError("a service response filter of \(count) addresses does not fit in a discovery frame (at most \(limit)); list fewer addresses or use a Bloom filter")
    }
    /// All 255 instance IDs are in use.
    public static let tooManyServices = DiscoveryError("all 255 NAN instance IDs are in use; stop a publish or subscribe first")
    /// The publish or subscribe has ended.
    public static let sessionEnded = DiscoveryError("this publish or subscribe has ended; start a new one")
    /// The engine has stopped.
    public static let engineStopped = DiscoveryError("the discovery engine has stopped (NAN interface gone?)")
    /// The driver offloads discovery but this build cannot drive ADD_NAN_FUNCTION yet.
    public static let offloadUnavailable = DiscoveryError("this adapter runs discovery in its driver, which waware cannot drive yet; use an adapter with user-space discovery (hwsim)")
    /// No cluster joined in time.
    public static let noCluster = DiscoveryError("NAN started but joined no cluster within 10 s; check the adapter with 'waware cluster start'")
    /// A publish with no type.
    public static let noPublishType = DiscoveryError("a publish must be solicited, unsolicited or both")
}

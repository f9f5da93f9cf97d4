/// Errors of the discovery engine. Each has a one-line message saying what to do.
public struct DiscoveryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }

    /// Service specific info or a message is longer than a discovery frame carries.
    public static func tooLong(_ count: Int, limit: Int) -> DiscoveryError {
        DiscoveryError("message of \(count) bytes is longer than the \(limit) bytes a discovery frame carries; shorten it")
    }
    /// All 255 instance IDs are in use.
    public static let tooManyServices = DiscoveryError("all 255 NAN instance IDs are in use; stop a publish or subscribe first")
    /// The publish or subscribe has ended.
    public static let sessionEnded = DiscoveryError("this publish or subscribe has ended; start a new one")
    /// The engine has stopped.
    public static let engineStopped = DiscoveryError("the discovery engine has stopped (NAN interface gone?)")
    /// A publish with no type.
    public static let noPublishType = DiscoveryError("a publish must be solicited, unsolicited or both")
}

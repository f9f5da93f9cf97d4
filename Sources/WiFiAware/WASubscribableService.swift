/// A service this program may subscribe to (browse for), declared under `Subscribable` in the
/// services file.
///
/// ```swift
/// let service = try WASubscribableService.named("_file-share._tcp")
/// ```
public struct WASubscribableService: WAService {
    /// The validated service name.
    public let name: WAServiceName
    /// What was declared for it.
    let defaults: DeclaredServiceDefaults
    /// Service-specific information sent to publishers (at most 255 bytes).
    public var serviceInfo: [UInt8] { defaults.serviceInfo }
    /// The match filter a publisher's filter must match.
    public var matchFilter: [[UInt8]] { defaults.matchFilter }
    /// Whether a data path (a network connection) to discovered publishers is wanted.
    public var wantsDataPath: Bool { defaults.wantsDataPath }

    /// Every subscribable service declared in the default services file, keyed by name (Apple's
    /// `allServices`); empty when the file is missing or invalid: ``named(_:)`` says why.
    public static var allServices: [String: WASubscribableService] {
        (try? WAServiceRegistry.loadDefault().subscribableServices) ?? [:]
    }

    /// Looks up a subscribable service in the default services file.
    ///
    /// - Parameter name: The service name, e.g. `_file-share._tcp`.
    /// - Returns: The declared service with its defaults.
    /// - Throws: ``WAError/Code/invalidServiceName``, ``WAError/Code/serviceNotDeclared``, or an error
    ///   reading the services file.
    public static func named(_ name: String) throws(WAError) -> WASubscribableService {
        try WAServiceRegistry.loadDefault().subscribableService(named: name)
    }
}

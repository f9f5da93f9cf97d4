/// A service this program may publish, declared under `Publishable` in the services file.
///
/// ```swift
/// let service = try WAPublishableService.named("_file-share._tcp")
/// // or, Apple-style: WAPublishableService.allServices["_file-share._tcp"]   (nil when not declared)
/// ```
public struct WAPublishableService: WAService {
    /// The validated service name.
    public let name: WAServiceName
    /// What was declared for it.
    let defaults: DeclaredServiceDefaults
    /// Service-specific information sent to subscribers (at most 255 bytes).
    public var serviceInfo: [UInt8] { defaults.serviceInfo }
    /// The match filter sent to subscribers.
    public var matchFilter: [[UInt8]] { defaults.matchFilter }
    /// Whether subscribers are offered a data path (a network connection) or discovery only.
    public var wantsDataPath: Bool { defaults.wantsDataPath }

    /// Every publishable service declared in the default services file, keyed by name (Apple's
    /// `allServices`); empty when the file is missing or invalid: ``named(_:)`` says why.
    public static var allServices: [String: WAPublishableService] {
        (try? WAServiceRegistry.loadDefault().publishableServices) ?? [:]
    }

    /// Looks up a publishable service in the default services file.
    ///
    /// - Parameter name: The service name, e.g. `_file-share._tcp`.
    /// - Returns: The declared service with its defaults.
    /// - Throws: ``WAError/Code/invalidServiceName``, ``WAError/Code/serviceNotDeclared``, or an error
    ///   reading the services file.
    public static func named(_ name: String) throws(WAError) -> WAPublishableService {
        try WAServiceRegistry.loadDefault().publishableService(named: name)
    }
}

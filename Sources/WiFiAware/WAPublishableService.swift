/// A service this program may publish, declared under `Publishable` in the services file.
///
/// ```swift
/// let service = try WAPublishableService.named("_file-share._tcp")
/// // or, Apple-style: try WAPublishableService.allServices["_file-share._tcp"]
/// ```
public struct WAPublishableService: WAService {
    /// The validated service name.
    public let name: WAServiceName
    /// Service-specific information sent to subscribers (at most 255 bytes).
    public let serviceInfo: [UInt8]
    /// The match filter sent to subscribers.
    public let matchFilter: [[UInt8]]
    /// Whether subscribers are offered a data path (a network connection) or discovery only.
    public let wantsDataPath: Bool

    init(name: WAServiceName, defaults: DeclaredServiceDefaults) {
        self.name = name
        self.serviceInfo = defaults.serviceInfo
        self.matchFilter = defaults.matchFilter
        self.wantsDataPath = defaults.wantsDataPath
    }

    /// Every publishable service declared in the default services file, keyed by name.
    ///
    /// - Throws: ``WAError/Code/servicesFileNotFound`` or ``WAError/Code/servicesFileInvalid``.
    public static var allServices: [String: WAPublishableService] {
        get throws(WAError) { try WAServiceRegistry.loadDefault().publishableServices }
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

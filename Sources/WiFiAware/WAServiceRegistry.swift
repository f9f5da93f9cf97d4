public import FoundationEssentials
internal import NANSystem

/// The services a program has declared: the parsed services file.
///
/// Apple apps declare services in Info.plist; on Linux they are declared in a JSON file.
/// ``loadDefault(environment:)`` finds it in the first of these places that exists:
/// 1. `$WAWARE_SERVICES`, if set (then only there),
/// 2. `$XDG_CONFIG_HOME/waware/services.json` (default `~/.config/waware/services.json`),
/// 3. `/etc/waware/services.json`.
///
/// ``load(from:)`` reads an explicit path instead.
public struct WAServiceRegistry: Sendable {
    /// The file the services were read from, or `nil` if they were parsed from data.
    public let source: URL?
    /// The services declared `Publishable`, keyed by name.
    public let publishableServices: [String: WAPublishableService]
    /// The services declared `Subscribable`, keyed by name.
    public let subscribableServices: [String: WASubscribableService]

    /// Parses services-file JSON.
    ///
    /// - Parameters:
    ///   - jsonData: The file's contents.
    ///   - source: Where the data came from, used in error messages.
    /// - Throws: ``WAError/Code/servicesFileInvalid`` naming the place and the rule that failed.
    public init(jsonData: Data, source: URL? = nil) throws(WAError) {
        let declarations = try ServicesFile.parse(jsonData, source: source?.path ?? "(data)")
        var publishable: [String: WAPublishableService] = [:]
        var subscribable: [String: WASubscribableService] = [:]
        for declaration in declarations {
            let key = declaration.name.rawValue
            if let defaults = declaration.publishable {
                publishable[key] = WAPublishableService(name: declaration.name, defaults: defaults)
            }
            if let defaults = declaration.subscribable {
                subscribable[key] = WASubscribableService(name: declaration.name, defaults: defaults)
            }
        }
        self.source = source
        self.publishableServices = publishable
        self.subscribableServices = subscribable
    }

    /// Reads the services file at an explicit path.
    ///
    /// - Parameter url: The services file.
    /// - Returns: The declared services.
    /// - Throws: ``WAError/Code/servicesFileNotFound`` if there is no file, ``WAError/Code/permissionDenied``
    ///   if it cannot be read, ``WAError/Code/servicesFileInvalid`` if its contents are wrong.
    public static func load(from url: URL) throws(WAError) -> WAServiceRegistry {
        let contents: [UInt8]?
        do throws(FileError) {
            contents = try FileContents.readRegularFile(
                at: url.path, limit: maximumFileSize, what: "the services file", followingSymbolicLinks: true)
        } catch {
            throw WAError.file(error, action: "read the services file", path: url.path)
        }
        guard let contents else {
            throw WAError(
                .servicesFileNotFound,
                message: "services file \(url.path) does not exist; create it (see docs/api.md) or pass another path")
        }
        return try WAServiceRegistry(jsonData: Data(contents), source: url)
    }

    /// The largest services file read, in bytes.
    static let maximumFileSize = 1 << 20

    /// Reads the services file from its default location.
    ///
    /// - Parameter environment: The environment to read `WAWARE_SERVICES`, `XDG_CONFIG_HOME` and `HOME` from.
    /// - Returns: The declared services.
    /// - Throws: ``WAError/Code/servicesFileNotFound`` listing the places searched, or an error from ``load(from:)``.
    public static func loadDefault(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(WAError) -> WAServiceRegistry {
        let candidates = defaultSearchPaths(environment: environment)
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            let list = candidates.map(\.path).joined(separator: ", ")
            throw WAError(
                .servicesFileNotFound,
                message: "no services file found (looked in \(list)); create one that declares your services under "
                    + "WiFiAwareServices, or set WAWARE_SERVICES to its path")
        }
        return try load(from: found)
    }

    /// The places ``loadDefault(environment:)`` looks, in order.
    ///
    /// - Parameter environment: The environment to read `WAWARE_SERVICES`, `XDG_CONFIG_HOME` and `HOME` from.
    /// - Returns: Only `$WAWARE_SERVICES` if it is set; otherwise the per-user then the system-wide file.
    public static func defaultSearchPaths(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [URL] {
        if let explicit = environment["WAWARE_SERVICES"], !explicit.isEmpty {
            return [URL(fileURLWithPath: explicit)]
        }
        var paths: [URL] = []
        if let config = XDGDirectory.config.base(in: environment) {
            paths.append(config.appendingPathComponent("waware/services.json"))
        }
        paths.append(URL(fileURLWithPath: "/etc/waware/services.json"))
        return paths
    }

    /// Looks up a publishable service.
    ///
    /// - Parameter name: The service name, e.g. `_file-share._tcp`.
    /// - Returns: The declared service.
    /// - Throws: ``WAError/Code/invalidServiceName`` or ``WAError/Code/serviceNotDeclared``.
    public func publishableService(named name: String) throws(WAError) -> WAPublishableService {
        try lookUp(name, in: publishableServices, role: "Publishable")
    }

    /// Looks up a subscribable service.
    ///
    /// - Parameter name: The service name, e.g. `_file-share._tcp`.
    /// - Returns: The declared service.
    /// - Throws: ``WAError/Code/invalidServiceName`` or ``WAError/Code/serviceNotDeclared``.
    public func subscribableService(named name: String) throws(WAError) -> WASubscribableService {
        try lookUp(name, in: subscribableServices, role: "Subscribable")
    }

    /// The service `name` declared for `role`, which `services` lists.
    private func lookUp<Service>(
        _ name: String, in services: [String: Service], role: String
    ) throws(WAError) -> Service {
        _ = try WAServiceName(name)
        guard let service = services[name] else {
            throw WAError(
                .serviceNotDeclared,
                message: "service '\(name)' is not declared \(role) in \(source?.path ?? "the services data"); add "
                    + "\"\(role)\": {} under WiFiAwareServices > \(name)")
        }
        return service
    }
}

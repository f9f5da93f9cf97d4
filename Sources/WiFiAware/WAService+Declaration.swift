// Declaring a service in code, for programs (such as the waware CLI) whose services are chosen at
// run time rather than listed in a services file. The same limits as in the file apply.

extension DeclaredServiceDefaults {
    /// Checks values given in code against the services file's limits.
    static func validated(
        serviceInfo: [UInt8], matchFilter: [[UInt8]], wantsDataPath: Bool
    ) throws(WAError) -> DeclaredServiceDefaults {
        guard serviceInfo.count <= maximumServiceInfoLength else {
            throw WAError(
                .invalidArgument,
                message:
                    "service info is \(serviceInfo.count) bytes; at most \(maximumServiceInfoLength) fit in a NAN frame"
            )
        }
        let encodedLength = matchFilter.reduce(0) { $0 + 1 + $1.count }
        guard encodedLength <= maximumMatchFilterLength else {
            throw WAError(
                .invalidArgument,
                message:
                    "the match filter encodes to \(encodedLength) bytes; at most \(maximumMatchFilterLength) fit in a NAN frame"
            )
        }
        return DeclaredServiceDefaults(serviceInfo: serviceInfo, matchFilter: matchFilter, wantsDataPath: wantsDataPath)
    }
}

extension WAPublishableService {
    /// Declares a publishable service in code instead of the services file (tools, tests).
    ///
    /// Programs with a fixed set of services should declare them in the services file, as Apple apps do
    /// in Info.plist, and look them up with ``named(_:)``.
    ///
    /// - Parameters:
    ///   - name: The validated service name.
    ///   - serviceInfo: Service-specific information (at most 255 bytes).
    ///   - matchFilter: Match filter elements (encoded at most 255 bytes).
    ///   - wantsDataPath: Whether subscribers are offered a data path.
    /// - Throws: ``WAError/Code/invalidArgument`` if a value is too long.
    public init(
        name: WAServiceName, serviceInfo: [UInt8] = [], matchFilter: [[UInt8]] = [], wantsDataPath: Bool = false
    ) throws(WAError) {
        self.init(
            name: name,
            defaults: try .validated(serviceInfo: serviceInfo, matchFilter: matchFilter, wantsDataPath: wantsDataPath))
    }
}

extension WASubscribableService {
    /// Declares a subscribable service in code instead of the services file (tools, tests).
    ///
    /// - Parameters:
    ///   - name: The validated service name.
    ///   - serviceInfo: Service-specific information sent with active subscribes (at most 255 bytes).
    ///   - matchFilter: Match filter elements (encoded at most 255 bytes).
    ///   - wantsDataPath: Whether a data path is wanted.
    /// - Throws: ``WAError/Code/invalidArgument`` if a value is too long.
    public init(
        name: WAServiceName, serviceInfo: [UInt8] = [], matchFilter: [[UInt8]] = [], wantsDataPath: Bool = false
    ) throws(WAError) {
        self.init(
            name: name,
            defaults: try .validated(serviceInfo: serviceInfo, matchFilter: matchFilter, wantsDataPath: wantsDataPath))
    }
}

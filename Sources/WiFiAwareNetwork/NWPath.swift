/// The path a ready ``NetworkConnection`` runs over (Apple's `NWPath`): a NAN data path.
public struct NWPath: Sendable, CustomStringConvertible {
    /// The data path.
    public let dataPath: WADataPathConnection

    /// The NAN data interface, e.g. `nan0data0`.
    public var interfaceName: String { dataPath.interfaceName }

    /// The Wi-Fi Aware side of the path with its performance, measured now (Apple's `NWPath.wifiAware`).
    ///
    /// - Throws: ``NWError`` when the radio cannot report (the data path ended).
    public var wifiAware: WAPath? {
        get async throws(NWError) {
            let system = try await SharedSystem.shared.system()
            do {
                return WAPath(
                    dataPath: dataPath, performance: try await system.performanceReport(for: dataPath, probes: nil))
            } catch { throw NWError(error) }
        }
    }

    /// `nan0data0 fe80::… -> fe80::…`.
    public var description: String { "\(interfaceName) \(dataPath.localAddress) -> \(dataPath.peerAddress)" }
}

/// A Wi-Fi Aware path and its performance (Apple's `WAPath`).
public struct WAPath: Sendable {
    /// The data path.
    public let dataPath: WADataPathConnection
    /// Signal, throughput ceiling and link counters when it was read.
    public let performance: WAPerformanceReport
}

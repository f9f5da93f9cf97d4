import FoundationEssentials
internal import Synchronization
import NANSystem
import WiFiAware

/// Brings up Wi-Fi Aware on the adapter a command names, for the duration of a closure.
enum DiscoveryRun {
    /// Selects the adapter (as every command does), then runs `body` with Wi-Fi Aware up on it: the path
    /// `publish` and `subscribe` take, through the public WiFiAware API. Once `body` has ended, stopping
    /// Wi-Fi Aware is bounded by ``TeardownBound/limit``.
    /// - Parameter performanceMode: the schedule the data paths of this run use (`perf --mode`; nil: the default).
    /// - Throws: ``CommandFailure`` for a missing or NAN-less adapter, `WAError` (ErrorTranslation maps it to
    ///   the exit code of the kernel refusal behind it), or what `body` throws.
    static func withSystem<Result: Sendable>(
        adapter reference: String?, masterPreference: UInt8, performanceMode: WAPerformanceMode? = nil,
        fixedAddress: Bool = false,
        _ body: (WASystem, AdapterReport) async throws -> Result
    ) async throws -> Result {
        let adapters = try await NL80211.withSession { session in try await session.adapters() }
        let report = try AdapterSelection.select(reference, from: adapters.map(AdapterReport.init))
        try AdapterSelection.requireNAN(report)
        var options = WASystemOptions()
        options.masterPreference = masterPreference
        options.keepsAdapterAddress = fixedAddress
        options.logger = Diagnostics.logger()
        options.swapsDataPathSchedule = Diagnostics.swapsDataPathSchedule()
        options.limitsDataPathScheduleToChannel6 = Diagnostics.limitsDataPathScheduleToChannel6()
        options.transmitsDataPathSetupOnDataLink = Diagnostics.transmitsDataPathSetupOnDataLink()
        options.performanceMode = performanceMode
        let bound = Mutex<TeardownBound?>(nil)
        defer { bound.withLock { $0?.finished() } }
        return try await WASystem.run(adapter: report.phy, options: options) { system in
            do {
                let result = try await body(system, report)
                bound.withLock { $0 = TeardownBound(outcome: nil) }
                return result
            } catch {
                bound.withLock { $0 = TeardownBound(outcome: error) }
                throw error
            }
        }
    }

    /// Seconds since the Unix epoch, to the microsecond: comparable between processes on one machine.
    static func wallClock() -> Double { Date().timeIntervalSince1970 }
}

import Dispatch
import NANWire
@_spi(Tools) import WiFiAware
internal import Synchronization

/// Bounds the end of a command: once its work is done (its output written, its outcome known), stopping
/// Wi-Fi Aware (data-path terminations, sessions, NAN stop, the interfaces) gets `limit`; past it, the
/// process says so in one line and exits with the status the outcome calls for. Every command that runs
/// through ``DiscoveryRun/withSystem(adapter:masterPreference:performanceMode:_:)`` has it, so no script
/// or daemon waits forever on a teardown the kernel finishes anyway: it removes the interfaces this
/// process's netlink socket owns when the process ends.
final class TeardownBound: Sendable {
    /// How long stopping may take once the work is done. A data path's termination is retried at up to 8
    /// DWs (about 4 s); a loaded emulated machine is several times slower.
    static let limit: Duration = .seconds(30)

    private let ended = Mutex(false)

    /// Starts the clock for a command whose work ended with `outcome` (nil: success).
    init(
        outcome: (any Error)?, limit: Duration = TeardownBound.limit, output: Output = Output(),
        exit: @escaping @Sendable (Int32) -> Void = { ToolProcess.exit($0) }
    ) {
        let delay = DispatchTimeInterval.nanoseconds(Int(clamping: limit.inNanoseconds))
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            guard ended.withLock({ !$0 }) else { return }
            output.fail(
                "warning: stopping Wi-Fi Aware took more than \(limit.components.seconds) s after the command "
                    + "ended; exiting anyway (the kernel removes this process's interfaces)")
            let code = outcome.map { CommandRunner.report($0, output: output) } ?? .success
            exit(code.rawValue)
        }
    }

    /// The teardown finished in time: nothing more happens.
    func finished() {
        ended.withLock { $0 = true }
    }
}

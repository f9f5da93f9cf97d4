import Dispatch
import NANSystem
import Synchronization

/// Turns SIGINT and SIGTERM into task cancellation, so a long-running command stops through its normal,
/// scoped teardown (stop NAN, delete the interface) instead of dying mid-way.
@_spi(Tools) public enum SignalCancellation {
    /// Runs `body` in a child task that is cancelled on the first SIGINT or SIGTERM.
    ///
    /// The signals' default action is ignored first and a `DispatchSource` watches them instead. A second
    /// signal while the teardown runs exits at once with 128+signal: the kernel still removes interfaces
    /// owned by this process's netlink socket when the process ends.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        let state = SignalState()
        let sources = [ProcessControl.Signal.interrupt, .terminate].map { signal in
            ProcessControl.ignore(signal)
            let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: .global())
            source.setEventHandler {
                if state.noteSignal() {
                    ProcessControl.exit(128 + signal.rawValue)
                }
                task.cancel()
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
        }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}

/// Counts the signals received, so the second one can force an exit.
private final class SignalState: Sendable {
    private let count = Mutex(0)

    /// Records a signal; returns `true` if one had already arrived.
    func noteSignal() -> Bool {
        count.withLock { value in
            value += 1
            return value > 1
        }
    }
}

internal import Synchronization

/// `--timeout` for a command that iterates a subscriber: when the time is up the subscription is stopped
/// (so its sequence ends and the command reports what it found), and whatever still runs `grace` later is
/// cancelled, so the process never outlives its timeout by more than that. `subscribe` and `perf` share it.
@_spi(Tools) public enum SubscriptionTimeout {
    /// How long the subscription may take to end after the timeout stopped it before it is cancelled: a
    /// follow-up still being retried, or a data path, ends then.
    public static let grace: Duration = .seconds(3)

    /// Runs `body` (which iterates `subscriber`); after `timeout` seconds (nil: never) stops `subscriber`,
    /// marks the ``TimeoutMark`` and cancels `body` if it has not ended `grace` later.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (a `CancellationError` if it ends by the cancellation).
    public static func run<Result: Sendable>(
        _ subscriber: WASubscriber, timeout: Double?, grace: Duration = grace,
        _ body: @escaping @Sendable (TimeoutMark) async throws -> Result
    ) async throws -> Result {
        guard let timeout else { return try await body(TimeoutMark()) }
        return try await race(timeout: timeout, grace: grace, onTimeout: { await subscriber.stop() }, body)
    }

    /// Runs `body`; after `timeout` seconds marks the ``TimeoutMark`` and runs `onTimeout` (which should make
    /// `body` end), then cancels `body` if it has not ended `grace` later.
    public static func race<Result: Sendable>(
        timeout: Double, grace: Duration, onTimeout: @escaping @Sendable () async -> Void,
        _ body: @escaping @Sendable (TimeoutMark) async throws -> Result
    ) async throws -> Result {
        let timedOut = TimeoutMark()
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await body(timedOut) }
            group.addTask {
                // Cancelled when the body ended first: that is no error.
                do { try await Task.sleep(for: .milliseconds(Int64(timeout * 1000))) } catch { return nil }
                timedOut.set()
                await onTimeout()
                try? await Task.sleep(for: grace)
                return nil
            }
            // The first to end cancels the other; the body's result (or error) is the outcome.
            while let next = try await group.next() {
                group.cancelAll()
                if let result = next { return result }
            }
            throw CancellationError()
        }
    }
}

/// Set once `--timeout` has stopped a subscription, so its end is reported as a timeout (and not, say, as
/// the Ctrl-C that also cancels it).
@_spi(Tools) public final class TimeoutMark: Sendable {
    private let state = Mutex(false)

    /// Records that the timeout fired.
    public func set() { state.withLock { $0 = true } }

    /// Whether the timeout fired.
    public var isSet: Bool { state.withLock { $0 } }
}

import Synchronization
import Testing

@_spi(Tools) @testable import WiFiAware

// `subscribe --timeout` and `perf --timeout` share SubscriptionTimeout: the body's result when it ends first,
// and a body stuck past the timeout and its grace is cancelled.
@Suite struct SubscriptionTimeoutTests {
    @Test func aBodyThatEndsFirstGivesItsResultAndTheTimerIsNotAnError() async throws {
        let value = try await SubscriptionTimeout.race(timeout: 10, grace: .seconds(1), onTimeout: {}) { _ in 42 }
        #expect(value == 42)
    }

    @Test func aBodyStuckPastTimeoutAndGraceIsCancelled() async throws {
        let stopped = Mutex(false)
        await #expect(throws: CancellationError.self) {
            _ = try await SubscriptionTimeout.race(
                timeout: 0.05, grace: .milliseconds(50), onTimeout: { stopped.withLock { $0 = true } }
            ) { mark -> Int in
                try await Task.sleep(for: .seconds(60))
                return mark.isSet ? 1 : 0
            }
        }
        // Ended by the cancellation long before the body's 60 s sleep (no time asserted: a loaded machine is slow).
        #expect(stopped.withLock { $0 })
    }

    @Test func aBodyThatEndsWhenStoppedSeesTheTimeoutMark() async throws {
        let wake = AsyncStream<Void>.makeStream()
        let marked = try await SubscriptionTimeout.race(
            timeout: 0.05, grace: .seconds(5), onTimeout: { wake.continuation.finish() }
        ) { mark -> Bool in
            for await _ in wake.stream {}
            return mark.isSet
        }
        #expect(marked)
    }
}

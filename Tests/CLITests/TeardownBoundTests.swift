import Synchronization
import Testing

@testable import waware

// Every command run through DiscoveryRun.withSystem: once its work is done, stopping Wi-Fi Aware is bounded,
// and a teardown that never ends still exits, with the status the command's outcome calls for.

private final class ExitRecorder: Sendable {
    let codes = Mutex<[Int32]>([])
    func record(_ code: Int32) { codes.withLock { $0.append(code) } }
    var seen: [Int32] { codes.withLock { $0 } }
}

@Suite struct TeardownBoundTests {
    @Test func aTeardownPastItsLimitExitsWithSuccessAfterASuccessfulCommand() async throws {
        let exits = ExitRecorder()
        _ = TeardownBound(outcome: nil, limit: .milliseconds(20), exit: { exits.record($0) })
        try await Task.sleep(for: .milliseconds(400))
        #expect(exits.seen == [0])
    }

    @Test func aTeardownPastItsLimitExitsWithTheFailuresCode() async throws {
        let exits = ExitRecorder()
        _ = TeardownBound(
            outcome: CommandFailure("the peer went away", code: .peerLost), limit: .milliseconds(20),
            exit: { exits.record($0) })
        try await Task.sleep(for: .milliseconds(400))
        #expect(exits.seen == [ExitCode.peerLost.rawValue])
    }

    @Test func aTeardownThatFinishesInTimeExitsNothing() async throws {
        let exits = ExitRecorder()
        let bound = TeardownBound(outcome: nil, limit: .milliseconds(100), exit: { exits.record($0) })
        bound.finished()
        try await Task.sleep(for: .milliseconds(400))
        #expect(exits.seen.isEmpty)
    }
}

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

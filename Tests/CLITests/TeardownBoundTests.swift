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

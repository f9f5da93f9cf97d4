import Testing
@testable import NANEngine

/// The one retry loop: attempts until one is acknowledged, never more than the policy's, each after its
/// `before` step, which may stop the loop.
@Suite struct TransmitPolicyTests {
    @Test func attemptsStopAtTheFirstAcknowledgement() async {
        var made: [Int] = []
        let answers: [Bool?] = [nil, false, true, true]
        let delivered = await TransmitPolicy(attempts: 4, statusTimeout: .seconds(1)).deliver { _ in
            true
        } attempt: { _ in
            made.append(made.count)
            return answers[made.count - 1]
        }
        #expect(delivered && made.count == 3)
    }

    @Test func anUnacknowledgedFrameIsSentTheNumberOfAttemptsThenGivenUp() async {
        var befores: [Int] = []
        let delivered = await TransmitPolicy(attempts: 3, statusTimeout: .seconds(1)).deliver { attempt in
            befores.append(attempt)
            return true
        } attempt: { _ in
            false
        }
        #expect(!delivered && befores == [0, 1, 2])
    }

    @Test func aBeforeStepThatFailsEndsTheLoop() async {
        var attempts = 0
        let delivered = await TransmitPolicy(attempts: 5, statusTimeout: .seconds(1)).deliver {
            $0 < 2
        } attempt: { _ in
            attempts += 1
            return false
        }
        #expect(!delivered && attempts == 2)
        #expect(TransmitPolicy(attempts: 0, statusTimeout: .zero).attempts == 1)
    }
}

@testable import NANEngine
import NANWire
import Testing

/// An initiator whose frame 1 got no frame 2 sends it again (``PairingEngine/Limits/frame1Resend``), and a
/// responder answers the same frame 1 with the same frame 2: a frame lost on a flooded air, or in a flooded
/// responder's event queue, costs a resend, not the pairing (issue 24).
@Suite struct PASNFrame1ResendTests {
    static let limits = PairingEngine.Limits(
        attemptLifetime: .seconds(120), nikDelay: .zero, verificationDelay: .zero,
        frame1Resend: .milliseconds(200))

    @Test func aLostFrame1IsSentAgainAndThePairingCompletes() async throws {
        let run = try await HeldPairing(limits: Self.limits)
        let (air, pairing) = (run.air, run.pairing)
        let lost = await air.takeHeld()
        #expect(lost.count == 1)
        await air.release()
        let device = try await pairing.value
        #expect(device.id == PairingEngineTests.b)
    }

    @Test func aLostFrame2IsAnsweredAgainWithTheSameFrame2() async throws {
        let run = try await HeldPairing(limits: Self.limits)
        let (air, engineA, engineB, pairing) = (run.air, run.initiator, run.responder, run.pairing)
        let frame1 = try #require(await air.takeHeld().first)
        await engineB.handle(authentication: frame1)
        await engineB.answersSent()
        let firstAnswer = try #require(await air.takeHeld().first)  // B's frame 2, lost
        try await ForgedPASNFrameTests.held(1, on: air)  // A's frame 1 again
        let again = try #require(await air.takeHeld().first)
        #expect(again == frame1)
        await engineB.handle(authentication: again)
        await engineB.answersSent()
        let secondAnswer = try #require(await air.takeHeld().first)
        #expect(secondAnswer == firstAnswer)
        #expect(await engineB.attemptCount == 1)
        await air.release()
        await engineA.handle(authentication: secondAnswer)
        let device = try await pairing.value
        #expect(device.id == PairingEngineTests.b)
    }
}

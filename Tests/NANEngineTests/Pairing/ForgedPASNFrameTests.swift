@testable import NANEngine
import NANWire
import Testing

/// An attacker on the air can send any PASN frame with a peer's address: a frame 1, a frame 2 or 3 that fails
/// its check, a refusal. None of them ends, restarts or takes over the attempt the peer runs with us; the
/// peer's own frames still complete the pairing (issue 24). The exchanges run over the loopback air of
/// ``PairingEngineTests``, held back so the forged frame lands in the middle.
@Suite struct ForgedPASNFrameTests {
    typealias Air = PairingEngineTests.LoopbackAir
    static let a = PairingEngineTests.a, b = PairingEngineTests.b, pin = PairingEngineTests.pin

    /// A frame 1 anyone can make with `source`'s address: an SAE commit under a PIN the forger guessed.
    static func forgedFrame1(
        from source: MACAddress, to destination: MACAddress, pin: String = "000000"
    ) throws -> [UInt8] {
        var initiator = try PASNPairingInitiator(
            own: source, peer: destination, publishID: InstanceID(1), method: .password(Array(pin.utf8)),
            suite: .pk128, identity: .random(), peerIdentity: nil, deviceCapability: nil)
        return try PASNManagementFrame(
            body: initiator.start(), destination: destination, source: source,
            bssid: PairingEngineTests.cluster
        ).encoded()
    }

    /// `frame` as if sent from `source` (the flood of a frame 1 copied under ever new addresses).
    static func redirectedSource(_ frame: [UInt8], _ source: MACAddress) -> [UInt8] {
        var bytes = frame
        bytes.replaceSubrange(10..<16, with: source.bytes)
        return bytes
    }

    static func forged(
        _ body: PASNAuthenticationFrame, from source: MACAddress, to destination: MACAddress
    ) throws -> [UInt8] {
        try PASNManagementFrame(body: body, destination: destination, source: source, bssid: PairingEngineTests.cluster)
            .encoded()
    }

    /// Waits until `count` frames are held on `air` (the exchange runs in another task).
    static func held(_ count: Int, on air: Air) async throws {
        for _ in 0..<500 where await air.heldCount < count { try await Task.sleep(for: .milliseconds(10)) }
        try #require(await air.heldCount >= count)
    }

    static func engines(on air: Air) async throws -> (PairingEngine, PairingEngine) {
        let engineA = try await PairingEngineTests.engine(a, on: air)
        let engineB = try await PairingEngineTests.engine(b, on: air)
        await engineB.setPolicy(password: pin, allowsOpportunistic: false)
        return (engineA, engineB)
    }

    @Test func aForgedFrame1BeforeThePeersOwnNeitherEndsNorTakesOverItsAttempt() async throws {
        let air = Air()
        let (engineA, engineB) = try await Self.engines(on: air)
        await air.hold()
        let pairing = Task {
            try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        }
        try await Self.held(1, on: air)
        let genuine = try #require(await air.sent.first)
        // The forger's frame 1 reaches B first, then A's own: B answers both.
        await engineB.handle(authentication: try Self.forgedFrame1(from: Self.a, to: Self.b))
        await engineB.handle(authentication: genuine)
        #expect(await engineB.attemptCount == 1)
        // A gets the answer to the forged frame first (it fails A's check), then the answer to its own.
        await air.release()
        let device = try await pairing.value
        #expect(device.id == Self.b)
        #expect(
            await PairingEngineTests.eventually { await engineB.pairedDevices.first?.pairing.npk == device.pairing.npk }
        )
        #expect(await engineA.refusedFrames >= 1)
    }

    @Test func aForgedFrame1AfterThePeersOwnChangesNothing() async throws {
        let air = Air()
        let (engineA, engineB) = try await Self.engines(on: air)
        await air.hold()
        let pairing = Task {
            try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        }
        try await Self.held(1, on: air)
        await air.release()  // A's frame 1 reaches B, and B's frame 2 reaches A ...
        let device = try await pairing.value
        // ... and a forged frame 1 with A's address afterwards starts nothing that ends the pairing.
        await engineB.handle(authentication: try Self.forgedFrame1(from: Self.a, to: Self.b))
        #expect(
            await PairingEngineTests.eventually { await engineB.pairedDevices.first?.pairing.npk == device.pairing.npk }
        )
    }

    @Test func aForgedFrame1CrossingOursLeavesOurExchangeToThePeersFrame2() async throws {
        // B's address is the larger: a frame 1 "from B" while A's own waits for B's frame 2 is a crossing, and
        // A answers it. It was the forger's: B answers A's frame 1, and A's own exchange goes on.
        let air = Air()
        let (engineA, engineB) = try await Self.engines(on: air)
        #expect(Self.b > Self.a)
        await air.hold()
        let pairing = Task {
            try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        }
        try await Self.held(1, on: air)
        await engineA.handle(authentication: try Self.forgedFrame1(from: Self.b, to: Self.a))
        try await Self.held(2, on: air)  // A's answer to the forged frame, on its way to B
        await air.release()
        let device = try await pairing.value
        #expect(device.id == Self.b)
        #expect(
            await PairingEngineTests.eventually { await engineB.pairedDevices.first?.pairing.npk == device.pairing.npk }
        )
    }

    @Test func aForgedRefusalInFrame2DoesNotEndTheInitiatorsAttempt() async throws {
        let air = Air()
        let (engineA, _) = try await Self.engines(on: air)
        await air.hold()
        let pairing = Task {
            try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        }
        try await Self.held(1, on: air)
        await engineA.handle(
            authentication: try Self.forged(PASNPairing.failureFrame(sequence: 2), from: Self.b, to: Self.a))
        #expect(await engineA.attemptCount == 1)
        await air.release()
        #expect(try await pairing.value.id == Self.b)
        #expect(await engineA.refusedFrames == 1)
    }

    @Test func aForgedFailedFrame3DoesNotEndTheRespondersAttempt() async throws {
        let air = Air()
        let (engineA, engineB) = try await Self.engines(on: air)
        await air.hold()
        let pairing = Task {
            try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        }
        try await Self.held(1, on: air)
        await engineB.handle(authentication: try #require(await air.sent.first))  // B answers; its frame 2 is held
        // "The PINs differ", from the forger: B's attempt waits on for A's real frame 3.
        let wrongPIN = PASNPairing.failureFrame(sequence: 3, status: PASNPairing.statusChallengeFailure)
        await engineB.handle(authentication: try Self.forged(wrongPIN, from: Self.a, to: Self.b))
        #expect(await engineB.attemptCount == 1)
        await air.release()
        let device = try await pairing.value
        #expect(
            await PairingEngineTests.eventually { await engineB.pairedDevices.first?.pairing.npk == device.pairing.npk }
        )
        #expect(await engineB.refusedFrames == 1)
    }

    @Test func aSourceWhoseFrame1WasRefusedIsNotAnsweredAgainAtOnce() async throws {
        // Each frame 1 costs an SAE commit: a source refused a moment ago gets no second run, and no answer.
        let air = Air()
        // A minute between frame 1s of one source: the whole suite on two cores took over the default second
        // between the two below.
        let engineB = try await PairingEngineTests.engine(
            Self.b, on: air,
            limits: .init(
                attemptLifetime: .seconds(120), nikDelay: .zero, verificationDelay: .zero, frame1Interval: .seconds(60))
        )
        await engineB.setPolicy(password: nil, allowsOpportunistic: false)
        let mallory = MACAddress(0x02, 0, 0, 0, 0, 0x66)
        await engineB.handle(authentication: try Self.forgedFrame1(from: mallory, to: Self.b))
        await engineB.answersSent()
        let answered = await air.sent.count
        #expect(answered == 1)  // the refusal
        await engineB.handle(authentication: try Self.forgedFrame1(from: mallory, to: Self.b))
        await engineB.answersSent()
        #expect(await air.sent.count == answered)
        #expect(await engineB.refusedFrames == 1)
        #expect(await engineB.attemptCount == 0)
    }
}

@testable import NANEngine
import NANWire
import Testing

/// A PIN pairing (PASN frames 1–3 and the NIK follow-ups, between two ``PairingEngine``s) with stray frames
/// delivered before each of its frames: the frames sent so far again, copies mutated byte by byte, and a
/// third party's frames between the same two addresses under another PIN (only the SAE confirm and the MIC
/// tell them apart). Then everything still on the air is delivered, as a late air would.
///
/// What must hold: no trap, and the pairing completes on both sides with one NPK; no stray frame ends,
/// restarts or takes over the attempt (issue 24).
@Suite struct PairingSequenceFuzzTests {
    typealias Air = PairingEngineTests.LoopbackAir
    static let a = PairingEngineTests.a, b = PairingEngineTests.b, pin = PairingEngineTests.pin
    /// The NIK follow-up waits this long after frame 3, so the strays before frame 3 land first.
    static let limits = PairingEngine.Limits(
        attemptLifetime: .seconds(120), nikDelay: .milliseconds(300), verificationDelay: .zero)

    /// Every PASN frame of a completed pairing between the same addresses under another PIN.
    static func thirdPartyFrames() async throws -> [[UInt8]] {
        let air = Air()
        let engineA = try await PairingEngineTests.engine(a, on: air)
        let engineB = try await PairingEngineTests.engine(b, on: air)
        let other = Array("975310".utf8)
        await engineB.setPolicy(password: other, allowsOpportunistic: false)
        _ = try await engineA.pair(with: b, publishID: InstanceID(1), method: .password(other))
        return await air.sent
    }

    static func destination(of frame: [UInt8]) -> MACAddress? {
        (try? PASNManagementFrame(bytes: frame))?.header.destination
    }

    static func sequence(of frame: [UInt8]) -> UInt16? {
        (try? PASNManagementFrame(bytes: frame))?.body.sequence
    }

    @Test func strayFramesBeforeEachStepNeitherEndNorTakeOverThePairing() async throws {
        let thirdParty = try await Self.thirdPartyFrames()
        let budget = FuzzBudget.fromEnvironment(defaultSequences: 20)
        try await budget.run("pairing") { random, _ in
            let run = try await HeldPairing(limits: Self.limits)
            let (air, engineA, engineB, pairing) = (run.air, run.initiator, run.responder, run.pairing)
            var sent: [[UInt8]] = []
            var pending = await air.takeHeld().first { Self.sequence(of: $0) == 1 }
            for step in 1...3 {
                guard let genuine = pending else { pairing.cancel(); return "no frame \(step) to deliver" }
                sent.append(genuine)
                let pool = sent + thirdParty
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    var stray = random.pick(pool)
                    if random.chance(60) {
                        // The 24-byte header stays: the stray still goes to a victim, from the other's address.
                        stray = FrameMutation.mutate(stray, others: pool, keep: 24, using: &random)
                    }
                    if stray == genuine { continue }
                    // Before frame 1 only A holds an attempt; a refused frame 1 from A's address would make B
                    // drop A's own for a second (Limits.frame1Interval), which is that rule's price, not a fault.
                    let toA = step == 1 || random.chance(50)
                    await (toA ? engineA : engineB).handle(
                        authentication: toA
                            ? Self.redirected(stray, to: Self.a, from: Self.b)
                            : Self.redirected(stray, to: Self.b, from: Self.a))
                }
                await (step == 2 ? engineA : engineB).handle(authentication: genuine)
                // A responder's answers leave without holding up the next frame: wait for them.
                await engineA.answersSent()
                await engineB.answersSent()
                let answer = await air.takeHeld()
                // The answer to the genuine frame: the next frame, to the side that sent it.
                let receiver = step == 1 ? Self.a : Self.b
                pending =
                    step < 3
                    ? answer.first { Self.sequence(of: $0) == UInt16(step + 1) && Self.destination(of: $0) == receiver }
                    : nil
            }
            // The air delivers whatever is still on it from now on.
            await air.release()
            let outcome = await Self.within(.seconds(20)) { try? await pairing.value }
            pairing.cancel()
            guard let device = outcome ?? nil else { return "A's pairing did not complete" }
            for _ in 0..<200 where await engineB.pairedDevices.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            guard device.id == Self.b, await engineB.pairedDevices.first?.pairing.npk == device.pairing.npk else {
                return "the two sides did not end with one pairing"
            }
            return nil
        }
    }

    /// `frame` with its addresses set: to `destination` from `source` (a stray from a victim's address).
    static func redirected(_ frame: [UInt8], to destination: MACAddress, from source: MACAddress) -> [UInt8] {
        guard frame.count >= 16 else { return frame }
        var bytes = frame
        bytes.replaceSubrange(4..<10, with: destination.bytes)
        bytes.replaceSubrange(10..<16, with: source.bytes)
        return bytes
    }

    /// The value of `body`, or nil when it takes longer than `limit`.
    static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask {
                try? await Task.sleep(for: limit); return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

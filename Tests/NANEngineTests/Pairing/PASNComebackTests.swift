@testable import NANEngine
import NANWire
import Testing

/// PASN anti-clogging (``PASNComebackCookies``): a responder with attempts in progress answers a frame 1
/// without a valid cookie with a status 30 frame 2 and a cookie, runs no key exchange for it, and takes the
/// initiator's frame 1 that comes back with the cookie (issue 24).
@Suite struct PASNComebackTests {
    typealias Air = PairingEngineTests.LoopbackAir
    static let a = PairingEngineTests.a, b = PairingEngineTests.b, pin = PairingEngineTests.pin
    static let limits = PairingEngine.Limits(
        attemptLifetime: .seconds(120), nikDelay: .zero, verificationDelay: .zero,
        comebackThreshold: 1)

    @Test func aBusyResponderAsksForACookieAndTheInitiatorComesBackWithItAndPairs() async throws {
        let air = Air()
        let engineA = try await PairingEngineTests.engine(Self.a, on: air, limits: Self.limits)
        let engineB = try await PairingEngineTests.engine(Self.b, on: air, limits: Self.limits)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        // A flooder's frame 1 holds one attempt at B: B is now busy.
        let flooder = MACAddress(0x42, 0, 0, 0, 9, 9)
        await engineB.handle(authentication: try ForgedPASNFrameTests.forgedFrame1(from: flooder, to: Self.b))
        #expect(await engineB.attemptCount == 1)
        // A second flooder gets a cookie and no attempt.
        await engineB.handle(
            authentication: try ForgedPASNFrameTests.forgedFrame1(from: MACAddress(0x42, 0, 0, 0, 9, 8), to: Self.b))
        #expect(await engineB.attemptCount == 1)
        #expect(await engineB.comebacksSent == 1)

        let device = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        #expect(device.id == Self.b)
        #expect(await engineB.comebacksSent == 2)
        #expect(
            await PairingEngineTests.eventually { await engineB.pairedDevices.first?.pairing.npk == device.pairing.npk }
        )
    }

    /// A peer that bootstrapped with us showed it receives at its address: a busy responder runs its frame 1
    /// without the round trip of a cookie, which a flooded air may lose.
    @Test func aBusyResponderRunsTheFrame1OfAPeerThatBootstrappedWithItWithoutACookie() async throws {
        let air = Air()
        let engineA = try await PairingEngineTests.engine(Self.a, on: air, limits: Self.limits)
        let engineB = try await PairingEngineTests.engine(Self.b, on: air, limits: Self.limits)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        await engineB.setBootstrapping(supported: .pinDisplay, autoAccept: .pinDisplay)
        _ = try await engineA.bootstrap(with: Self.b, localMethods: .pinKeypad, peerMethods: .pinDisplay)
        await engineB.handle(
            authentication: try ForgedPASNFrameTests.forgedFrame1(from: MACAddress(0x42, 0, 0, 0, 9, 9), to: Self.b))
        let device = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        #expect(device.id == Self.b)
        #expect(await engineB.comebacksSent == 0)
    }

    /// Each answer to an address nobody listens at is sent again and again: a busy responder sends at most
    /// 1 comeback frame a second and drops the other frame 1s unanswered.
    @Test func aBusyResponderRationsItsComebackFrames() async throws {
        let air = Air()
        let engineB = try await PairingEngineTests.engine(Self.b, on: air, limits: Self.limits)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        let frame1 = try ForgedPASNFrameTests.forgedFrame1(from: MACAddress(0x42, 0, 0, 0, 9, 9), to: Self.b)
        await engineB.handle(authentication: frame1)
        let before = await engineB.refusedFrames
        for last in UInt8(0)..<30 {
            await engineB.handle(
                authentication: ForgedPASNFrameTests.redirectedSource(frame1, MACAddress(0x42, 0, 0, 1, 0, last)))
        }
        #expect(await engineB.comebacksSent == PairingEngine.comebacksPerSecond)
        #expect(await engineB.refusedFrames - before == 30 - PairingEngine.comebacksPerSecond)
        #expect(await engineB.attemptCount == 1)
    }

    @Test func aCookieCountsOnlyForTheAddressItWasGivenTo() {
        var cookies = PASNComebackCookies()
        let cookie = cookies.cookie(for: Self.a)
        #expect(cookie.count == PASNComebackCookies.length)
        #expect(cookies.isValid(cookie, for: Self.a))
        #expect(!cookies.isValid(cookie, for: Self.b))
        #expect(!cookies.isValid(nil, for: Self.a) && !cookies.isValid([], for: Self.a))
        var flipped = cookie
        flipped[0] ^= 1
        #expect(!cookies.isValid(flipped, for: Self.a))
    }

    @Test func aCookieOutlivesOneRotationButNotTwo() {
        var cookies = PASNComebackCookies()
        let start = ContinuousClock.now
        let cookie = cookies.cookie(for: Self.a, now: start)
        #expect(cookies.isValid(cookie, for: Self.a, now: start + PASNComebackCookies.rotation + .seconds(1)))
        #expect(!cookies.isValid(cookie, for: Self.a, now: start + PASNComebackCookies.rotation * 2 + .seconds(2)))
    }

    @Test func theComebackFrameCarriesStatus30AndTheCookieInItsParameters() throws {
        var cookies = PASNComebackCookies()
        let built = cookies.frame(for: Self.a, after: 10)
        let frame = try #require(built)
        #expect(frame.sequence == 2 && frame.status == 30)
        let decoded = try PASNAuthenticationFrame(decoding: try PASNPairing.encoded(frame)[...])
        let comeback = try #require(try decoded.parameters()?.comeback)
        #expect(comeback.after == 10)
        #expect(cookies.isValid(Array(comeback.cookie), for: Self.a))
    }
    /// A link whose Authentication frames are never acknowledged: each send waits out its deliveries, as
    /// one to an address nobody listens at does (here, until the test ends).
    struct UnacknowledgedLink: PairingLink {
        func send(authentication frame: [UInt8]) async throws { try await Task.sleep(for: .seconds(3600)) }
        func send(keyDescriptor: SharedKeyDescriptorAttribute, to peer: MACAddress) async throws {}
        func send(bootstrapping: PairingBootstrappingAttribute, to peer: MACAddress) async throws {}
    }

    /// Frames are handed to the engine one at a time: answers that wait for acknowledgements that never
    /// come (a flood's addresses) must not hold up the frames behind them, a real peer's frame 3 among them.
    @Test func aResponderTakesTheNextFrameWhileItsAnswersWaitForAcknowledgements() async throws {
        let engine = PairingEngine(
            localAddress: Self.b, cluster: PairingEngineTests.cluster, identity: try .random(),
            link: UnacknowledgedLink(), devices: [], limits: Self.limits)
        await engine.setPolicy(password: Self.pin, allowsOpportunistic: false)
        let handled = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                // The first opens an attempt (its frame 2 waits); the next get a comeback (waits) or are dropped.
                for last in UInt8(0)..<20 {
                    guard
                        let frame = try? ForgedPASNFrameTests.forgedFrame1(
                            from: MACAddress(0x42, 0, 0, 2, 0, last), to: Self.b)
                    else { return false }
                    await engine.handle(authentication: frame)
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(handled, "a frame waited for the answer to the one before it")
        #expect(await engine.attemptCount == 1)
        #expect(await engine.comebacksSent == 1)
    }
}

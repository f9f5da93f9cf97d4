@testable import NANEngine
import NANWire
import Testing

/// PASN anti-clogging (``PASNComebackCookies``): a responder with attempts in progress answers a frame 1
/// without a valid cookie with a status 30 frame 2 and a cookie, runs no key exchange for it, and takes the
/// initiator's frame 1 that comes back with the cookie (issue 24).
@Suite struct PASNComebackTests {
    typealias Air = PairingEngineTests.LoopbackAir
    static let a = PairingEngineTests.a, b = PairingEngineTests.b, pin = PairingEngineTests.pin
    static let limits = PairingEngine.Limits(attemptLifetime: .seconds(120), nikDelay: .zero, verificationDelay: .zero,
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
        await engineB.handle(authentication: try ForgedPASNFrameTests.forgedFrame1(from: MACAddress(0x42, 0, 0, 0, 9, 8), to: Self.b))
        #expect(await engineB.attemptCount == 1)
        #expect(await engineB.comebacksSent == 1)

        let device = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        #expect(device.id == Self.b)
        #expect(await engineB.comebacksSent == 2)
        #expect(await engineB.pairedDevices.first?.pairing.npk == device.pairing.npk)
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
}

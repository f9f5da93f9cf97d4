import Foundation
@testable import NANEngine
import NANCrypto
import NANSystem
import NANWire
import Testing

/// Bootstrapping (NPBA in follow-ups) against wpa_supplicant 2.12 as its source builds it (issue 23; see
/// docs/interop-pairing-findings.md §1). The peer's frames are fixtures laid out from hostap's code
/// (Fixtures/wpa_supplicant-2.12, README there); the expected bytes of ours are what its parser reads.
@Suite struct WPASupplicantBootstrappingTests {
    static let waware = WPASupplicantFixtures.waware, wpa = WPASupplicantFixtures.wpa, nik = WPASupplicantFixtures.nik
    let t0 = ContinuousClock.now

    static func frame(_ name: String) throws -> [UInt8] { try WPASupplicantFixtures.frame(name) }
    static func announcement(_ name: String) throws -> (IncomingDiscoveryFrame, ServiceAnnouncement) {
        try WPASupplicantFixtures.announcement(name)
    }
    static func bytes(_ attribute: PairingBootstrappingAttribute) throws -> String { hexText(try attribute.encoded()) }

    // MARK: bootstrapping, wpa_supplicant requesting

    @Test func aKeypadRequestFromWpaSupplicantIsToldToComeBackThenAcceptedWithOurDisplayMethod() throws {
        let (frame, item) = try Self.announcement("bootstrap-request-pin-keypad.hex")
        #expect(frame.source == Self.wpa && item.kind == .followUp)
        #expect(item.instanceID == InstanceID(1) && item.requestorInstanceID == InstanceID(5))
        let request = try #require(item.bootstrapping)
        #expect(request.type == .request && request.methods == .pinKeypad && request.dialogToken == 0x2a)

        var responder = BootstrappingResponder(supported: .pinDisplay)
        let comeback = try responder.receive(request, from: Self.wpa, at: t0)
        let cookie = try #require(comeback.comeback?.cookie)
        // What nan_bootstrap_handle_rx parses: response, status comeback, comeback-after, cookie, no method.
        #expect(try Self.bytes(comeback) == "2c0c002a2200" + "e803" + "04" + hexText(cookie) + "0000")

        // wpa_supplicant comes back with the cookie and its own method, as nan_bootstrap_build_npba writes it.
        let authorized = responder.authorize(Self.wpa)
        #expect(authorized)
        let again = try PairingBootstrappingAttribute(
            decoding: hexBytes("2c0a00" + "2a" + "21" + "00" + "04" + hexText(cookie) + "2000"))
        let accepted = try responder.receive(again, from: Self.wpa, at: t0)
        // Accepted with our own method: complement(0x0002) == 0x0020, the method wpa_supplicant asked with.
        #expect(try Self.bytes(accepted) == "2c05002a02000200")
    }

    @Test func anOpportunisticRequestFromWpaSupplicantIsAcceptedAtOnce() throws {
        let (_, item) = try Self.announcement("bootstrap-request-opportunistic.hex")
        let request = try #require(item.bootstrapping)
        var responder = BootstrappingResponder(supported: .opportunistic, autoAccept: .opportunistic)
        #expect(try Self.bytes(try responder.receive(request, from: Self.wpa, at: t0)) == "2c05002b02000100")
    }

    @Test func aRepeatedRequestIsAnsweredWithTheCookieAlreadyGiven() throws {
        // wpa_supplicant re-sends its request every second until it hears from us; our answer waits for a
        // DW. Two different cookies could reach it in either order, and its comeback would match nothing.
        let (_, item) = try Self.announcement("bootstrap-request-pin-keypad.hex")
        let request = try #require(item.bootstrapping)
        var responder = BootstrappingResponder(supported: .pinDisplay)
        let first = try responder.receive(request, from: Self.wpa, at: t0)
        let second = try responder.receive(request, from: Self.wpa, at: t0 + .seconds(1))
        #expect(first.comeback?.cookie == second.comeback?.cookie)
        #expect(responder.pending[Self.wpa]?.since == t0)
        // A new dialog token is a new request: a new cookie.
        var fresh = request
        fresh.dialogToken = 0x2b
        let third = try responder.receive(fresh, from: Self.wpa, at: t0 + .seconds(2))
        #expect(third.comeback?.cookie != first.comeback?.cookie)
    }

    @Test func aWpaSupplicantFollowUpIsAnsweredByThePairingEngineOverItsRoute() async throws {
        let (_, item) = try Self.announcement("bootstrap-request-pin-keypad.hex")
        let link = RecordingLink()
        let engine = PairingEngine(
            localAddress: Self.waware, cluster: MACAddress(0x50, 0x6f, 0x9a, 0x01, 0xee, 0x40),
            identity: Self.nik, link: link)
        await engine.setBootstrapping(supported: .pinDisplay)
        await engine.handle(bootstrapping: try #require(item.bootstrapping), from: Self.wpa)
        let sent = await link.bootstrapping
        #expect(sent.count == 1 && sent.first?.peer == Self.wpa && sent.first?.attribute.status == .comeback)
    }

    // MARK: bootstrapping, waware requesting

    @Test func ourKeypadRequestCarriesOurOwnMethodAndFollowsWpaSupplicantsComeback() throws {
        var initiator = try BootstrappingInitiator(
            peer: Self.wpa, localMethods: .pinKeypad, peerMethods: .pinDisplay, dialogToken: 0x2a)
        // nan_bootstrap_handle_rx_request takes the requester's own method and answers for its complement.
        #expect(try Self.bytes(try initiator.request(at: t0)) == "2c05002a01002000")

        let comeback = try #require(try Self.announcement("bootstrap-response-comeback.hex").1.bootstrapping)
        try initiator.receive(comeback, from: Self.wpa, at: t0)
        guard case .comebackDue(let due, _) = initiator.state else {
            Issue.record("no comeback: \(initiator.state)"); return
        }
        #expect(due == t0 + .microseconds(1024 * 1024))
        // Its comeback check: request, status comeback, cookie, the same method, no comeback-after.
        #expect(try Self.bytes(try initiator.request(at: due)) == "2c0a002a210004c0ffee012000")

        let accepted = try #require(
            try Self.announcement("bootstrap-response-accepted-pin-display.hex").1.bootstrapping)
        try initiator.receive(accepted, from: Self.wpa, at: due)
        #expect(initiator.state == .accepted && initiator.method == .pinKeypad)
    }
}

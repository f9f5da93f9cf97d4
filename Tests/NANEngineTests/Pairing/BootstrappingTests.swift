@testable import NANEngine
import NANWire
import Testing

/// NAN pairing bootstrapping (NPBA in follow-ups): both sides driven against each other, then hostile and
/// out-of-order input, timeouts and the table bounds.
@Suite struct BootstrappingTests {
    static let a = MACAddress(0x02, 0, 0, 0, 0, 0x0a)
    static let b = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
    static let c = MACAddress(0x02, 0, 0, 0, 0, 0x0c)
    let t0 = ContinuousClock.now

    @Test func methodChoiceUsesComplements() {
        #expect(BootstrappingMethods.choose(local: [.pinDisplay, .pinKeypad], peer: [.pinKeypad]) == .pinDisplay)
        #expect(
            BootstrappingMethods.choose(local: [.opportunistic, .pinKeypad], peer: [.opportunistic, .pinDisplay])
                == .opportunistic)
        #expect(BootstrappingMethods.choose(local: [.pinDisplay], peer: [.pinDisplay]) == nil)
        #expect(BootstrappingMethods.choose(local: [.qrDisplay], peer: [.qrScan]) == nil)  // QR left out
        #expect(throws: PairingError.self) {
            _ = try BootstrappingInitiator(
                peer: Self.b, localMethods: [.pinDisplay], peerMethods: [.nfcReader], dialogToken: 1)
        }
    }

    @Test func opportunisticIsAcceptedAtOnce() throws {
        var initiator = try BootstrappingInitiator(
            peer: Self.b, localMethods: .opportunistic, peerMethods: .opportunistic, dialogToken: 7)
        var responder = BootstrappingResponder(supported: [.opportunistic, .pinDisplay], autoAccept: .opportunistic)
        let response = try responder.receive(initiator.request(at: t0), from: Self.a, at: t0)
        try initiator.receive(response, from: Self.b, at: t0)
        #expect(initiator.state == .accepted && initiator.method == .opportunistic)
        #expect(responder.pending.isEmpty)
    }

    @Test func pinNeedsTheUserThenTheComebackIsAccepted() throws {
        // A types the PIN that B shows: A's method is keypad, B's display.
        var initiator = try BootstrappingInitiator(
            peer: Self.b, localMethods: .pinKeypad, peerMethods: .pinDisplay, dialogToken: 3)
        var responder = BootstrappingResponder(supported: .pinDisplay)
        var response = try responder.receive(initiator.request(at: t0), from: Self.a, at: t0)
        #expect(response.status == .comeback && response.comeback?.cookie.count == 4)
        #expect(responder.pending[Self.a]?.localMethod == .pinDisplay)
        try initiator.receive(response, from: Self.b, at: t0)
        guard case .comebackDue(let due, _) = initiator.state else { Issue.record("no comeback"); return }
        #expect(throws: PairingError.self) { _ = try initiator.request(at: t0) }  // not due yet
        // Before the user confirms, the comeback gets another comeback.
        response = try responder.receive(initiator.request(at: due), from: Self.a, at: due)
        #expect(response.status == .comeback)
        try initiator.receive(response, from: Self.b, at: due)
        guard case .comebackDue(let due2, _) = initiator.state else { Issue.record("no second comeback"); return }
        let authorized = responder.authorize(Self.a)
        #expect(authorized)
        response = try responder.receive(initiator.request(at: due2), from: Self.a, at: due2)
        #expect(response.status == .accepted)
        try initiator.receive(response, from: Self.b, at: due2)
        #expect(initiator.state == .accepted && initiator.comebacks == 2)
        #expect(responder.pending.isEmpty)
    }

    @Test func unsupportedMethodIsRejectedWithTheReason() throws {
        var initiator = try BootstrappingInitiator(
            peer: Self.b, localMethods: .passphraseKeypad, peerMethods: .passphraseDisplay, dialogToken: 1)
        var responder = BootstrappingResponder(supported: .pinDisplay)
        let response = try responder.receive(initiator.request(at: t0), from: Self.a, at: t0)
        #expect(response.status == .rejected && response.reasonCode == .pairingBootstrappingRejected)
        #expect(throws: PairingError.self) { try initiator.receive(response, from: Self.b, at: t0) }
        guard case .failed(let error) = initiator.state else { Issue.record("not failed"); return }
        #expect(error.code == .rejected)
    }

    @Test func initiatorIgnoresFramesThatDoNotAnswerIt() throws {
        var initiator = try BootstrappingInitiator(
            peer: Self.b, localMethods: .pinKeypad, peerMethods: .pinDisplay, dialogToken: 9)
        let accepted = PairingBootstrappingAttribute(dialogToken: 9, type: .response, methods: .pinKeypad)
        // Before any request: out of order.
        #expect(throws: PairingError.self) { try initiator.receive(accepted, from: Self.b, at: t0) }
        #expect(initiator.state == .idle)
        _ = try initiator.request(at: t0)
        let hostile: [(PairingBootstrappingAttribute, MACAddress)] = [
            (accepted, Self.c),  // another peer
            (PairingBootstrappingAttribute(dialogToken: 8, type: .response, methods: .pinKeypad), Self.b),  // token
            (PairingBootstrappingAttribute(dialogToken: 9, type: .request, methods: .pinKeypad), Self.b),  // a request
            (PairingBootstrappingAttribute(dialogToken: 9, type: .advertise, methods: .pinKeypad), Self.b),
        ]
        for (frame, sender) in hostile {
            #expect(throws: PairingError.self) { try initiator.receive(frame, from: sender, at: t0) }
            #expect(initiator.state == .awaitingResponse(since: t0))
        }
        try initiator.receive(accepted, from: Self.b, at: t0)
        #expect(initiator.state == .accepted)
        // A duplicate after acceptance is out of order and changes nothing.
        #expect(throws: PairingError.self) { try initiator.receive(accepted, from: Self.b, at: t0) }
        #expect(initiator.state == .accepted)
    }

    @Test func acceptanceOfAnotherMethodIsAMismatch() throws {
        var initiator = try BootstrappingInitiator(
            peer: Self.b, localMethods: .pinKeypad, peerMethods: .pinDisplay, dialogToken: 2)
        _ = try initiator.request(at: t0)
        #expect(throws: PairingError.self) {
            try initiator.receive(
                PairingBootstrappingAttribute(dialogToken: 2, type: .response, methods: .passphraseDisplay),
                from: Self.b, at: t0)
        }
        guard case .failed(let error) = initiator.state else { Issue.record("not failed"); return }
        #expect(error.code == .methodMismatch)
    }

    @Test func noResponseTimesOutAndEndlessComebacksEnd() throws {
        var initiator = try BootstrappingInitiator(
            peer: Self.b, localMethods: .pinKeypad, peerMethods: .pinDisplay, dialogToken: 4,
            limits: .init(responseTimeout: .seconds(3), maximumComebacks: 2))
        _ = try initiator.request(at: t0)
        let early = initiator.tick(at: t0 + .seconds(2)), late = initiator.tick(at: t0 + .seconds(3))
        #expect(!early && late)
        guard case .failed(let error) = initiator.state else { Issue.record("not failed"); return }
        #expect(error.code == .timedOut)

        var patient = try BootstrappingInitiator(
            peer: Self.b, localMethods: .pinKeypad, peerMethods: .pinDisplay, dialogToken: 5,
            limits: .init(maximumComebacks: 2, maximumComebackDelay: .seconds(1)))
        let comeback = PairingBootstrappingAttribute(
            dialogToken: 5, type: .response, status: .comeback,
            comeback: .init(after: 65535, cookie: [1][...]), methods: .pinKeypad)
        var now = t0
        _ = try patient.request(at: now)
        for _ in 0..<2 {
            try patient.receive(comeback, from: Self.b, at: now)
            guard case .comebackDue(let due, _) = patient.state else { Issue.record("no comeback"); return }
            #expect(due - now <= .seconds(1))  // a huge comeback-after is clamped
            now = due
            _ = try patient.request(at: now)
        }
        #expect(throws: PairingError.self) { try patient.receive(comeback, from: Self.b, at: now) }
        guard case .failed(let ended) = patient.state else { Issue.record("not failed"); return }
        #expect(ended.code == .timedOut)
    }

    @Test func responderRefusesForgedComebacksAndNonRequests() throws {
        var responder = BootstrappingResponder(supported: .pinDisplay)
        let request = PairingBootstrappingAttribute(dialogToken: 1, type: .request, methods: .pinKeypad)
        let first = try responder.receive(request, from: Self.a, at: t0)
        responder.authorize(Self.a)
        let cookie = try #require(first.comeback?.cookie)
        var forged = Array(cookie); forged[0] ^= 0xff
        let attempts: [(PairingBootstrappingAttribute, MACAddress)] = [
            (
                PairingBootstrappingAttribute(
                    dialogToken: 1, type: .request, status: .comeback, comeback: .init(after: nil, cookie: forged[...]),
                    methods: .pinKeypad), Self.a
            ),
            (
                PairingBootstrappingAttribute(
                    dialogToken: 1, type: .request, status: .comeback, comeback: .init(after: nil, cookie: cookie),
                    methods: .pinKeypad), Self.c
            ),
            (
                PairingBootstrappingAttribute(
                    dialogToken: 2, type: .request, status: .comeback, comeback: .init(after: nil, cookie: cookie),
                    methods: .pinKeypad), Self.a
            ),
            (PairingBootstrappingAttribute(dialogToken: 1, type: .response, methods: .pinKeypad), Self.a),
        ]
        for (frame, sender) in attempts {
            #expect(throws: PairingError.self) { _ = try responder.receive(frame, from: sender, at: t0) }
        }
        #expect(responder.pending[Self.a]?.authorized == true)
        let accepted = try responder.receive(
            PairingBootstrappingAttribute(
                dialogToken: 1, type: .request, status: .comeback,
                comeback: .init(after: nil, cookie: cookie), methods: .pinKeypad), from: Self.a, at: t0)
        #expect(accepted.status == .accepted)
        // Several method bits at once are not one method: rejected.
        let s1 = try responder.receive(
            PairingBootstrappingAttribute(dialogToken: 5, type: .request, methods: [.pinKeypad, .pinDisplay]),
            from: Self.c, at: t0
        ).status
        #expect(s1 == .rejected)
    }

    @Test func pendingTableIsBoundedByCountAndAge() throws {
        var responder = BootstrappingResponder(
            supported: .pinDisplay, limits: .init(capacity: 2, maximumAge: .seconds(30)))
        let request = PairingBootstrappingAttribute(dialogToken: 1, type: .request, methods: .pinKeypad)
        let s2 = try responder.receive(request, from: Self.a, at: t0).status
        #expect(s2 == .comeback)
        let s3 = try responder.receive(request, from: Self.b, at: t0).status
        #expect(s3 == .comeback)
        let s4 = try responder.receive(request, from: Self.c, at: t0).status
        #expect(s4 == .rejected)  // full
        let s5 = try responder.receive(request, from: Self.a, at: t0).status
        #expect(s5 == .comeback)  // a repeat does not grow it
        #expect(responder.pending.count == 2)
        let s6 = try responder.receive(request, from: Self.c, at: t0 + .seconds(30)).status
        #expect(s6 == .comeback)  // the old ones aged out
        #expect(responder.pending.count == 1)
        responder.expire(at: t0 + .seconds(61))
        #expect(responder.pending.isEmpty)
        let stale = responder.authorize(Self.a)
        #expect(!stale)
    }
}

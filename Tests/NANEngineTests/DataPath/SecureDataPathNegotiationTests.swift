import Testing
import NANWire
@testable import NANEngine

// The NCS-SK 4-way handshake inside DataPathNegotiations: both suites end to end, a wrong passphrase, open
// against secure, forged, replayed and out-of-order security NAFs, and wpa_supplicant 2.12's own frames
// (Tests/NANWireTests/Fixtures/wpa_supplicant-2.12, passphrase `NAN`) accepted in both roles.

private typealias Run = WPASupplicantRun

private let publisherNMI = Run.publisherNMI
private let subscriberNMI = Run.subscriberNMI
private let publisherNDI = Run.publisherNDI
private let subscriberNDI = Run.subscriberNDI

private func policy(_ passphrase: String, _ suites: [NDPCipherSuite] = [.sk128]) -> NDPSecurityPolicy {
    NDPSecurityPolicy(credential: .passphrase(passphrase), suites: suites, serviceID: Run.serviceID)
}

/// A NAF on the air: the bytes sent (the sealed body as it is, an open message encoded) and the message a
/// receiver types from them.
private struct Sent {
    var body: [UInt8]
    var message: DataPathMessage
}

private func onAir(_ actions: [DataPathAction]) throws -> [Sent] {
    try actions.compactMap { action -> Sent? in
        switch action {
        case .sendSealed(_, let body, _, _):
            return Sent(body: body, message: try DataPathMessage(NANActionFrame(actionBody: body)))
        case .send(let message, _, _):
            let body = try message.frame().encoded()
            return Sent(body: body, message: try DataPathMessage(NANActionFrame(actionBody: body)))
        default: return nil
        }
    }
}

private func established(_ actions: [DataPathAction]) -> NDPLink? {
    actions.lazy.compactMap { if case .establish(let link) = $0 { return link } else { return nil } }.first
}

private func endings(_ actions: [DataPathAction]) -> [DataPathEndReason] {
    actions.compactMap { if case .ended(_, let reason, _) = $0 { return reason } else { return nil } }
}

private struct Pair {
    var initiator = DataPathNegotiations(local: DataPathFixture.device(subscriberNMI), localNDI: subscriberNDI)
    var responder = DataPathNegotiations(local: DataPathFixture.device(publisherNMI), localNDI: publisherNDI)
    let now = ContinuousClock.now

    init(publisher: NDPSecurityPolicy?) {
        responder.acceptingPublishes = [InstanceID(1)]
        responder.publishSecurity[InstanceID(1)] = publisher
    }

    mutating func request(_ security: NDPSecurityPolicy?) throws -> (NDPIdentifier, Sent) {
        let (id, actions) = try #require(
            try initiator.initiate(
                to: publisherNMI, publishID: InstanceID(1), serviceInfo: [7],
                security: security, now: now))
        return (id, try #require(try onAir(actions).first))
    }

    mutating func toResponder(_ sent: Sent) -> [DataPathAction] {
        responder.receive(sent.message, body: sent.body, from: subscriberNMI, now: now)
    }

    mutating func toInitiator(_ sent: Sent) -> [DataPathAction] {
        initiator.receive(sent.message, body: sent.body, from: publisherNMI, now: now)
    }
}

/// The four messages of a completed secure setup and both links.
private struct Handshake {
    var request, response, confirm, keyInstall: Sent
    var initiatorLink, responderLink: NDPLink
}

private func handshake(_ pair: inout Pair, _ suite: NDPCipherSuite) throws -> Handshake {
    let (_, request) = try pair.request(policy("correct horse", [suite]))
    let response = try #require(try onAir(pair.toResponder(request)).first)
    let confirm = try #require(try onAir(pair.toInitiator(response)).first)
    let afterConfirm = pair.toResponder(confirm)
    let keyInstall = try #require(try onAir(afterConfirm).first)
    let responderLink = try #require(established(afterConfirm))
    let initiatorLink = try #require(established(pair.toInitiator(keyInstall)))
    return Handshake(
        request: request, response: response, confirm: confirm, keyInstall: keyInstall,
        initiatorLink: initiatorLink, responderLink: responderLink)
}

@Suite struct SecureDataPathNegotiationTests {
    /// After a pairing with wpa_supplicant 2.12, our NDP request went out as a public action (category 4) and it
    /// dropped it ("Drop unprotected unicast NAN frames from paired peers", 6 times in the VM). To a peer whose
    /// NMI station holds the NM-TK our data-path NAFs are protected (category 9), sealed as such: the MIC
    /// covers the category, and wpa_supplicant checks it over the category 9 it receives.
    @Test(arguments: [NDPCipherSuite.sk128, .sk256])
    func toAProtectedPeerEverySetupNAFIsCategory9AndTheHandshakeStillCompletes(suite: NDPCipherSuite) throws {
        var pair = Pair(publisher: policy("correct horse", [.sk128, .sk256]))
        pair.initiator.protectedPeers = [publisherNMI]
        pair.responder.protectedPeers = [subscriberNMI]
        let run = try handshake(&pair, suite)
        for sent in [run.request, run.response, run.confirm, run.keyInstall] {
            #expect(sent.body.first == 9)
            #expect(try NANActionFrame(actionBody: sent.body).isProtected)
        }
        #expect(run.initiatorLink.pairwiseKey?.temporalKey == run.responderLink.pairwiseKey?.temporalKey)
        // Only to those peers: a table protecting another peer sends category 4.
        var other = Pair(publisher: policy("correct horse", [suite]))
        other.initiator.protectedPeers = [subscriberNDI]
        let (_, request) = try other.request(policy("correct horse", [suite]))
        #expect(request.body.first == 4)
    }

    /// Each secure request used to run PBKDF2 (4096 rounds) before the table-full check (security review,
    /// issue 24): a full table now refuses without deriving, and the passphrase PMK (salted by the suite, the
    /// service and our own NMI) is derived once per publish and suite, not per request.
    @Test func aFullTableRefusesWithoutDerivingAndAPublishDerivesItsPMKOnce() throws {
        var pair = Pair(publisher: policy("correct horse"))
        pair.responder.maximumEntries = 0
        let (_, first) = try pair.request(policy("correct horse"))
        let refused = pair.toResponder(first)
        #expect(
            refused.contains {
                if case .refused(_, _, let reason) = $0 { reason.kind == .resourceLimit } else { false }
            })
        #expect(pair.responder.masterKeys.derivations == 0)
        pair.responder.maximumEntries = 16
        for _ in 0..<3 {
            let (_, request) = try pair.request(policy("correct horse"))
            #expect(pair.toResponder(request).contains { if case .requested = $0 { true } else { false } })
        }
        #expect(pair.responder.masterKeys.derivations == 1)
        // Another passphrase for the publish is derived again; a publish that stops accepting forgets its PMK.
        pair.responder.publishSecurity[InstanceID(1)] = policy("battery staple")
        let (_, other) = try pair.request(policy("battery staple"))
        _ = pair.toResponder(other)
        #expect(pair.responder.masterKeys.derivations == 2)
        pair.responder.masterKeys.forget(InstanceID(1))
        let (_, again) = try pair.request(policy("battery staple"))
        _ = pair.toResponder(again)
        #expect(pair.responder.masterKeys.derivations == 3)
    }

    @Test(arguments: [NDPCipherSuite.sk128, .sk256])
    func bothSidesCompleteTheHandshakeAndHoldTheSameKey(suite: NDPCipherSuite) throws {
        var pair = Pair(publisher: policy("correct horse", [.sk128, .sk256]))
        let run = try handshake(&pair, suite)
        #expect(run.request.message.subtype == .dataPathRequest && run.request.message.ndp.securityPresentFlag)
        #expect(NDPKeyExchange.offeredSuites(in: run.request.message) == [suite])
        #expect(run.response.message.ndp.status == .continued && run.response.message.ndp.securityPresentFlag)
        #expect(run.confirm.message.ndp.status == .continued && run.confirm.message.sharedKeyDescriptor != nil)
        #expect(run.keyInstall.message.subtype == .dataPathKeyInstall && run.keyInstall.message.ndp.status == .accepted)
        let initiatorKey = try #require(run.initiatorLink.pairwiseKey)
        let responderKey = try #require(run.responderLink.pairwiseKey)
        #expect(initiatorKey.cipherSuite == suite && responderKey.cipherSuite == suite)
        #expect(
            initiatorKey.temporalKey == responderKey.temporalKey && initiatorKey.temporalKey.count == suite.tkLength)
        #expect(initiatorKey.cipherSuite.keyCipherSelector == (suite == .sk128 ? 0x000F_AC04 : 0x000F_AC09))
        #expect(run.initiatorLink.peerNDI == publisherNDI && run.responderLink.peerNDI == subscriberNDI)
        #expect(run.responderLink.peerServiceInfo == [7])
        #expect(pair.initiator.phases.values.allSatisfy { $0 == .established })
        #expect(pair.responder.phases.values.allSatisfy { $0 == .established })
        #expect(pair.initiator.entries.values.allSatisfy { $0.keyExchange == nil })
        #expect(pair.responder.entries.values.allSatisfy { $0.keyExchange == nil })
    }

    @Test func aRawPMKMeetsTheSamePassphraseOnTheOtherSide() throws {
        let pmk = try NDPPairwiseMasterKey(
            passphrase: "correct horse", suite: .sk128, serviceID: Run.serviceID, publisherNMI: publisherNMI)
        var pair = Pair(publisher: NDPSecurityPolicy(credential: .pmk(pmk), serviceID: Run.serviceID))
        let run = try handshake(&pair, .sk128)
        #expect(run.initiatorLink.pairwiseKey?.temporalKey == run.responderLink.pairwiseKey?.temporalKey)
    }

    @Test func aWrongPassphraseIsRefusedOnBothSidesAndLeavesNothing() throws {
        var pair = Pair(publisher: policy("correct horse"))
        let (_, request) = try pair.request(policy("battery staple"))
        let answer = pair.toResponder(request)
        guard case .refused(_, _, let refusal)? = answer.last else {
            Issue.record("the responder did not report it"); return
        }
        #expect(refusal.kind == .securityFailure && refusal.code == .securityPolicy)
        #expect(refusal.detail?.contains("PMKID") == true)
        let rejection = try #require(try onAir(answer).first)
        #expect(rejection.message.ndp.status == .rejected && rejection.message.ndp.reasonCode == .securityPolicy)
        let ended = endings(pair.toInitiator(rejection))
        #expect(ended.map(\.kind) == [.rejected] && ended.first?.code == .securityPolicy)
        #expect(pair.initiator.phases.isEmpty && pair.responder.phases.isEmpty)
    }

    @Test func aSuiteThePublisherDoesNotTakeIsRefused() throws {
        var pair = Pair(publisher: policy("correct horse", [.sk128]))
        let (_, request) = try pair.request(policy("correct horse", [.sk256]))
        let answer = pair.toResponder(request)
        guard case .refused(_, _, let refusal)? = answer.last else { Issue.record("not refused"); return }
        #expect(refusal.kind == .securityFailure && pair.responder.phases.isEmpty)
    }

    @Test func openAgainstSecureIsRefusedEitherWay() throws {
        var securePublisher = Pair(publisher: policy("correct horse"))
        let (_, open) = try securePublisher.request(nil)
        let first = securePublisher.toResponder(open)
        #expect(try onAir(first).first?.message.ndp.reasonCode == .securityPolicy)
        #expect(securePublisher.responder.phases.isEmpty)

        var openPublisher = Pair(publisher: nil)
        let (_, secure) = try openPublisher.request(policy("correct horse"))
        let second = openPublisher.toResponder(secure)
        #expect(try onAir(second).first?.message.ndp.reasonCode == .securityPolicy)
        let ended = endings(openPublisher.toInitiator(try #require(try onAir(second).first)))
        #expect(
            ended.first?.code == .securityPolicy && openPublisher.initiator.phases.isEmpty
                && openPublisher.responder.phases.isEmpty)
    }

    /// Anyone can send from the responder's address: a response that fails its MIC is dropped and changes
    /// nothing, and the genuine response that follows still completes the handshake.
    @Test func aResponseWithABadMICIsDroppedAndTheGenuineOneStillCompletes() throws {
        var pair = Pair(publisher: policy("correct horse"))
        let (_, request) = try pair.request(policy("correct horse"))
        let response = try #require(try onAir(pair.toResponder(request)).first)
        var forged = response
        forged.body[DescriptorOffsets(forged.body).mic(16).lowerBound] ^= 0x01
        #expect(pair.toInitiator(forged).isEmpty)
        #expect(pair.initiator.phases.values.first == .requestSent && pair.initiator.refusedFrames == 1)
        let confirm = try #require(try onAir(pair.toInitiator(response)).first)
        let afterConfirm = pair.toResponder(confirm)
        let keyInstall = try #require(try onAir(afterConfirm).first)
        #expect(established(afterConfirm) != nil && established(pair.toInitiator(keyInstall)) != nil)
        #expect(pair.initiator.tick(now: pair.now + .seconds(10)).isEmpty)
    }

    /// A response that fails its MIC with nothing valid after it (another passphrase on the other side):
    /// the initiator rejects it with a confirm once the grace has passed, not before.
    @Test func aResponseWithABadMICEndsTheInitiatorWithARejectingConfirmAfterTheGrace() throws {
        var pair = Pair(publisher: policy("correct horse"))
        let (_, request) = try pair.request(policy("correct horse"))
        var response = try #require(try onAir(pair.toResponder(request)).first)
        response.body[DescriptorOffsets(response.body).mic(16).lowerBound] ^= 0x01
        #expect(pair.toInitiator(response).isEmpty)
        #expect(pair.initiator.tick(now: pair.now + pair.initiator.securityFailureGrace - .milliseconds(1)).isEmpty)
        let actions = pair.initiator.tick(now: pair.now + pair.initiator.securityFailureGrace)
        #expect(endings(actions).map(\.kind) == [.securityFailure] && endings(actions).first?.code == .securityPolicy)
        let confirm = try #require(try onAir(actions).first)
        #expect(confirm.message.ndp.status == .rejected && confirm.message.ndp.reasonCode == .securityPolicy)
        #expect(endings(pair.toResponder(confirm)).map(\.kind) == [.rejected])
        #expect(pair.initiator.phases.isEmpty && pair.responder.phases.isEmpty)
    }

    /// A forged confirm (bad MIC) or key install (another nonce) changes nothing: the genuine frame still
    /// completes the data path. With nothing valid after it, the setup ends with a termination after the grace.
    @Test func aForgedConfirmOrKeyInstallChangesNothingAndEndsTheSetupOnlyAfterTheGrace() throws {
        var pair = Pair(publisher: policy("correct horse"))
        let (_, request) = try pair.request(policy("correct horse"))
        let response = try #require(try onAir(pair.toResponder(request)).first)
        let confirm = try #require(try onAir(pair.toInitiator(response)).first)
        var forgedConfirm = confirm
        forgedConfirm.body[DescriptorOffsets(forgedConfirm.body).mic(16).lowerBound] ^= 0x80
        var unanswered = pair
        #expect(pair.toResponder(forgedConfirm).isEmpty)
        #expect(pair.responder.phases.values.first == .responseSent && pair.responder.refusedFrames == 1)
        let afterConfirm = pair.toResponder(confirm)
        let keyInstall = try #require(try onAir(afterConfirm).first)
        #expect(established(afterConfirm) != nil)

        var forgedInstall = keyInstall
        forgedInstall.body[DescriptorOffsets(forgedInstall.body).nonce.lowerBound] ^= 0x01
        #expect(pair.toInitiator(forgedInstall).isEmpty)
        #expect(pair.initiator.phases.values.first == .confirmSent)
        #expect(established(pair.toInitiator(keyInstall)) != nil)

        #expect(unanswered.toResponder(forgedConfirm).isEmpty)
        let ended = unanswered.responder.tick(now: unanswered.now + unanswered.responder.securityFailureGrace)
        #expect(endings(ended).map(\.kind) == [.securityFailure])
        #expect(try onAir(ended).first?.message.subtype == .dataPathTermination)
        #expect(unanswered.responder.phases.isEmpty)
    }

    @Test func repeatedFramesAreAnsweredAgainAndOutOfOrderOnesChangeNothing() throws {
        var pair = Pair(publisher: policy("correct horse"))
        let (id, request) = try pair.request(policy("correct horse"))
        // A key install or a confirm before their time.
        let early = DataPathMessages.keyInstall(DataPathFixture.device(publisherNMI), id: id, dialogToken: 1)
        #expect(
            pair.initiator.receive(early, body: try early.frame().encoded(), from: publisherNMI, now: pair.now).isEmpty)
        let responseActions = pair.toResponder(request)
        let response = try #require(try onAir(responseActions).first)
        #expect(try onAir(pair.toResponder(request)).first?.body == response.body)  // repeated request: same response
        let confirm = try #require(try onAir(pair.toInitiator(response)).first)
        #expect(try onAir(pair.toInitiator(response)).first?.body == confirm.body)  // repeated response: same confirm
        #expect(pair.initiator.phases.values.first == .confirmSent)
        let afterConfirm = pair.toResponder(confirm)
        let keyInstall = try #require(try onAir(afterConfirm).first)
        let again = pair.toResponder(confirm)  // repeated confirm: same key install
        #expect(try onAir(again).first?.body == keyInstall.body && established(again) == nil)
        #expect(established(pair.toInitiator(keyInstall)) != nil)
        // Replays once up: nothing happens, nothing is installed twice.
        #expect(pair.toInitiator(keyInstall).isEmpty && pair.toInitiator(response).isEmpty)
        #expect(pair.toResponder(request).isEmpty)
        // A secure frame without its bytes cannot be checked: ignored.
        #expect(pair.initiator.receive(keyInstall.message, from: publisherNMI, now: pair.now).isEmpty)
        #expect(pair.initiator.phases.count == 1 && pair.responder.phases.count == 1)
    }

    @Test func everyAlteredByteOfAResponseIsRefusedOrIgnoredWithoutATrap() throws {
        var pair = Pair(publisher: policy("correct horse"))
        let (id, request) = try pair.request(policy("correct horse"))
        let response = try #require(try onAir(pair.toResponder(request)).first)
        for index in response.body.indices {
            var altered = response.body
            altered[index] ^= 0x5a
            var table = pair.initiator
            guard let message = try? DataPathMessage(NANActionFrame(actionBody: altered)) else { continue }
            let actions = table.receive(message, body: altered, from: publisherNMI, now: pair.now)
            // Either nothing (another NDP, token or subtype) or the end of the setup: never established.
            #expect(established(actions) == nil)
            #expect(table.phases[id] == nil || table.phases[id] == .requestSent)
            if table.phases[id] == nil { #expect(!endings(actions).isEmpty) }
        }
        for length in [0, 7, 10, response.body.count / 2, response.body.count - 1] {
            var table = pair.initiator
            let cut = Array(response.body.prefix(length))
            #expect(
                table.receive(response.message, body: cut, from: publisherNMI, now: pair.now).allSatisfy {
                    if case .establish = $0 { return false } else { return true }
                })
        }
    }

    @Test func setupsWaitingForTheKeyInstallExpire() throws {
        var pair = Pair(publisher: policy("correct horse"))
        let (_, request) = try pair.request(policy("correct horse"))
        _ = pair.toInitiator(try #require(try onAir(pair.toResponder(request)).first))
        let expired = pair.initiator.tick(now: pair.now.advanced(by: .seconds(600)))
        #expect(endings(expired).map(\.kind) == [.timeout] && pair.initiator.phases.isEmpty)
        #expect(endings(pair.responder.tick(now: pair.now.advanced(by: .seconds(600)))).map(\.kind) == [.timeout])
    }

    @Test func aTooLongPassphraseIsRefusedBeforeAnythingIsSent() {
        var table = DataPathNegotiations(local: DataPathFixture.device(subscriberNMI), localNDI: subscriberNDI)
        #expect(throws: NDPSecurityError.self) {
            _ = try table.initiate(
                to: publisherNMI, publishID: InstanceID(1), serviceInfo: [],
                security: policy(String(repeating: "x", count: 64)), now: .now)
        }
        #expect(table.phases.isEmpty)
    }

    // MARK: wpa_supplicant 2.12

    /// As the publisher, against the subscriber's real request and confirm (our RNonce set to the one its
    /// peer used, so the PTK is the one of that run): the request is accepted, and its confirm verifies.
    @Test func wpaSupplicantsRequestAndConfirmCompleteOurResponder() throws {
        let request = try Run.request, response = try Run.response, confirm = try Run.confirm,
            keyInstall = try Run.keyInstall
        var responder = DataPathNegotiations(local: DataPathFixture.device(publisherNMI), localNDI: publisherNDI)
        responder.acceptingPublishes = [InstanceID(1)]
        responder.publishSecurity[InstanceID(1)] = policy(Run.passphrase)
        responder.fixedNonce = Array(response[DescriptorOffsets(response).nonce])
        let answer = responder.receive(
            try DataPathMessage(NANActionFrame(actionBody: request)), body: request,
            from: subscriberNMI, now: .now)
        let ours = try #require(try onAir(answer).first)
        #expect(ours.message.ndp.status == .continued)
        // Our message 2's descriptor is wpa_supplicant's but for the MIC (which covers the whole, different, NAF).
        let theirs = try DataPathMessage(NANActionFrame(actionBody: response))
        let ourDescriptor = try #require(try ours.message.sharedKeyDescriptor?.decodedKeyDescriptor(micLength: 16))
        let theirDescriptor = try #require(try theirs.sharedKeyDescriptor?.decodedKeyDescriptor(micLength: 16))
        #expect(ourDescriptor.keyInformation == theirDescriptor.keyInformation)
        #expect(
            ourDescriptor.replayCounter == theirDescriptor.replayCounter && ourDescriptor.nonce == theirDescriptor.nonce
        )
        #expect(ours.message.securityContextInfo == theirs.securityContextInfo)

        let afterConfirm = responder.receive(
            try DataPathMessage(NANActionFrame(actionBody: confirm)), body: confirm,
            from: subscriberNMI, now: .now)
        let link = try #require(established(afterConfirm))
        #expect(link.pairwiseKey?.cipherSuite == .sk128 && link.peerNDI == subscriberNDI)
        let install = try #require(try onAir(afterConfirm).first)
        let theirInstall = try #require(
            try DataPathMessage(NANActionFrame(actionBody: keyInstall)).sharedKeyDescriptor?
                .decodedKeyDescriptor(micLength: 16))
        let ourInstall = try #require(try install.message.sharedKeyDescriptor?.decodedKeyDescriptor(micLength: 16))
        // wpa_supplicant also sends its group key (encrypted key data); we send none.
        #expect(ourInstall.keyInformation == theirInstall.keyInformation.subtracting(.encryptedKeyData))
        #expect(ourInstall.replayCounter == theirInstall.replayCounter && ourInstall.nonce == theirInstall.nonce)
    }

    /// As the subscriber, against the publisher's real response and key install (our INonce set to the one
    /// of that run): both verify, and the data path comes up with the key.
    @Test func wpaSupplicantsResponseAndKeyInstallCompleteOurInitiator() throws {
        let request = try Run.request, response = try Run.response, keyInstall = try Run.keyInstall
        var initiator = DataPathNegotiations(local: DataPathFixture.device(subscriberNMI), localNDI: subscriberNDI)
        initiator.fixedNonce = Array(request[DescriptorOffsets(request).nonce])
        let started = try initiator.initiate(
            to: publisherNMI, publishID: InstanceID(1), serviceInfo: [],
            security: policy(Run.passphrase), now: .now)
        let (_, requestActions) = try #require(started)
        let ours = try #require(try onAir(requestActions).first)
        let theirs = try DataPathMessage(NANActionFrame(actionBody: request))
        #expect(ours.message.cipherSuiteInfo?.entries == theirs.cipherSuiteInfo?.entries)
        #expect(ours.message.securityContextInfo == theirs.securityContextInfo)
        #expect(ours.message.sharedKeyDescriptor == theirs.sharedKeyDescriptor)

        let afterResponse = initiator.receive(
            try DataPathMessage(NANActionFrame(actionBody: response)), body: response,
            from: publisherNMI, now: .now)
        let confirm = try #require(try onAir(afterResponse).first)
        #expect(confirm.message.subtype == .dataPathConfirm && confirm.message.ndp.status == .continued)
        let afterInstall = initiator.receive(
            try DataPathMessage(NANActionFrame(actionBody: keyInstall)), body: keyInstall,
            from: publisherNMI, now: .now)
        let link = try #require(established(afterInstall))
        #expect(link.peerNDI == publisherNDI && link.pairwiseKey?.temporalKey.count == 16)
    }
}

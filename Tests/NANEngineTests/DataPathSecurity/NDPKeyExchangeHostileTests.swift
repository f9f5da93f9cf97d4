@testable import NANEngine
import NANWire
import Testing

/// Hostile and out-of-order input to the key exchange: every bad frame is a typed error, never a trap, and
/// the exchange stays where it was (the genuine frame still completes it afterwards).
@Suite struct NDPKeyExchangeHostileTests {
    typealias Run = WPASupplicantRun

    /// The initiator after message 1, waiting for wpa_supplicant's response.
    static func initiatorAwaitingResponse() throws -> NDPKeyExchange {
        let request = try Run.request
        var exchange = try NDPKeyExchange(
            initiator: .sk128, credential: .passphrase(Run.passphrase), serviceID: Run.serviceID,
            publishID: InstanceID(1),
            localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI,
            nonce: Array(request[DescriptorOffsets(request).nonce]))
        _ = try exchange.requestAttributes()
        var body = request
        try exchange.seal(&body)
        return exchange
    }

    /// The responder after message 2, waiting for wpa_supplicant's confirm.
    static func responderAwaitingConfirm() throws -> NDPKeyExchange {
        let response = try Run.response
        var exchange = try NDPKeyExchange(
            respondingTo: try Run.request, credential: .passphrase(Run.passphrase), acceptedSuites: [.sk128],
            serviceID: Run.serviceID, localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI,
            localNDI: Run.publisherNDI,
            nonce: Array(response[DescriptorOffsets(response).nonce]))
        _ = try exchange.responseAttributes()
        var body = response
        try exchange.seal(&body)
        return exchange
    }

    static func code(_ body: () throws -> Void) -> NDPSecurityError.Code? {
        do { try body(); return nil } catch let error as NDPSecurityError { return error.code } catch { return nil }
    }

    @Test func wrongPassphraseIsAPMKIDMismatchAtTheResponder() throws {
        let request = try Run.request
        let code = Self.code {
            _ = try NDPKeyExchange(
                respondingTo: request, credential: .passphrase("not NAN"), serviceID: Run.serviceID,
                localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI)
        }
        #expect(code == .pmkidMismatch)
    }

    @Test func wrongPassphraseAtTheInitiatorFailsTheResponseMIC() throws {
        let request = try Run.request
        var exchange = try NDPKeyExchange(
            initiator: .sk128, credential: .passphrase("not NAN"), serviceID: Run.serviceID, publishID: InstanceID(1),
            localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI,
            nonce: Array(request[DescriptorOffsets(request).nonce]))
        _ = try exchange.requestAttributes()
        var body = request
        try exchange.seal(&body)
        // wpa_supplicant's response echoes its PMKID, which is not ours.
        #expect(Self.code { try exchange.receive(try Run.response) } == .pmkidMismatch)
    }

    @Test func alteredMICIsRejectedAndTheExchangeWaitsOn() throws {
        var exchange = try Self.initiatorAwaitingResponse()
        let response = try Run.response
        var altered = response
        altered[DescriptorOffsets(response).mic(16).lowerBound] ^= 0x01
        #expect(Self.code { try exchange.receive(altered) } == .micMismatch)
        #expect(exchange.step == .awaitingResponse)
        try exchange.receive(response)
        #expect(exchange.step == .responseVerified)
    }

    @Test func alteredBodyByteFailsTheMIC() throws {
        var exchange = try Self.responderAwaitingConfirm()
        var altered = try Run.confirm
        altered[altered.count - 1] ^= 0x80
        #expect(Self.code { try exchange.receive(altered) } == .micMismatch)
    }

    @Test func wrongReplayCounterInTheResponseIsRejected() throws {
        var exchange = try Self.initiatorAwaitingResponse()
        var altered = try Run.response
        altered[DescriptorOffsets(altered).replayCounter.upperBound - 1] = 7
        #expect(Self.code { try exchange.receive(altered) } == .replayCounter)
    }

    @Test func replayedConfirmCounterIsRejected() throws {
        var exchange = try Self.responderAwaitingConfirm()
        var altered = try Run.confirm
        altered[DescriptorOffsets(altered).replayCounter.upperBound - 1] = 1  // not above message 1's
        #expect(Self.code { try exchange.receive(altered) } == .replayCounter)
    }

    @Test func changedNonceInTheConfirmIsRejected() throws {
        var exchange = try Self.responderAwaitingConfirm()
        var altered = try Run.confirm
        altered[DescriptorOffsets(altered).nonce.lowerBound] ^= 0xFF
        #expect(Self.code { try exchange.receive(altered) } == .nonceMismatch)
    }

    @Test func truncatedDescriptorIsMalformed() throws {
        var exchange = try Self.initiatorAwaitingResponse()
        let response = try Run.response
        let offsets = DescriptorOffsets(response)
        // Cut the descriptor to 40 bytes and fix the attribute length so the frame still parses.
        var cut = response
        cut.removeSubrange(offsets.descriptor + 39..<offsets.descriptor - 1 + offsets.attributeLength)
        cut[offsets.lengthField] = 40
        cut[offsets.lengthField + 1] = 0
        #expect(Self.code { try exchange.receive(cut) } == .malformed)
        #expect(exchange.step == .awaitingResponse)
    }

    @Test func missingDescriptorIsAMissingAttribute() throws {
        var exchange = try Self.initiatorAwaitingResponse()
        var message = try DataPathMessage(NANActionFrame(actionBody: try Run.response))
        message.sharedKeyDescriptor = nil
        let body = try message.frame().encoded()
        #expect(Self.code { try exchange.receive(body) } == .missingAttribute)
    }

    @Test func outOfOrderMessagesAreUnexpected() throws {
        var initiator = try Self.initiatorAwaitingResponse()
        #expect(Self.code { try initiator.receive(try Run.keyInstall) } == .unexpectedMessage)
        #expect(Self.code { try initiator.receive(try Run.confirm) } == .unexpectedMessage)
        #expect(Self.code { _ = try initiator.confirmAttributes() } == .unexpectedMessage)
        #expect(Self.code { _ = try initiator.keyInstallAttributes() } == .unexpectedMessage)
        var responder = try Self.responderAwaitingConfirm()
        #expect(Self.code { try responder.receive(try Run.response) } == .unexpectedMessage)
        var body = try Run.confirm
        #expect(Self.code { try responder.seal(&body) } == .unexpectedMessage)
    }

    @Test func requestWithoutSupportedSuiteOrPMKIDIsRefused() throws {
        let request = try DataPathMessage(NANActionFrame(actionBody: try Run.request))
        var onlySK256 = request
        onlySK256.cipherSuiteInfo = CipherSuiteInfoAttribute(
            capabilities: 0, entries: [.init(suite: .skGCM256, publishID: 1)])
        let noSuite = try onlySK256.frame().encoded()
        #expect(
            Self.code {
                _ = try NDPKeyExchange(
                    respondingTo: noSuite, credential: .passphrase(Run.passphrase), acceptedSuites: [.sk128],
                    serviceID: Run.serviceID, localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI,
                    localNDI: Run.publisherNDI)
            } == .unsupportedCipherSuite)
        var noContext = request
        noContext.securityContextInfo = nil
        let noPMKID = try noContext.frame().encoded()
        #expect(
            Self.code {
                _ = try NDPKeyExchange(
                    respondingTo: noPMKID, credential: .passphrase(Run.passphrase), serviceID: Run.serviceID,
                    localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI)
            } == .missingAttribute)
    }

    @Test func garbageIsMalformedNeverATrap() throws {
        var exchange = try Self.initiatorAwaitingResponse()
        for body: [UInt8] in [
            [], [4], [4, 9, 0x50, 0x6f, 0x9a, 0x18, 6], [4, 9, 0x50, 0x6f, 0x9a, 0x18, 6, 0x24, 0xff, 0xff],
        ] {
            #expect(Self.code { try exchange.receive(body) } != nil)
        }
        #expect(exchange.step == .awaitingResponse)
    }

    /// Every single-byte change of the response and the confirm is refused with a typed error (the MIC covers
    /// every byte), and none traps.
    @Test func everySingleByteChangeIsRefused() throws {
        let response = try Run.response
        var initiator = try Self.initiatorAwaitingResponse()
        for index in response.indices {
            var altered = response
            altered[index] ^= 0x5A
            #expect(Self.code { try initiator.receive(altered) } != nil, "response byte \(index)")
        }
        let confirm = try Run.confirm
        var responder = try Self.responderAwaitingConfirm()
        for index in confirm.indices {
            var altered = confirm
            altered[index] ^= 0x5A
            #expect(Self.code { try responder.receive(altered) } != nil, "confirm byte \(index)")
        }
        #expect(initiator.step == .awaitingResponse && responder.step == .awaitingConfirm)
    }
}

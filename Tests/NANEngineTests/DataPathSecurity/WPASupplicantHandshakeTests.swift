@testable import NANEngine
import NANWire
import Testing

/// Known answers from another stack: the NCS-SK-128 NDP that wpa_supplicant 2.12 set up
/// (NANWireTests/Fixtures/wpa_supplicant-2.12, passphrase `NAN`). Our PMK must give the PMKID it sent, and our PTK must
/// give the MICs of its response, confirm and key install, byte for byte. These are the proof that our
/// derivation interoperates.
@Suite struct WPASupplicantHandshakeTests {
    typealias Run = WPASupplicantRun

    static func pmk() throws -> NDPPairwiseMasterKey {
        try NDPPairwiseMasterKey(
            passphrase: Run.passphrase, suite: .sk128, serviceID: Run.serviceID, publisherNMI: Run.publisherNMI)
    }

    @Test func pmkFromThePassphraseGivesThePMKIDOfTheRequest() throws {
        let request = try DataPathMessage(NANActionFrame(actionBody: try Run.request))
        let sent = try #require(request.securityContextInfo?.entries.first)
        #expect(sent.type == SecurityContextInfoAttribute.Entry.ndPMKID)
        #expect(hexText(sent.identifier) == "e7790fdc5d894fe65b9619441b29a413")
        let pmkid = try NDPKeyDerivation.pmkid(
            try Self.pmk(), suite: .sk128, initiatorNMI: Run.subscriberNMI,
            responderNMI: Run.publisherNMI, serviceID: Run.serviceID)
        #expect(pmkid == Array(sent.identifier))
    }

    /// The publisher's side against the subscriber's real frames: its response and key install as we would
    /// sign them carry wpa_supplicant's MICs, and its confirm verifies.
    @Test func responderReproducesTheResponseAndKeyInstallMICsAndVerifiesTheConfirm() throws {
        let (request, response, confirm, keyInstall) = (
            try Run.request, try Run.response, try Run.confirm, try Run.keyInstall
        )
        let responseSKDA = DescriptorOffsets(response)
        var exchange = try NDPKeyExchange(
            respondingTo: request, credential: .passphrase(Run.passphrase), acceptedSuites: [.sk128],
            serviceID: Run.serviceID,
            localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI,
            nonce: Array(response[responseSKDA.nonce]))
        #expect(exchange.suite == .sk128)
        #expect(exchange.publishID == InstanceID(1))

        let attributes = try exchange.responseAttributes()
        #expect(attributes.sharedKeyDescriptor.keyDescriptor.count + 1 == responseSKDA.attributeLength)
        var signed = response.zeroing(responseSKDA.mic(16))
        try exchange.seal(&signed)
        #expect(signed == response)
        #expect(hexText(response[responseSKDA.mic(16)]) == "c2c423388fcba49b2abddebedc4a8346")

        try exchange.receive(confirm)
        #expect(exchange.step == .confirmVerified)

        _ = try exchange.keyInstallAttributes()
        var signedKeyInstall = keyInstall.zeroing(DescriptorOffsets(keyInstall).mic(16))
        try exchange.seal(&signedKeyInstall)
        #expect(signedKeyInstall == keyInstall)
        #expect(exchange.step == .complete)
        let key = try #require(exchange.installableKey)
        #expect(key.peerNDI == Run.subscriberNDI && key.localNDI == Run.publisherNDI)
        #expect(key.temporalKey.count == 16 && key.cipherSelector == 0x000F_AC04 && key.keyIndex == 0)
    }

    /// The subscriber's side against the publisher's real frames: our request attributes match what
    /// wpa_supplicant sent, its response and key install verify, and its confirm as we sign it carries its MIC.
    @Test func initiatorVerifiesTheResponseAndKeyInstallAndReproducesTheConfirmMIC() throws {
        let (request, response, confirm, keyInstall) = (
            try Run.request, try Run.response, try Run.confirm, try Run.keyInstall
        )
        let requestSKDA = DescriptorOffsets(request)
        var exchange = try NDPKeyExchange(
            initiator: .sk128, credential: .passphrase(Run.passphrase), serviceID: Run.serviceID,
            publishID: InstanceID(1),
            localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI,
            nonce: Array(request[requestSKDA.nonce]))

        let attributes = try exchange.requestAttributes()
        let sent = try DataPathMessage(NANActionFrame(actionBody: request))
        #expect(attributes.cipherSuiteInfo?.entries == sent.cipherSuiteInfo?.entries)
        #expect(attributes.securityContextInfo == sent.securityContextInfo)
        #expect(attributes.sharedKeyDescriptor == sent.sharedKeyDescriptor)

        var sealedRequest = request
        try exchange.seal(&sealedRequest)
        #expect(sealedRequest == request)
        try exchange.receive(response)
        #expect(exchange.step == .responseVerified)

        _ = try exchange.confirmAttributes()
        let confirmSKDA = DescriptorOffsets(confirm)
        var signedConfirm = confirm.zeroing(confirmSKDA.mic(16))
        try exchange.seal(&signedConfirm)
        #expect(signedConfirm == confirm)
        #expect(hexText(confirm[confirmSKDA.mic(16)]) == "d8f725aaa5a58b9bd61bd5cd0f3f70ba")

        try exchange.receive(keyInstall)
        let key = try #require(exchange.installableKey)
        #expect(key.peerNDI == Run.publisherNDI)
    }

    @Test func bothSidesInstallTheSameTK() throws {
        let (request, response, confirm, keyInstall) = (
            try Run.request, try Run.response, try Run.confirm, try Run.keyInstall
        )
        var initiator = try NDPKeyExchange(
            initiator: .sk128, credential: .passphrase(Run.passphrase), serviceID: Run.serviceID,
            publishID: InstanceID(1),
            localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI,
            nonce: Array(request[DescriptorOffsets(request).nonce]))
        var responder = try NDPKeyExchange(
            respondingTo: request, credential: .pmk(try Self.pmk()), acceptedSuites: [.sk128], serviceID: Run.serviceID,
            localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI,
            nonce: Array(response[DescriptorOffsets(response).nonce]))
        _ = try initiator.requestAttributes()
        var body = request
        try initiator.seal(&body)
        try initiator.receive(response)
        _ = try initiator.confirmAttributes()
        body = confirm.zeroing(DescriptorOffsets(confirm).mic(16))
        try initiator.seal(&body)
        try initiator.receive(keyInstall)

        _ = try responder.responseAttributes()
        body = response
        try responder.seal(&body)
        try responder.receive(confirm)
        _ = try responder.keyInstallAttributes()
        body = keyInstall
        try responder.seal(&body)

        let tk = try #require(initiator.installableKey?.temporalKey)
        #expect(tk == responder.installableKey?.temporalKey)
    }
}

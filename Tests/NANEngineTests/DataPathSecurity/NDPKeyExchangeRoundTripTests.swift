@testable import NANEngine
import NANWire
import Testing

/// Our two sides against each other, for both suites, on the skeleton of wpa_supplicant's NAFs (the NDP
/// attribute and schedule of its frames, our security attributes): the handshake completes, the TKs agree,
/// and their lengths and ciphers follow the suite.
@Suite struct NDPKeyExchangeRoundTripTests {
    typealias Run = WPASupplicantRun

    /// The frame `skeleton` with `attributes` in place of its security attributes, encoded.
    static func body(_ skeleton: [UInt8], _ attributes: NDPSecurityAttributes) throws -> [UInt8] {
        var message = try DataPathMessage(NANActionFrame(actionBody: skeleton))
        attributes.apply(to: &message)
        return try message.frame().encoded()
    }

    @Test(arguments: [
        (NDPCipherSuite.sk128, NDPCredential.passphrase("correct horse")),
        (.sk256, .passphrase("correct horse")),
        (.sk256, .pmk(try! NDPPairwiseMasterKey(bytes: Array(0..<32)))),
    ])
    func handshakeCompletesWithAgreeingKeys(suite: NDPCipherSuite, credential: NDPCredential) throws {
        var initiator = try NDPKeyExchange(
            initiator: suite, credential: credential, serviceID: Run.serviceID, publishID: InstanceID(1),
            localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI)
        var m1 = try Self.body(try Run.request, try initiator.requestAttributes())
        try initiator.seal(&m1)

        var responder = try NDPKeyExchange(
            respondingTo: m1, credential: credential, serviceID: Run.serviceID,
            localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI)
        #expect(responder.suite == suite)
        var m2 = try Self.body(try Run.response, try responder.responseAttributes())
        try responder.seal(&m2)

        try initiator.receive(m2)
        var m3 = try Self.body(try Run.confirm, try initiator.confirmAttributes())
        try initiator.seal(&m3)

        try responder.receive(m3)
        var m4 = try Self.body(try Run.keyInstall, try responder.keyInstallAttributes())
        try responder.seal(&m4)
        try initiator.receive(m4)

        let initiatorKey = try #require(initiator.installableKey)
        let responderKey = try #require(responder.installableKey)
        #expect(initiatorKey.temporalKey == responderKey.temporalKey)
        #expect(initiatorKey.temporalKey.count == suite.tkLength)
        #expect(initiatorKey.cipherSelector == (suite == .sk128 ? 0x000F_AC04 : 0x000F_AC09))
        #expect(initiatorKey.peerNDI == Run.publisherNDI && responderKey.peerNDI == Run.subscriberNDI)
        // The MIC field is the suite's length: 16 or 24 bytes.
        let descriptor = try DataPathMessage(NANActionFrame(actionBody: m2)).sharedKeyDescriptor?.decodedKeyDescriptor(
            micLength: suite.micLength)
        #expect(descriptor?.mic.count == suite.micLength)
    }

    @Test func aResponderAcceptingOnlySK256RefusesAnSK128Request() throws {
        var initiator = try NDPKeyExchange(
            initiator: .sk128, credential: .passphrase("pw"), serviceID: Run.serviceID, publishID: InstanceID(1),
            localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI)
        var m1 = try Self.body(try Run.request, try initiator.requestAttributes())
        try initiator.seal(&m1)
        #expect(throws: NDPSecurityError.self) {
            _ = try NDPKeyExchange(
                respondingTo: m1, credential: .passphrase("pw"), acceptedSuites: [.sk256], serviceID: Run.serviceID,
                localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI)
        }
    }
}

@Suite struct NDPSecurityHelpersTests {
    @Test func offeredSuitesAndSecurityPresenceComeFromTheAttributes() throws {
        let secure = try DataPathMessage(NANActionFrame(actionBody: try WPASupplicantRun.request))
        #expect(NDPKeyExchange.offeredSuites(in: secure) == [.sk128])
        #expect(NDPKeyExchange.isSecured(secure))
        var open = secure
        open.cipherSuiteInfo = nil
        open.securityContextInfo = nil
        open.sharedKeyDescriptor = nil
        #expect(NDPKeyExchange.offeredSuites(in: open).isEmpty)
        #expect(!NDPKeyExchange.isSecured(open))
    }

    @Test func failuresMapToNANReasonCodes() {
        #expect(NDPSecurityError(.pmkidMismatch, "").reasonCode == .securityPolicy)
        #expect(NDPSecurityError(.micMismatch, "").reasonCode == .securityPolicy)
        #expect(NDPSecurityError(.malformed, "").reasonCode == .invalidParameters)
        #expect(NDPSecurityError(.unexpectedMessage, "").reasonCode == .invalidParameters)
    }
}

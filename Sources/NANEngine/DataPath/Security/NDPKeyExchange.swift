public import NANWire
internal import NANCrypto

/// The NCS-SK 4-way handshake of one NDP (Wi-Fi Aware v4.0 §7.1.3), in either role, as wpa_supplicant 2.12
/// runs it. The data path builds and sends the NAFs; this value supplies their security attributes, signs
/// the encoded bodies and checks the received ones.
///
/// Sequence (initiator = subscriber, responder = publisher):
/// 1. Initiator: ``init(initiator:credential:serviceID:publishID:localNMI:peerNMI:localNDI:)``, then
///    ``requestAttributes()`` into the NDP Request, encode, ``seal(_:)`` the body (records the
///    authentication token), send.
/// 2. Responder: ``init(respondingTo:credential:acceptedSuites:serviceID:localNMI:peerNMI:localNDI:)`` with the
///    received request body (checks the suite, the PMKID and descriptor 1), then ``responseAttributes()`` into
///    the NDP Response, encode, ``seal(_:)`` (MIC), send.
/// 3. Initiator: ``receive(_:)`` the response body (replay counter, PTK, MIC), ``confirmAttributes()`` into the
///    Confirm, encode, ``seal(_:)`` (MIC over authentication token ‖ body), send.
/// 4. Responder: ``receive(_:)`` the confirm (replay counter, nonce, MIC), ``keyInstallAttributes()`` into the
///    Security Install, encode, ``seal(_:)``, send; ``installableKey`` is then set.
/// 5. Initiator: ``receive(_:)`` the key install (replay counter, nonce, MIC); ``installableKey`` is set.
///
/// Bodies are NAF action bodies from the Category field (what `NANActionFrame.encoded()` returns and what
/// follows the 24-byte 802.11 header of a received frame). A failed check throws ``NDPSecurityError`` and
/// leaves the exchange as it was. Rejected responses carry no descriptor: do not hand them to ``receive(_:)``.
public struct NDPKeyExchange: Sendable {
    /// Which side of the NDP this is.
    public enum Role: Hashable, Sendable {
        /// Sends the NDP Request (messages 1 and 3).
        case initiator
        /// Answers it (messages 2 and 4).
        case responder
    }

    /// Where the handshake stands.
    public enum Step: Hashable, Sendable {
        /// Initiator: created; message 1's attributes not yet taken.
        case start
        /// Message 1 (initiator) or 2 (responder) … 4 built: the encoded body must be sealed.
        case requestBuilt, responseBuilt, confirmBuilt, keyInstallBuilt
        /// Waiting for the peer's message 2, 3 or 4.
        case awaitingResponse, awaitingConfirm, awaitingKeyInstall
        /// Responder: message 1 checked; message 2 to build.
        case requestVerified
        /// Initiator: message 2 checked; message 3 to build.
        case responseVerified
        /// Responder: message 3 checked; message 4 to build.
        case confirmVerified
        /// Done: the TK can be installed.
        case complete
    }

    /// Initiator or responder.
    public let role: Role
    /// The negotiated cipher suite.
    public let suite: NDPCipherSuite
    /// The publish instance the NDP serves (in every security attribute).
    public let publishID: InstanceID
    /// Where the handshake stands.
    public private(set) var step: Step

    let pmk: NDPPairwiseMasterKey
    let pmkid: [UInt8]
    let localNDI: MACAddress
    private(set) var peerNDI: MACAddress?
    private(set) var initiatorNonce: [UInt8]
    private(set) var responderNonce: [UInt8]?
    private(set) var replayCounter: UInt64
    private(set) var authenticationToken: [UInt8]?
    private(set) var ptk: NDPPairwiseTransientKey?

    /// Names the PMK without holding it: the first 16 bytes of SHA-256 over it. Two data paths with the
    /// same tag were keyed by the same PMK (the same credential for the same service and publisher).
    var masterKeyTag: [UInt8]? {
        (try? Digest.hash(.sha256, pmk.bytes)).map { Array($0.prefix(16)) }
    }

    /// The key to install, once the handshake is ``Step/complete``.
    public var installableKey: NDPInstallableKey? {
        guard step == .complete, let ptk, let peerNDI else { return nil }
        return NDPInstallableKey(suite: suite, temporalKey: ptk.tk, keyIndex: 0, localNDI: localNDI, peerNDI: peerNDI)
    }

    // MARK: Creating

    /// The initiator's exchange. The PMK's salt takes the peer's NMI as the publisher's; a random INonce.
    public init(
        initiator suite: NDPCipherSuite, credential: NDPCredential, serviceID: ServiceID, publishID: InstanceID,
        localNMI: MACAddress, peerNMI: MACAddress, localNDI: MACAddress
    ) throws(NDPSecurityError) {
        try self.init(
            initiator: suite, credential: credential, serviceID: serviceID, publishID: publishID,
            localNMI: localNMI, peerNMI: peerNMI, localNDI: localNDI, nonce: nil)
    }

    /// As the public initializer; `nonce` fixes the INonce for known-answer tests.
    init(
        initiator suite: NDPCipherSuite, credential: NDPCredential, serviceID: ServiceID, publishID: InstanceID,
        localNMI: MACAddress, peerNMI: MACAddress, localNDI: MACAddress, nonce: [UInt8]?
    ) throws(NDPSecurityError) {
        role = .initiator
        self.suite = suite
        self.publishID = publishID
        step = .start
        pmk = try credential.pairwiseMasterKey(
            suite: suite, serviceID: serviceID, publisherNMI: peerNMI, peerNMI: peerNMI)
        pmkid = try NDPKeyDerivation.pmkid(
            pmk, suite: suite, initiatorNMI: localNMI, responderNMI: peerNMI, serviceID: serviceID)
        self.localNDI = localNDI
        if let nonce { initiatorNonce = nonce } else { initiatorNonce = try Self.randomNonce() }
        replayCounter = 1
    }

    /// The responder's exchange, from the received NDP Request body (message 1): the suite must be in
    /// `acceptedSuites`, the PMKID must match the PMK from `credential` (the local NMI is the publisher's),
    /// descriptor 1 must be well formed. Draws a random RNonce and derives the PTK.
    public init(
        respondingTo requestBody: [UInt8], credential: NDPCredential,
        acceptedSuites: Set<NDPCipherSuite> = [.sk128, .sk256],
        serviceID: ServiceID, localNMI: MACAddress, peerNMI: MACAddress, localNDI: MACAddress
    ) throws(NDPSecurityError) {
        try self.init(
            respondingTo: requestBody, credential: credential, acceptedSuites: acceptedSuites, serviceID: serviceID,
            localNMI: localNMI, peerNMI: peerNMI, localNDI: localNDI, nonce: nil)
    }

    /// As the public initializer; `nonce` fixes the RNonce for known-answer tests.
    init(
        respondingTo requestBody: [UInt8], credential: NDPCredential, acceptedSuites: Set<NDPCipherSuite>,
        serviceID: ServiceID,
        localNMI: MACAddress, peerNMI: MACAddress, localNDI: MACAddress, nonce: [UInt8]?
    ) throws(NDPSecurityError) {
        try self.init(
            respondingTo: requestBody, acceptedSuites: acceptedSuites, serviceID: serviceID, localNMI: localNMI,
            peerNMI: peerNMI, localNDI: localNDI, nonce: nonce
        ) { suite throws(NDPSecurityError) in
            try credential.pairwiseMasterKey(
                suite: suite, serviceID: serviceID, publisherNMI: localNMI, peerNMI: peerNMI)
        }
    }

    /// As the public initializer, with the PMK for the chosen suite from `masterKey` (asked once, after the
    /// request's attributes are checked): the data path hands in its cached passphrase PMKs this way.
    init(
        respondingTo requestBody: [UInt8], acceptedSuites: Set<NDPCipherSuite>, serviceID: ServiceID,
        localNMI: MACAddress, peerNMI: MACAddress, localNDI: MACAddress, nonce: [UInt8]?,
        masterKey: (NDPCipherSuite) throws(NDPSecurityError) -> NDPPairwiseMasterKey
    ) throws(NDPSecurityError) {
        let message = try Self.decode(requestBody, expecting: .dataPathRequest, "message 1")
        guard let csia = message.cipherSuiteInfo else {
            throw NDPSecurityError(.missingAttribute, "message 1: no Cipher Suite Info attribute")
        }
        let offered = csia.entries.compactMap { NDPCipherSuite($0.suite) }
        guard let chosen = offered.first(where: acceptedSuites.contains) else {
            let ids = csia.entries.map { String($0.suite.rawValue) }.joined(separator: ",")
            throw NDPSecurityError(.unsupportedCipherSuite, "message 1 offers cipher suites [\(ids)]")
        }
        guard
            let context = message.securityContextInfo?.entries.first(where: {
                $0.type == SecurityContextInfoAttribute.Entry.ndPMKID
            }),
            context.identifier.count == NDPKeyDerivation.pmkidLength
        else {
            throw NDPSecurityError(.missingAttribute, "message 1: no 16-byte ND-PMKID in Security Context Info")
        }
        let (attribute, descriptor) = try Self.descriptor(message, suite: chosen, "message 1")
        try Self.expect(descriptor, has: [.pairwise, .ack], lacks: [.mic, .secure, .request, .install], "message 1")
        let pmk = try masterKey(chosen)
        let expected = try NDPKeyDerivation.pmkid(
            pmk, suite: chosen, initiatorNMI: peerNMI, responderNMI: localNMI, serviceID: serviceID)
        guard ConstantTime.equal(expected, context.identifier) else {
            throw NDPSecurityError(.pmkidMismatch, "message 1: the PMKID is not ours (another passphrase or PMK)")
        }
        role = .responder
        suite = chosen
        publishID = attribute.publishID
        step = .requestVerified
        self.pmk = pmk
        pmkid = expected
        self.localNDI = localNDI
        peerNDI = message.ndp.initiatorNDI
        initiatorNonce = descriptor.nonce
        replayCounter = descriptor.replayCounter
        authenticationToken = try NDPKeyDerivation.authenticationToken(suite: chosen, requestBody: requestBody)
        let rNonce: [UInt8]
        if let nonce { rNonce = nonce } else { rNonce = try Self.randomNonce() }
        responderNonce = rNonce
        ptk = try NDPKeyDerivation.ptk(
            pmk, suite: chosen, initiatorNDI: message.ndp.initiatorNDI, responderNDI: localNDI,
            initiatorNonce: descriptor.nonce, responderNonce: rNonce)
    }

    // MARK: Building

    /// Message 1 (initiator): CSIA, SCIA with the PMKID, and descriptor 1 (Ack, replay counter 1, INonce).
    public mutating func requestAttributes() throws(NDPSecurityError) -> NDPSecurityAttributes {
        try expectStep(.start, role: .initiator, "message 1")
        let attributes = try attributes(withContext: true, info: [.pairwise, .ack], nonce: initiatorNonce)
        step = .requestBuilt
        return attributes
    }

    /// Message 2 (responder): CSIA, SCIA with the PMKID, and descriptor 2 (MIC, the request's replay
    /// counter, RNonce).
    public mutating func responseAttributes() throws(NDPSecurityError) -> NDPSecurityAttributes {
        try expectStep(.requestVerified, role: .responder, "message 2")
        let attributes = try attributes(withContext: true, info: [.pairwise, .mic], nonce: responderNonce ?? [])
        step = .responseBuilt
        return attributes
    }

    /// Message 3 (initiator): descriptor 3 (Ack, MIC, Secure, Install, replay counter + 1, INonce).
    public mutating func confirmAttributes() throws(NDPSecurityError) -> NDPSecurityAttributes {
        try expectStep(.responseVerified, role: .initiator, "message 3")
        replayCounter += 1
        let attributes = try attributes(
            withContext: false, info: [.pairwise, .ack, .mic, .secure, .install], nonce: initiatorNonce)
        step = .confirmBuilt
        return attributes
    }

    /// Message 4 (responder): descriptor 4 (MIC, Secure, Install, the confirm's replay counter, RNonce).
    public mutating func keyInstallAttributes() throws(NDPSecurityError) -> NDPSecurityAttributes {
        try expectStep(.confirmVerified, role: .responder, "message 4")
        let attributes = try attributes(
            withContext: false, info: [.pairwise, .mic, .secure, .install], nonce: responderNonce ?? [])
        step = .keyInstallBuilt
        return attributes
    }

    /// Signs the encoded body of the message just built, in place: message 1 records the authentication
    /// token (nothing to sign), messages 2 and 4 get HMAC(KCK, body), message 3 HMAC(KCK, token ‖ body),
    /// each over the body with the MIC field zero, truncated to the suite's MIC length.
    public mutating func seal(_ body: inout [UInt8]) throws(NDPSecurityError) {
        switch step {
        case .requestBuilt:
            _ = try NAFSecurityLayout.micRange(in: body, micLength: suite.micLength)
            authenticationToken = try NDPKeyDerivation.authenticationToken(suite: suite, requestBody: body)
            step = .awaitingResponse
        case .responseBuilt:
            try sign(&body, prefix: [])
            step = .awaitingConfirm
        case .confirmBuilt:
            try sign(&body, prefix: authenticationToken ?? [])
            step = .awaitingKeyInstall
        case .keyInstallBuilt:
            try sign(&body, prefix: [])
            step = .complete
        default:
            throw NDPSecurityError(.unexpectedMessage, "nothing built to seal at step \(step)")
        }
    }

    // MARK: Receiving

    /// Checks a received message 2, 3 or 4 (its NAF body) and moves on; throws when the message does not
    /// fit the role and step, or a check fails (the exchange then stays where it was).
    public mutating func receive(_ body: [UInt8]) throws(NDPSecurityError) {
        switch (role, step) {
        case (.initiator, .awaitingResponse): try receiveResponse(body)
        case (.responder, .awaitingConfirm): try receiveConfirm(body)
        case (.initiator, .awaitingKeyInstall): try receiveKeyInstall(body)
        default:
            let subtype = body.count > 6 ? "subtype \(body[6])" : "a short frame"
            throw NDPSecurityError(.unexpectedMessage, "\(role) at step \(step) does not expect \(subtype)")
        }
    }

    private mutating func receiveResponse(_ body: [UInt8]) throws(NDPSecurityError) {
        let message = try Self.decode(body, expecting: .dataPathResponse, "message 2")
        guard let csia = message.cipherSuiteInfo else {
            throw NDPSecurityError(.missingAttribute, "message 2: no Cipher Suite Info attribute")
        }
        guard csia.entries.contains(where: { NDPCipherSuite($0.suite) == suite }) else {
            throw NDPSecurityError(.unsupportedCipherSuite, "message 2 does not confirm \(suite)")
        }
        if let context = message.securityContextInfo?.entries.first(where: {
            $0.type == SecurityContextInfoAttribute.Entry.ndPMKID
        }),
            !ConstantTime.equal(context.identifier, pmkid)
        {
            throw NDPSecurityError(.pmkidMismatch, "message 2: the PMKID is not ours")
        }
        let (_, descriptor) = try Self.descriptor(message, suite: suite, "message 2")
        try Self.expect(descriptor, has: [.pairwise, .mic], lacks: [.ack, .secure, .request, .install], "message 2")
        guard descriptor.replayCounter == replayCounter else {
            throw NDPSecurityError(
                .replayCounter, "message 2 carries \(descriptor.replayCounter), message 1 sent \(replayCounter)")
        }
        guard let responderNDI = message.ndp.responderNDI else {
            throw NDPSecurityError(.missingAttribute, "message 2: the NDP attribute names no responder NDI")
        }
        let candidate = try NDPKeyDerivation.ptk(
            pmk, suite: suite, initiatorNDI: localNDI, responderNDI: responderNDI,
            initiatorNonce: initiatorNonce, responderNonce: descriptor.nonce)
        try verify(body, kck: candidate.kck, prefix: [], "message 2")
        ptk = candidate
        peerNDI = responderNDI
        responderNonce = descriptor.nonce
        step = .responseVerified
    }

    private mutating func receiveConfirm(_ body: [UInt8]) throws(NDPSecurityError) {
        let message = try Self.decode(body, expecting: .dataPathConfirm, "message 3")
        let (_, descriptor) = try Self.descriptor(message, suite: suite, "message 3")
        try Self.expect(descriptor, has: [.pairwise, .mic, .ack, .secure], lacks: [.request], "message 3")
        guard descriptor.replayCounter > replayCounter else {
            throw NDPSecurityError(
                .replayCounter, "message 3 carries \(descriptor.replayCounter), not above \(replayCounter)")
        }
        guard ConstantTime.equal(descriptor.nonce, initiatorNonce) else {
            throw NDPSecurityError(.nonceMismatch, "message 3's nonce is not message 1's")
        }
        guard let ptk else { throw NDPSecurityError(.unexpectedMessage, "message 3 before a PTK") }
        try verify(body, kck: ptk.kck, prefix: authenticationToken ?? [], "message 3")
        try checkKeyData(descriptor, "message 3")
        replayCounter = descriptor.replayCounter
        step = .confirmVerified
    }

    private mutating func receiveKeyInstall(_ body: [UInt8]) throws(NDPSecurityError) {
        let message = try Self.decode(body, expecting: .dataPathKeyInstall, "message 4")
        let (_, descriptor) = try Self.descriptor(message, suite: suite, "message 4")
        try Self.expect(descriptor, has: [.pairwise, .mic, .secure], lacks: [.ack, .request], "message 4")
        guard descriptor.replayCounter == replayCounter else {
            throw NDPSecurityError(
                .replayCounter, "message 4 carries \(descriptor.replayCounter), message 3 sent \(replayCounter)")
        }
        guard let responderNonce, ConstantTime.equal(descriptor.nonce, responderNonce) else {
            throw NDPSecurityError(.nonceMismatch, "message 4's nonce is not message 2's")
        }
        guard let ptk else { throw NDPSecurityError(.unexpectedMessage, "message 4 before a PTK") }
        try verify(body, kck: ptk.kck, prefix: [], "message 4")
        try checkKeyData(descriptor, "message 4")
        step = .complete
    }

    // MARK: Helpers

    private func expectStep(_ expected: Step, role expectedRole: Role, _ what: String) throws(NDPSecurityError) {
        guard step == expected, role == expectedRole else {
            throw NDPSecurityError(.unexpectedMessage, "\(what) cannot be built by the \(role) at step \(step)")
        }
    }

    private func attributes(
        withContext: Bool, info: RSNKeyDescriptor.KeyInformation, nonce: [UInt8]
    ) throws(NDPSecurityError) -> NDPSecurityAttributes {
        let descriptor = RSNKeyDescriptor(
            keyInformation: info, replayCounter: replayCounter, nonce: nonce, micLength: suite.micLength)
        let skda: SharedKeyDescriptorAttribute
        do { skda = try SharedKeyDescriptorAttribute(publishID: publishID, descriptor: descriptor) } catch {
            throw NDPSecurityError(.malformed, "building a key descriptor: \(error)")
        }
        guard withContext else {
            return NDPSecurityAttributes(cipherSuiteInfo: nil, securityContextInfo: nil, sharedKeyDescriptor: skda)
        }
        return NDPSecurityAttributes(
            cipherSuiteInfo: CipherSuiteInfoAttribute(
                capabilities: 0, entries: [.init(suite: suite.wireValue, publishID: publishID)]),
            securityContextInfo: SecurityContextInfoAttribute(entries: [
                .init(
                    type: SecurityContextInfoAttribute.Entry.ndPMKID, publishID: publishID,
                    identifier: ArraySlice(pmkid))
            ]),
            sharedKeyDescriptor: skda)
    }

    private func sign(_ body: inout [UInt8], prefix: [UInt8]) throws(NDPSecurityError) {
        guard let ptk else { throw NDPSecurityError(.unexpectedMessage, "signing before a PTK") }
        let range = try NAFSecurityLayout.micRange(in: body, micLength: suite.micLength)
        body.replaceSubrange(range, with: repeatElement(0, count: range.count))
        let mic = try NDPKeyDerivation.mic(suite: suite, kck: ptk.kck, data: prefix + body)
        body.replaceSubrange(range, with: mic)
    }

    private func verify(_ body: [UInt8], kck: [UInt8], prefix: [UInt8], _ what: String) throws(NDPSecurityError) {
        let range = try NAFSecurityLayout.micRange(in: body, micLength: suite.micLength)
        var zeroed = body
        zeroed.replaceSubrange(range, with: repeatElement(0, count: range.count))
        let expected = try NDPKeyDerivation.mic(suite: suite, kck: kck, data: prefix + zeroed)
        guard ConstantTime.equal(expected, body[range]) else {
            throw NDPSecurityError(.micMismatch, "\(what): the MIC does not verify (another key, or an altered frame)")
        }
    }

    /// Encrypted key data (group keys the peer offers) must unwrap under the KEK; waware installs no group
    /// keys, so the content is not used.
    private func checkKeyData(_ descriptor: RSNKeyDescriptor, _ what: String) throws(NDPSecurityError) {
        guard descriptor.keyInformation.contains(.encryptedKeyData), !descriptor.keyData.isEmpty, let ptk else {
            return
        }
        do { _ = try AESKeyWrap.unwrap(descriptor.keyData, kek: ptk.kek) } catch {
            throw NDPSecurityError(.malformed, "\(what): the key data does not unwrap under the KEK: \(error)")
        }
    }

    private static func decode(
        _ body: [UInt8], expecting subtype: NANActionSubtype, _ what: String
    ) throws(NDPSecurityError) -> DataPathMessage {
        let message: DataPathMessage
        do { message = try DataPathMessage(NANActionFrame(actionBody: body)) } catch {
            throw NDPSecurityError(.malformed, "\(what): \(error)")
        }
        guard message.subtype == subtype else {
            throw NDPSecurityError(.unexpectedMessage, "expected \(what) (\(subtype)), got \(message.subtype)")
        }
        return message
    }

    private static func descriptor(
        _ message: DataPathMessage, suite: NDPCipherSuite, _ what: String
    )
        throws(NDPSecurityError) -> (SharedKeyDescriptorAttribute, RSNKeyDescriptor)
    {
        guard let attribute = message.sharedKeyDescriptor else {
            throw NDPSecurityError(.missingAttribute, "\(what): no Shared-Key Descriptor attribute")
        }
        do { return (attribute, try attribute.decodedKeyDescriptor(micLength: suite.micLength)) } catch {
            throw NDPSecurityError(.malformed, "\(what): \(error)")
        }
    }

    private static func expect(
        _ descriptor: RSNKeyDescriptor, has required: RSNKeyDescriptor.KeyInformation,
        lacks forbidden: RSNKeyDescriptor.KeyInformation, _ what: String
    ) throws(NDPSecurityError) {
        let info = descriptor.keyInformation
        guard info.descriptorVersion == 0, info.isSuperset(of: required), info.isDisjoint(with: forbidden) else {
            throw NDPSecurityError(.keyInformation, "\(what): key information 0x\(String(info.rawValue, radix: 16))")
        }
    }

    private static func randomNonce() throws(NDPSecurityError) -> [UInt8] {
        do { return try SecureRandom.bytes(32) } catch { throw NDPSecurityError(.crypto, "nonce: \(error)") }
    }
}

extension NDPKeyExchange {
    /// The shared-key suites a received NDP Request (or Response) offers in its Cipher Suite Info attribute,
    /// in its order; empty for an open NDP. Lets the data path decide before building a responder.
    public static func offeredSuites(in message: DataPathMessage) -> [NDPCipherSuite] {
        message.cipherSuiteInfo?.entries.compactMap { NDPCipherSuite($0.suite) } ?? []
    }

    /// Whether a data-path message asks for security: it carries any of the Cipher Suite Info, Security
    /// Context Info or Shared-Key Descriptor attributes.
    public static func isSecured(_ message: DataPathMessage) -> Bool {
        message.cipherSuiteInfo != nil || message.securityContextInfo != nil || message.sharedKeyDescriptor != nil
    }
}

public import NANWire
internal import NANCrypto

/// The initiating side of NAN pairing setup or verification over PASN Authentication frames 1–3
/// (Wi-Fi Aware 4.0 §7.6, frames as wpa_supplicant 2.12 builds them). A value with no I/O: `start` gives
/// frame 1, `receive` takes frame 2 and gives frame 3 and the keys. On any failure the state is `failed`
/// and the error is thrown; send ``failureFrame`` then, so the responder stops waiting. Holds secrets:
/// never printed.
public struct PASNPairingInitiator: Sendable, CustomStringConvertible {
    /// Where the exchange stands.
    public enum State: Hashable, Sendable {
        /// Frame 1 not built yet.
        case idle
        /// Frame 1 sent; waiting for frame 2.
        case awaitingFrame2
        /// Frame 3 built; keys derived.
        case done
        /// Ended with the error.
        case failed(PairingError)
    }

    /// Our NMI.
    public let own: MACAddress
    /// The responder's NMI.
    public let peer: MACAddress
    /// The responder's publish ID (carried in the CSIA).
    public let publishID: InstanceID
    /// Where the exchange stands.
    public private(set) var state: State = .idle
    /// The status frame 3 should carry after a failure (15 for a PIN mismatch, else 1).
    public private(set) var failureStatus: UInt16 = PASNPairing.statusRefused
    /// The cipher suite: the one asked for at setup, the cached pairing's for a verification.
    public let suite: NDPCipherSuite

    private let method: PairingMethod
    private let peerIdentityKey: NANIdentityKey?
    private let ephemeral: ECEphemeralKey
    private var sae: SAEHandshake?
    private var nira: IdentityResolutionAttribute?
    private var frame1Body: [UInt8] = []
    private var nanElement: InformationElement?
    private let deviceCapability: DeviceCapabilityAttribute?
    private let availability: NANAvailabilityAttribute?

    /// A new exchange on `suite` (NCS-PK-PASN-128 or -256; a verification runs on the cached pairing's
    /// suite instead). For verification pass our NIK (`identity`, it makes our NIRA and the NPKID) and,
    /// to check that frame 2 comes from the paired device, the peer's NIK. `deviceCapability`: our Device
    /// Capability attribute, carried in the NAN element of frames 1 and 3: wpa_supplicant 2.12 reads the
    /// element into its record of the peer, and makes the peer's NMI station (which it needs to answer,
    /// and its frame 2 needs to wait for a DW) only from a Device Capability it has heard; a passive
    /// subscriber has sent it no SDF before frame 1. `availability`, our NAN Availability, goes beside it:
    /// from it the responder learns when we listen outside the DWs, and sends frame 2 then.
    public init(
        own: MACAddress, peer: MACAddress, publishID: InstanceID, method: PairingMethod, suite: NDPCipherSuite = .pk128,
        identity: NANIdentityKey? = nil, peerIdentity: NANIdentityKey? = nil,
        deviceCapability: DeviceCapabilityAttribute? = nil, availability: NANAvailabilityAttribute? = nil
    ) throws(PairingError) {
        self.own = own; self.peer = peer; self.publishID = publishID; self.method = method
        self.peerIdentityKey = peerIdentity
        self.deviceCapability = deviceCapability
        self.availability = availability
        let suite = if case .verification(let cached) = method { cached.suite } else { suite }
        guard suite.isPairing else {
            throw PairingError(.cipherSuiteMismatch, "\(suite) is not a pairing cipher suite")
        }
        self.suite = suite
        let group = suite.pairingGroup
        ephemeral = try PASNPairing.crypto("PASN ephemeral key") { () throws(CryptoError) in
            try ECEphemeralKey(group: group)
        }
        switch method {
        case .password(let password):
            guard !password.isEmpty else { throw PairingError(.malformed, "empty PIN or passphrase") }
            sae = try PASNPairing.crypto("SAE") { () throws(CryptoError) in
                try SAEHandshake(element: SAEPasswordToken(group: group, password: password).passwordElement(own, peer))
            }
        case .opportunistic:
            break
        case .verification:
            guard let identity else { throw PairingError(.malformed, "pairing verification needs our NIK") }
            nira = try identity.identityResolution(nmi: own)
        }
    }

    private var hash: HashFunction { suite.pasnHash(akm: akm) }

    private var akm: PairingAKM {
        switch method {
        case .password: .sae
        case .opportunistic: .pasn
        case .verification(let cached): cached.akm
        }
    }

    /// Frame 1: RSNE (the AKM; the NPKID when verifying), the SAE commit in Wrapped Data (password),
    /// RSNXE (not for opportunistic), PASN Parameters with our ephemeral key, the NAN element (CSIA, our
    /// Device Capability and NAN Availability when given, DCEA or NIRA).
    public mutating func start() throws(PairingError) -> PASNAuthenticationFrame {
        guard state == .idle else { throw PairingError(.unexpectedMessage, "PASN frame 1 already built") }
        return try frame1(cookie: nil)
    }

    /// Frame 1 again, now with the responder's comeback `cookie` (``PASNComebackCookies``): the same keys
    /// and SAE commit; this frame is the one frame 2 must then answer.
    public mutating func comeback(cookie: [UInt8]) throws(PairingError) -> PASNAuthenticationFrame {
        guard state == .awaitingFrame2 else { throw PairingError(.unexpectedMessage, "PASN comeback while \(state)") }
        return try frame1(cookie: cookie)
    }

    private mutating func frame1(cookie: [UInt8]?) throws(PairingError) -> PASNAuthenticationFrame {
        var elements: [InformationElement] = []
        let npkid = nira.map { Array($0.nonce) + Array($0.tag) }
        elements.append(PASNRSNElement(akm: akm, pmkid: npkid, cipher: suite.pairwiseCipher).element())
        if let sae {
            let body = PASNPairing.saeBody(
                sequence: 1, status: PASNPairing.statusSAEHashToElement, sae.commit.encoded())
            elements.append(try PASNPairingElements.wrappedData(body))
        }
        if case .opportunistic = method {} else { elements.append(PASNPairingElements.rsnExtension(akm: akm)) }
        let parameters = PASNParameters(
            wrappedDataFormat: sae == nil ? 0 : PASNParameters.wrappedSAE,
            comeback: cookie.map { .init(after: nil, cookie: $0[...]) },
            group: suite.pairingGroup.ikeGroup, publicKey: ephemeral.compressedPublicKey[...])
        elements.append(try element(parameters, sequence: 1))
        let nan = try PASNPairing.nanElement(
            publishID: publishID, suite: suite, nira: nira, deviceCapability: deviceCapability,
            availability: availability)
        nanElement = nan
        elements.append(nan)
        let frame = PASNAuthenticationFrame(sequence: 1, elements: elements)
        frame1Body = try PASNPairing.encoded(frame)
        state = .awaitingFrame2
        return frame
    }

    /// Takes frame 2: checks its status, RSNE and parameters, runs SAE (commit and the responder's
    /// confirm) or takes the default or cached PMK, derives the PASN keys, checks the MIC; returns frame 3
    /// (our SAE confirm, MIC over frame 1's hash) and the pairing keys.
    public mutating func receive(
        _ frame: PASNAuthenticationFrame
    ) throws(PairingError) -> (frame3: PASNAuthenticationFrame, result: PairingResult) {
        guard state == .awaitingFrame2 else {
            throw PairingError(.unexpectedMessage, "PASN frame \(frame.sequence) while \(state)")
        }
        guard frame.sequence == 2 else {
            throw PairingError(.unexpectedMessage, "PASN frame \(frame.sequence) instead of 2")
        }
        do {
            let outcome = try process(frame)
            state = .done
            return outcome
        } catch {
            state = .failed(error)
            if error.code == .wrongPassword { failureStatus = PASNPairing.statusChallengeFailure }
            throw error
        }
    }

    /// Frame 3 ending the exchange after a failure (status 15 after a PIN mismatch, else 1).
    public var failureFrame: PASNAuthenticationFrame { PASNPairing.failureFrame(sequence: 3, status: failureStatus) }

    private mutating func process(
        _ frame: PASNAuthenticationFrame
    ) throws(PairingError) -> (frame3: PASNAuthenticationFrame, result: PairingResult) {
        guard frame.status != PASNPairing.statusInvalidPairwiseCipher else {
            throw PairingError(
                .cipherSuiteMismatch,
                "the peer does not pair with \(suite) (PASN status 42): both sides need the same cipher suite")
        }
        guard frame.status == 0 else {
            throw PairingError(.rejected, "the peer refused pairing (PASN status \(frame.status))")
        }
        guard let rsneBody = frame.rsne else { throw PairingError(.malformed, "PASN frame 2 without an RSNE") }
        let rsne = try PASNRSNElement(decodingBody: rsneBody)
        guard rsne.akm == akm else { throw PairingError(.malformed, "PASN frame 2: AKM \(rsne.akm), expected \(akm)") }
        guard rsne.cipher == suite.pairwiseCipher else {
            throw PairingError(
                .cipherSuiteMismatch,
                "PASN frame 2: pairwise cipher \(rsne.cipher), \(suite) needs \(suite.pairwiseCipher)")
        }
        let parameters = try PASNPairing.parameters(frame)
        guard parameters.group == suite.pairingGroup.ikeGroup else {
            throw PairingError(
                .cipherSuiteMismatch,
                "PASN frame 2: group \(parameters.group.map(String.init) ?? "none"), \(suite) runs on \(suite.pairingGroup.ikeGroup)"
            )
        }
        let sharedSecret = try PASNPairing.crypto("PASN Diffie-Hellman") { () throws(CryptoError) in
            try ephemeral.sharedSecret(peerPublicKey: parameters.publicKey)
        }
        let pmk: [UInt8]
        var saeConfirm: [UInt8] = []
        var peerIdentity: IdentityResolutionAttribute?
        switch method {
        case .opportunistic:
            pmk = PASNKeyDerivation.defaultPMK
        case .verification(let cached):
            pmk = cached.npk
            let nira = try PASNPairingElements.attribute(
                IdentityResolutionAttribute.self, in: PASNPairingElements.nanAttributes(in: frame))
            if let peerIdentityKey {
                guard let nira, let tag = try? peerIdentityKey.tag(nmi: peer, nonce: Array(nira.nonce)),
                    ConstantTime.equal(tag, Array(nira.tag))
                else {
                    throw PairingError(.authenticationFailed, "PASN frame 2: the NIRA is not the paired device's")
                }
            }
            peerIdentity = nira
        case .password:
            guard var handshake = sae, parameters.wrappedDataFormat == PASNParameters.wrappedSAE,
                let wrapped = frame.wrappedData
            else {
                throw PairingError(.malformed, "PASN frame 2 without SAE wrapped data")
            }
            let parts = try PASNPairing.splitCommitAndConfirm(Array(wrapped))
            let commitPayload = try PASNPairing.saePayload(
                parts.commit, sequence: 1, status: PASNPairing.statusSAEHashToElement)
            let peerCommit = try PASNPairing.crypto("SAE commit") { () throws(CryptoError) in
                try SAECommit.decode(commitPayload).commit
            }
            let keys = try PASNPairing.crypto("SAE commit") { () throws(CryptoError) in
                try handshake.receive(peerCommit)
            }
            let confirm = try PASNPairing.confirmPayload(
                PASNPairing.saePayload(parts.confirm, sequence: 2, status: 0),
                length: suite.pairingGroup.hash.outputSize)
            do { try handshake.verify(peerConfirm: confirm.confirm, peerSendConfirm: confirm.sendConfirm) } catch {
                throw PairingError(.wrongPassword, "the peer's SAE confirm does not verify: the PINs differ")
            }
            saeConfirm = try PASNPairing.crypto("SAE confirm") { () throws(CryptoError) in
                try handshake.confirm(sendConfirm: 1)
            }
            sae = handshake
            pmk = keys.pmk
        }
        let keys = try PASNPairing.crypto("PASN keys") { () throws(CryptoError) in
            try PASNKeyDerivation.keys(
                hash, pmk: pmk, initiator: own, responder: peer, sharedSecret: sharedSecret, tkLength: suite.tkLength)
        }
        var micData = PASNPairing.bytes(
            of: InformationElement(id: PASNAuthenticationFrame.ElementID.rsn, body: rsneBody))
        if let rsnx = frame.element(PASNAuthenticationFrame.ElementID.rsnExtension) {
            micData += PASNPairing.bytes(
                of: InformationElement(id: PASNAuthenticationFrame.ElementID.rsnExtension, body: rsnx))
        }
        try PASNPairing.checkMIC(frame, hash: hash, kck: keys.kck, first: peer, second: own, data: micData)

        var elements: [InformationElement] = []
        if !saeConfirm.isEmpty {
            elements.append(
                try PASNPairingElements.wrappedData(PASNPairing.saeBody(sequence: 2, status: 0, [1, 0] + saeConfirm)))
        }
        elements.append(
            try element(
                PASNParameters(wrappedDataFormat: saeConfirm.isEmpty ? 0 : PASNParameters.wrappedSAE, group: nil),
                sequence: 3))
        if let nanElement { elements.append(nanElement) }
        let frame1Hash = try PASNPairing.frameHash(hash, frame1Body)
        let frame3 = try PASNPairing.sealed(
            PASNAuthenticationFrame(sequence: 3, elements: elements), hash: hash, kck: keys.kck,
            first: own, second: peer, data: frame1Hash)

        let npk: [UInt8]?
        switch method {
        case .opportunistic: npk = nil
        case .verification(let cached): npk = cached.npk
        case .password: npk = pmk
        }
        let pairingKeys = try PairingKeys(
            kdk: keys.kdk, akm: akm, suite: suite, npk: npk, initiator: own, responder: peer, tk: keys.tk)
        let kind: PairingResult.Kind = if case .verification = method { .verification } else { .setup }
        return (frame3, PairingResult(kind: kind, peer: peer, keys: pairingKeys, peerIdentity: peerIdentity))
    }

    private func element(_ parameters: PASNParameters, sequence: UInt16) throws(PairingError) -> InformationElement {
        do { return try parameters.element(sequence: sequence) } catch {
            throw PairingError(.malformed, "PASN Parameters: \(error)")
        }
    }

    /// Redacted.
    public var description: String { "PASNPairingInitiator(\(own) → \(peer), \(suite), \(state))" }
}

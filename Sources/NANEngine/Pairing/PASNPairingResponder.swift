public import NANWire
internal import NANCrypto

/// The responding side of NAN pairing setup or verification over PASN Authentication frames 1–3. Frame
/// 1 says what the initiator wants: a PMKID without wrapped data is a verification (its NIRA names the
/// paired device, whose cached NPK `cachedPairing` returns), SAE wrapped data is a PIN or passphrase
/// setup, AKM PASN alone is opportunistic. A value with no I/O; on failure the state is `failed`, the
/// error is thrown, and ``failureFrame`` is what to send. Holds secrets: never printed.
public struct PASNPairingResponder: Sendable, CustomStringConvertible {
    /// What this side accepts.
    public struct Policy: Sendable {
        /// The PIN or passphrase for SAE setup; nil refuses it.
        public var password: [UInt8]?
        /// Whether opportunistic (passwordless) setup is accepted.
        public var allowsOpportunistic: Bool
        /// Our NIK, for the NIRA and NPKID of a verification; nil refuses verification.
        public var identity: NANIdentityKey?
        /// The cipher suites a pairing setup may use (NCS-PK-PASN-128, -256); the initiator chooses, a
        /// suite not listed is refused with status 42. A verification uses the cached pairing's suite.
        public var suites: [NDPCipherSuite]
        /// Creates a policy.
        public init(
            password: [UInt8]? = nil, allowsOpportunistic: Bool = false, identity: NANIdentityKey? = nil,
            suites: [NDPCipherSuite] = [.pk128]
        ) {
            self.password = password; self.allowsOpportunistic = allowsOpportunistic; self.identity = identity
            self.suites = suites.filter(\.isPairing)
        }
    }

    /// Where the exchange stands.
    public enum State: Hashable, Sendable {
        /// Waiting for frame 1.
        case awaitingFrame1
        /// Frame 2 sent; waiting for frame 3.
        case awaitingFrame3
        /// Frame 3 verified; keys derived.
        case done
        /// Ended with the error.
        case failed(PairingError)
    }

    /// Our NMI.
    public let own: MACAddress
    /// The initiator's NMI.
    public let peer: MACAddress
    /// Our publish ID (carried in the CSIA).
    public let publishID: InstanceID
    /// Where the exchange stands.
    public private(set) var state: State = .awaitingFrame1
    /// The cipher suite frame 1 asked for, once read.
    public private(set) var suite: NDPCipherSuite?
    /// The status frame 2 carries after a failure (42 for a cipher suite this side does not pair with, else 1).
    public private(set) var failureStatus: UInt16 = PASNPairing.statusRefused

    private let policy: Policy
    private var sae: SAEHandshake?
    private var frame1Body: [UInt8] = []
    private var pending:
        (
            akm: PairingAKM, suite: NDPCipherSuite, kck: [UInt8], kdk: [UInt8], tk: [UInt8], npk: [UInt8]?,
            kind: PairingResult.Kind, peerIdentity: IdentityResolutionAttribute?
        )?

    /// A responder for `peer`'s frame 1.
    public init(own: MACAddress, peer: MACAddress, publishID: InstanceID, policy: Policy) {
        self.own = own; self.peer = peer; self.publishID = publishID; self.policy = policy
    }

    /// The TK the exchange ends with if frame 3 verifies: known once frame 2 is built, nil before and after.
    /// Internal: only the pairing engine installs it early (``PairingLink/prepareProtection(_:temporalKey:suite:)``).
    var temporalKey: [UInt8]? { pending?.tk }

    /// Frame 2 refusing or failing the exchange.
    public var failureFrame: PASNAuthenticationFrame { PASNPairing.failureFrame(sequence: 2, status: failureStatus) }

    /// Takes frame 1 and returns frame 2 (RSNE with the SAE PMKID or our NPKID, SAE commit and confirm,
    /// RSNXE, our ephemeral key, the NAN element, Supported Groups, MIC).
    public mutating func receive(
        frame1 frame: PASNAuthenticationFrame,
        cachedPairing: (IdentityResolutionAttribute, MACAddress) -> CachedPairing? = { _, _ in nil }
    ) throws(PairingError) -> PASNAuthenticationFrame {
        guard state == .awaitingFrame1, frame.sequence == 1 else {
            throw PairingError(.unexpectedMessage, "PASN frame \(frame.sequence) while \(state)")
        }
        do {
            let reply = try process(frame, cachedPairing: cachedPairing)
            state = .awaitingFrame3
            return reply
        } catch {
            state = .failed(error)
            if error.code == .cipherSuiteMismatch { failureStatus = PASNPairing.statusInvalidPairwiseCipher }
            throw error
        }
    }

    /// Takes frame 3: checks the MIC over frame 1's hash and, for SAE, the initiator's confirm.
    public mutating func receive(frame3 frame: PASNAuthenticationFrame) throws(PairingError) -> PairingResult {
        guard state == .awaitingFrame3, frame.sequence == 3, let pending else {
            throw PairingError(.unexpectedMessage, "PASN frame \(frame.sequence) while \(state)")
        }
        do throws(PairingError) {
            if frame.status == PASNPairing.statusChallengeFailure {
                throw PairingError(.wrongPassword, "the peer could not verify our SAE confirm: the PINs differ")
            }
            guard frame.status == 0 else {
                throw PairingError(.rejected, "the peer ended pairing (PASN status \(frame.status))")
            }
            let hash = pending.suite.pasnHash(akm: pending.akm)
            try PASNPairing.checkMIC(
                frame, hash: hash, kck: pending.kck, first: peer, second: own,
                data: PASNPairing.frameHash(hash, frame1Body))
            let parameters = try PASNPairing.parameters(frame)
            guard parameters.publicKey.isEmpty else { throw PairingError(.malformed, "PASN frame 3 with a public key") }
            if let handshake = sae {
                guard parameters.wrappedDataFormat == PASNParameters.wrappedSAE, let wrapped = frame.wrappedData else {
                    throw PairingError(.malformed, "PASN frame 3 without the SAE confirm")
                }
                let confirm = try PASNPairing.confirmPayload(
                    PASNPairing.saePayload(wrapped, sequence: 2, status: 0),
                    length: handshake.group.hash.outputSize)
                do { try handshake.verify(peerConfirm: confirm.confirm, peerSendConfirm: confirm.sendConfirm) } catch {
                    throw PairingError(.wrongPassword, "the peer's SAE confirm does not verify: the PINs differ")
                }
            }
            let keys = try PairingKeys(
                kdk: pending.kdk, akm: pending.akm, suite: pending.suite, npk: pending.npk, initiator: peer,
                responder: own,
                tk: pending.tk)
            state = .done
            self.pending = nil
            return PairingResult(kind: pending.kind, peer: peer, keys: keys, peerIdentity: pending.peerIdentity)
        } catch {
            state = .failed(error)
            self.pending = nil
            throw error
        }
    }

    private mutating func process(
        _ frame: PASNAuthenticationFrame,
        cachedPairing: (IdentityResolutionAttribute, MACAddress) -> CachedPairing?
    ) throws(PairingError) -> PASNAuthenticationFrame {
        guard frame.status == 0 else { throw PairingError(.malformed, "PASN frame 1 with status \(frame.status)") }
        guard let rsneBody = frame.rsne else { throw PairingError(.malformed, "PASN frame 1 without an RSNE") }
        let rsne = try PASNRSNElement(decodingBody: rsneBody)
        guard rsne.akm == .sae || rsne.akm == .pasn else {
            throw PairingError(.malformed, "PASN frame 1: AKM \(rsne.akm)")
        }
        let parameters = try PASNPairing.parameters(frame)
        let attributes = PASNPairingElements.nanAttributes(in: frame)
        guard let csia = try PASNPairingElements.attribute(CipherSuiteInfoAttribute.self, in: attributes),
            let suite = csia.entries.lazy.compactMap({ NDPCipherSuite($0.suite) }).first(where: \.isPairing)
        else {
            throw PairingError(.malformed, "PASN frame 1: no NCS-PK-PASN cipher suite in the NAN element")
        }
        self.suite = suite
        guard parameters.group == suite.pairingGroup.ikeGroup, rsne.cipher == suite.pairwiseCipher,
            !parameters.publicKey.isEmpty
        else {
            throw PairingError(
                .malformed,
                "PASN frame 1: \(suite) with group \(parameters.group.map(String.init) ?? "none") and pairwise cipher \(rsne.cipher)"
            )
        }
        frame1Body = try PASNPairing.encoded(frame)

        let pmk: [UInt8]
        var npk: [UInt8]?
        var ourPMKID: [UInt8]?
        var ourNIRA: IdentityResolutionAttribute?
        var wrapped: [UInt8]?
        var kind = PairingResult.Kind.setup
        var peerIdentity: IdentityResolutionAttribute?
        if rsne.pmkid != nil, parameters.wrappedDataFormat == 0 {
            guard let identity = policy.identity else {
                throw PairingError(.rejected, "pairing verification is not accepted here")
            }
            guard let nira = try PASNPairingElements.attribute(IdentityResolutionAttribute.self, in: attributes) else {
                throw PairingError(.malformed, "PASN verification without a NIRA")
            }
            guard let rsnePMKID = rsne.pmkid, rsnePMKID == Array(nira.nonce) + Array(nira.tag) else {
                throw PairingError(.malformed, "PASN verification: the NPKID is not the NIRA's nonce and tag")
            }
            guard let cached = cachedPairing(nira, peer) else {
                throw PairingError(.unknownPeer, "no pairing key for the device at \(peer)")
            }
            guard cached.akm == rsne.akm else {
                throw PairingError(.malformed, "PASN verification: AKM \(rsne.akm), paired with \(cached.akm)")
            }
            guard cached.suite == suite else {
                throw PairingError(
                    .cipherSuiteMismatch, "the peer verifies with \(suite), the pairing is \(cached.suite)")
            }
            pmk = cached.npk
            npk = cached.npk
            kind = .verification
            peerIdentity = nira
            let mine = try identity.identityResolution(nmi: own)
            ourNIRA = mine
            ourPMKID = Array(mine.nonce) + Array(mine.tag)
        } else if rsne.akm == .sae {
            guard let password = policy.password else {
                throw PairingError(.rejected, "PIN pairing is not accepted here")
            }
            try accept(suite)
            guard parameters.wrappedDataFormat == PASNParameters.wrappedSAE, let data = frame.wrappedData else {
                throw PairingError(.malformed, "PASN frame 1: SAE without wrapped data")
            }
            let commitPayload = try PASNPairing.saePayload(
                data, sequence: 1, status: PASNPairing.statusSAEHashToElement)
            let peerCommit = try PASNPairing.crypto("SAE commit") { () throws(CryptoError) in
                try SAECommit.decode(commitPayload).commit
            }
            var handshake = try PASNPairing.crypto("SAE") { () throws(CryptoError) in
                try SAEHandshake(
                    element: SAEPasswordToken(group: suite.pairingGroup, password: password).passwordElement(own, peer))
            }
            let saeKeys = try PASNPairing.crypto("SAE commit") { () throws(CryptoError) in
                try handshake.receive(peerCommit)
            }
            let confirm = try PASNPairing.crypto("SAE confirm") { () throws(CryptoError) in
                try handshake.confirm(sendConfirm: 1)
            }
            wrapped =
                PASNPairing.lengthPrefixed(
                    PASNPairing.saeBody(
                        sequence: 1, status: PASNPairing.statusSAEHashToElement, handshake.commit.encoded()))
                + PASNPairing.lengthPrefixed(PASNPairing.saeBody(sequence: 2, status: 0, [1, 0] + confirm))
            sae = handshake
            pmk = saeKeys.pmk
            npk = saeKeys.pmk
            ourPMKID = saeKeys.pmkid
        } else {
            guard policy.allowsOpportunistic else {
                throw PairingError(.rejected, "opportunistic pairing is not accepted here")
            }
            guard rsne.pmkid == nil else {
                throw PairingError(.malformed, "PASN frame 1: PMKID without a pairing to verify")
            }
            try accept(suite)
            pmk = PASNKeyDerivation.defaultPMK
        }

        let group = suite.pairingGroup
        let hash = suite.pasnHash(akm: rsne.akm)
        let ephemeral = try PASNPairing.crypto("PASN ephemeral key") { () throws(CryptoError) in
            try ECEphemeralKey(group: group)
        }
        let sharedSecret = try PASNPairing.crypto("PASN Diffie-Hellman") { () throws(CryptoError) in
            try ephemeral.sharedSecret(peerPublicKey: parameters.publicKey)
        }
        let keys = try PASNPairing.crypto("PASN keys") { () throws(CryptoError) in
            try PASNKeyDerivation.keys(
                hash, pmk: pmk, initiator: peer, responder: own, sharedSecret: sharedSecret, tkLength: suite.tkLength)
        }

        let rsneOut = PASNRSNElement(akm: rsne.akm, pmkid: ourPMKID, cipher: suite.pairwiseCipher).element()
        var elements = [rsneOut]
        if let wrapped { elements.append(try PASNPairingElements.wrappedData(wrapped)) }
        var micData = PASNPairing.bytes(of: rsneOut)
        let opportunistic = kind == .setup && rsne.akm == .pasn
        if !opportunistic {
            let rsnx = PASNPairingElements.rsnExtension(akm: rsne.akm)
            elements.append(rsnx)
            micData += PASNPairing.bytes(of: rsnx)
        }
        let ourParameters = PASNParameters(
            wrappedDataFormat: wrapped == nil ? 0 : PASNParameters.wrappedSAE, group: group.ikeGroup,
            publicKey: ephemeral.compressedPublicKey[...])
        do { elements.append(try ourParameters.element(sequence: 2)) } catch {
            throw PairingError(.malformed, "PASN Parameters: \(error)")
        }
        elements.append(try PASNPairing.nanElement(publishID: publishID, suite: suite, nira: ourNIRA))
        elements.append(PASNPairingElements.supportedGroups(group.ikeGroup))
        let frame2 = try PASNPairing.sealed(
            PASNAuthenticationFrame(sequence: 2, elements: elements), hash: hash, kck: keys.kck,
            first: own, second: peer, data: micData)
        pending = (rsne.akm, suite, keys.kck, keys.kdk, keys.tk, npk, kind, peerIdentity)
        return frame2
    }

    /// Refuses a setup on a suite the policy does not list.
    private func accept(_ suite: NDPCipherSuite) throws(PairingError) {
        guard policy.suites.contains(suite) else {
            let ours = policy.suites.map(\.description).joined(separator: " or ")
            throw PairingError(
                .cipherSuiteMismatch,
                "the peer asked for \(suite); this side pairs with \(ours.isEmpty ? "none" : ours)")
        }
    }

    /// Redacted.
    public var description: String { "PASNPairingResponder(\(own) ← \(peer), \(state))" }
}

public import NANWire
internal import NANCrypto

/// How a PASN pairing exchange authenticates (Wi-Fi Aware 4.0 §7.6.4–7.6.5).
public enum PairingMethod: Sendable {
    /// Pairing setup with SAE over the PIN or passphrase the bootstrapping agreed on (hash-to-element,
    /// SSID `516F9A010000`, the two NMI addresses).
    case password([UInt8])
    /// Opportunistic pairing setup: PASN without a password (unauthenticated Diffie–Hellman).
    case opportunistic
    /// Pairing verification with a cached NPK: PASN with the NPK as PMK, our NIRA's nonce ‖ tag as NPKID.
    case verification(CachedPairing)
}

/// What a device keeps of a pairing to verify it later: the NPK, the AKM and the cipher suite it was set
/// up with (verification runs on the same suite, and the data paths it keys use it). Never printed.
public struct CachedPairing: Sendable, CustomStringConvertible {
    /// The NAN pairing key, 32 bytes.
    public let npk: [UInt8]
    /// The AKM of the pairing setup.
    public let akm: PairingAKM
    /// NCS-PK-PASN-128 or NCS-PK-PASN-256.
    public let suite: NDPCipherSuite
    /// Creates the cached pairing; nil unless the NPK is 32 bytes and the suite a pairing one.
    public init?(npk: [UInt8], akm: PairingAKM, suite: NDPCipherSuite = .pk128) {
        guard npk.count == 32, akm == .sae || akm == .pasn, suite.isPairing else { return nil }
        self.npk = npk; self.akm = akm; self.suite = suite
    }
    /// Redacted.
    public var description: String { "CachedPairing(\(akm), \(suite), redacted)" }
}

/// The outcome of a PASN pairing exchange on one side.
public struct PairingResult: Sendable, CustomStringConvertible {
    /// Setup (a new NPK; NIKs follow) or verification (the cached NPK proved again).
    public enum Kind: Hashable, Sendable { case setup, verification }
    /// Setup or verification.
    public let kind: Kind
    /// The peer's NMI as it is now.
    public let peer: MACAddress
    /// The keys: NPK, KEK, ND-PMK.
    public let keys: PairingKeys
    /// The NIRA the peer sent (verification), which resolves it to a stored paired device.
    public let peerIdentity: IdentityResolutionAttribute?
    /// One line without secrets.
    public var description: String { "PairingResult(\(kind), \(peer), \(keys.akm))" }
}

/// What the two PASN pairing machines share: status codes, the SAE wrapped-data layout, MICs.
public enum PASNPairing {
    /// Status 1, unspecified failure: what a side sends when it refuses or fails the exchange.
    public static let statusRefused: UInt16 = 1
    /// Status 42, invalid pairwise cipher: the responder does not pair with the cipher suite the initiator
    /// chose (as hostap's PASN responder answers a pairwise cipher it does not accept).
    public static let statusInvalidPairwiseCipher: UInt16 = 42
    /// Status 15, challenge failure: the initiator could not verify the responder's SAE confirm (a PIN
    /// or passphrase mismatch), sent in frame 3.
    public static let statusChallengeFailure: UInt16 = 15
    /// Status 126, SAE hash-to-element, in the SAE commit's header.
    static let statusSAEHashToElement: UInt16 = 126
    /// Authentication algorithm SAE (3), in the SAE headers inside the wrapped data.
    static let algorithmSAE: UInt16 = 3

    /// The body-only frame a side sends to end the exchange with `status` (no elements).
    public static func failureFrame(sequence: UInt16, status: UInt16 = statusRefused) -> PASNAuthenticationFrame {
        PASNAuthenticationFrame(sequence: sequence, status: status, elements: [])
    }

    /// An SAE Authentication frame body as PASN wraps it: algorithm 3, sequence, status, payload.
    static func saeBody(sequence: UInt16, status: UInt16, _ payload: [UInt8]) -> [UInt8] {
        [3, 0, UInt8(sequence), 0, UInt8(status & 0xFF), UInt8(status >> 8)] + payload
    }

    /// The payload of an SAE body after checking its header.
    static func saePayload(
        _ body: some Collection<UInt8>, sequence: UInt16, status: UInt16
    ) throws(PairingError) -> [UInt8] {
        let b = Array(body)
        guard b.count >= 6 else { throw PairingError(.malformed, "SAE data of \(b.count) bytes") }
        let algorithm = UInt16(b[0]) | UInt16(b[1]) << 8, seq = UInt16(b[2]) | UInt16(b[3]) << 8,
            st = UInt16(b[4]) | UInt16(b[5]) << 8
        guard algorithm == algorithmSAE, seq == sequence, st == status else {
            throw PairingError(.malformed, "SAE data: algorithm \(algorithm), sequence \(seq), status \(st)")
        }
        return Array(b[6...])
    }

    /// The SAE confirm payload: send-confirm (LE16) ‖ confirm (`length`: 32 on P-256, 48 on P-384).
    static func confirmPayload(
        _ payload: [UInt8], length: Int
    ) throws(PairingError) -> (sendConfirm: UInt16, confirm: [UInt8]) {
        guard payload.count == 2 + length else {
            throw PairingError(.malformed, "SAE confirm of \(payload.count) bytes, \(2 + length) expected")
        }
        return (UInt16(payload[0]) | UInt16(payload[1]) << 8, Array(payload[2...]))
    }

    /// Splits frame 2's SAE wrapped data: length (LE16) ‖ commit body, length (LE16) ‖ confirm body.
    static func splitCommitAndConfirm(_ data: [UInt8]) throws(PairingError) -> (commit: [UInt8], confirm: [UInt8]) {
        var parts: [[UInt8]] = []
        var index = 0
        while index < data.count, parts.count < 2 {
            guard index + 2 <= data.count else { throw PairingError(.malformed, "SAE wrapped data: truncated length") }
            let length = Int(data[index]) | Int(data[index + 1]) << 8
            guard index + 2 + length <= data.count else {
                throw PairingError(.malformed, "SAE wrapped data: part overruns")
            }
            parts.append(Array(data[(index + 2)..<(index + 2 + length)]))
            index += 2 + length
        }
        guard parts.count == 2 else { throw PairingError(.malformed, "SAE wrapped data: commit and confirm expected") }
        return (parts[0], parts[1])
    }

    /// length (LE16) ‖ part.
    static func lengthPrefixed(_ part: [UInt8]) -> [UInt8] {
        [UInt8(part.count & 0xFF), UInt8(part.count >> 8)] + part
    }

    /// An element as bytes: ID, length, body.
    static func bytes(of element: InformationElement) -> [UInt8] {
        [element.id, UInt8(element.body.count)] + element.body
    }

    /// `frame` with a MIC element of zero bytes (16 with SHA-256, 24 with SHA-384) appended, then the MIC
    /// computed over it and filled in.
    static func sealed(
        _ frame: PASNAuthenticationFrame, hash: HashFunction, kck: [UInt8], first: MACAddress, second: MACAddress,
        data: [UInt8]
    ) throws(PairingError) -> PASNAuthenticationFrame {
        var sealed = frame
        sealed.elements.append(
            InformationElement(
                id: PASNAuthenticationFrame.ElementID.mic,
                body: [UInt8](repeating: 0, count: PASNKeyDerivation.micLength(hash))[...]))
        let mic = try computeMIC(sealed, hash: hash, kck: kck, first: first, second: second, data: data)
        sealed.elements[sealed.elements.count - 1].body = mic[...]
        return sealed
    }

    /// Checks `frame`'s MIC element (16 or 24 bytes, by `hash`) in constant time.
    static func checkMIC(
        _ frame: PASNAuthenticationFrame, hash: HashFunction, kck: [UInt8], first: MACAddress, second: MACAddress,
        data: [UInt8]
    ) throws(PairingError) {
        let length = PASNKeyDerivation.micLength(hash)
        guard let received = frame.mic, received.count == length else {
            throw PairingError(.malformed, "PASN frame \(frame.sequence) without a \(length)-byte MIC")
        }
        let expected = try computeMIC(frame, hash: hash, kck: kck, first: first, second: second, data: data)
        guard ConstantTime.equal(expected, Array(received)) else {
            throw PairingError(.authenticationFailed, "PASN frame \(frame.sequence): MIC does not verify")
        }
    }

    private static func computeMIC(
        _ frame: PASNAuthenticationFrame, hash: HashFunction, kck: [UInt8], first: MACAddress, second: MACAddress,
        data: [UInt8]
    ) throws(PairingError) -> [UInt8] {
        var zeroed = frame
        for index in zeroed.elements.indices where zeroed.elements[index].id == PASNAuthenticationFrame.ElementID.mic {
            zeroed.elements[index].body = [UInt8](repeating: 0, count: zeroed.elements[index].body.count)[...]
        }
        do {
            return try PASNKeyDerivation.mic(
                hash, kck: kck, first: first, second: second, data: data, frame: zeroed.encoded())
        } catch { throw PairingError(.crypto, "PASN MIC: \(error)") }
    }

    /// The encoded body, as a typed pairing error on failure.
    static func encoded(_ frame: PASNAuthenticationFrame) throws(PairingError) -> [UInt8] {
        do { return try frame.encoded() } catch {
            throw PairingError(.malformed, "PASN frame \(frame.sequence): \(error)")
        }
    }

    /// The NAN element's attributes: CSIA (the pairing's suite, NCS-PK-PASN-128 or -256, for `publishID`),
    /// our Device Capability and NAN Availability when given (an initiator's frames 1 and 3: see
    /// ``PASNPairingInitiator``), and, for setup, a DCEA with pairing setup and NPK/NIK caching, for
    /// verification our NIRA.
    static func nanElement(
        publishID: InstanceID, suite: NDPCipherSuite, nira: IdentityResolutionAttribute?,
        deviceCapability: DeviceCapabilityAttribute? = nil, availability: NANAvailabilityAttribute? = nil
    ) throws(PairingError) -> InformationElement {
        do {
            var attributes = try CipherSuiteInfoAttribute(
                capabilities: 0, entries: [.init(suite: suite.wireValue, publishID: publishID)]
            ).encoded()
            if let deviceCapability { attributes += try deviceCapability.encoded() }
            if let availability { attributes += try availability.encoded() }
            if let nira {
                attributes += try nira.encoded()
            } else {
                attributes += try DeviceCapabilityExtensionAttribute(capabilityInfo: 0x0300).encoded()
            }
            return try PASNPairingElements.nanElement(attributes)
        } catch let error as PairingError {
            throw error
        } catch {
            throw PairingError(.malformed, "NAN element: \(error)")
        }
    }

    /// Runs a NANCrypto step, turning its error into a pairing error.
    static func crypto<T>(_ what: String, _ body: () throws(CryptoError) -> T) throws(PairingError) -> T {
        do { return try body() } catch { throw PairingError(.crypto, "\(what): \(error)") }
    }

    /// The hash of a frame body (frame 1's, which frame 3's MIC covers).
    static func frameHash(_ hash: HashFunction, _ body: [UInt8]) throws(PairingError) -> [UInt8] {
        try crypto("\(hash)") { () throws(CryptoError) in try Digest.hash(hash, body) }
    }

    /// The PASN Parameters of `frame`, required.
    static func parameters(_ frame: PASNAuthenticationFrame) throws(PairingError) -> PASNParameters {
        let value: PASNParameters?
        do { value = try frame.parameters() } catch { throw PairingError(.malformed, "PASN Parameters: \(error)") }
        guard let value else { throw PairingError(.malformed, "PASN frame \(frame.sequence) without PASN Parameters") }
        return value
    }
}

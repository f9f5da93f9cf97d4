@testable import NANEngine
import NANCrypto
import NANWire
import Testing

/// PASN pairing setup (SAE with a PIN, opportunistic) and verification with the cached NPK, between the
/// two value machines; every frame goes through the wire codec as it would over the air. The frame layout
/// checks follow wpa_supplicant 2.12 (`wpa_pasn_add_rsne`, `wpa_pasn_add_parameter_ie`, the SAE wrapped
/// data of `wpas_pasn_wd_sae_commit` / `pasn_get_sae_wd`).
@Suite struct PASNPairingTests {
    static let initiatorNMI = MACAddress(0x02, 0, 0, 0, 0, 0x0a)
    static let responderNMI = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
    static let publishID = InstanceID(3)

    /// The pairing error code `body` fails with; nil when it succeeds or fails otherwise.
    static func failure(_ body: () throws -> Void) -> PairingError.Code? {
        do { try body(); return nil } catch let error as PairingError { return error.code } catch { return nil }
    }

    /// Encodes and decodes, as the air would.
    static func air(_ frame: PASNAuthenticationFrame) throws -> PASNAuthenticationFrame {
        try PASNAuthenticationFrame(decoding: frame.encoded()[...])
    }

    static func run(
        _ method: PairingMethod, policy: PASNPairingResponder.Policy, identity: NANIdentityKey? = nil,
        cached: CachedPairing? = nil
    ) throws -> (PairingResult, PairingResult) {
        var initiator = try PASNPairingInitiator(
            own: initiatorNMI, peer: responderNMI, publishID: publishID, method: method, identity: identity)
        var responder = PASNPairingResponder(
            own: responderNMI, peer: initiatorNMI, publishID: publishID, policy: policy)
        let frame2 = try responder.receive(frame1: air(initiator.start())) { _, _ in cached }
        let (frame3, initiatorResult) = try initiator.receive(air(frame2))
        let responderResult = try responder.receive(frame3: air(frame3))
        #expect(initiator.state == .done && responder.state == .done)
        return (initiatorResult, responderResult)
    }

    @Test func pinPairingGivesBothSidesTheSameKeys() throws {
        let (i, r) = try Self.run(.password(Array("123456".utf8)), policy: .init(password: Array("123456".utf8)))
        #expect(i.keys.npk == r.keys.npk && i.keys.kek == r.keys.kek && i.keys.ndPMK == r.keys.ndPMK)
        #expect(i.keys.npk.count == 32 && i.keys.kek.count == 16 && i.keys.akm == .sae && i.kind == .setup)
        #expect(i.keys.npk != i.keys.ndPMK)
        #expect(!"\(i.keys)".contains(hexText(i.keys.npk)))
    }

    @Test func opportunisticPairingGivesBothSidesTheSameKeys() throws {
        let (i, r) = try Self.run(.opportunistic, policy: .init(allowsOpportunistic: true))
        #expect(i.keys.npk == r.keys.npk && i.keys.kek == r.keys.kek && i.keys.ndPMK == r.keys.ndPMK)
        #expect(i.keys.akm == .pasn)
    }

    @Test func wrongPINFailsOnBothSides() throws {
        var initiator = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID,
            method: .password(Array("123456".utf8)))
        var responder = PASNPairingResponder(
            own: Self.responderNMI, peer: Self.initiatorNMI, publishID: Self.publishID,
            policy: .init(password: Array("654321".utf8)))
        let frame2 = try responder.receive(frame1: Self.air(initiator.start()))
        #expect(throws: PairingError.self) { _ = try initiator.receive(Self.air(frame2)) }
        guard case .failed(let error) = initiator.state else { Issue.record("initiator did not fail"); return }
        #expect(error.code == .wrongPassword)
        #expect(initiator.failureFrame.status == PASNPairing.statusChallengeFailure)
        #expect(Self.failure { _ = try responder.receive(frame3: Self.air(initiator.failureFrame)) } == .wrongPassword)
    }

    @Test func responderWithoutPINRefusesAndTheInitiatorSaysSo() throws {
        var initiator = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID,
            method: .password(Array("1".utf8)))
        var responder = PASNPairingResponder(
            own: Self.responderNMI, peer: Self.initiatorNMI, publishID: Self.publishID,
            policy: .init(allowsOpportunistic: true))
        let frame1 = try Self.air(initiator.start())
        #expect(Self.failure { _ = try responder.receive(frame1: frame1) } == .rejected, "accepted SAE without a PIN")
        #expect(
            Self.failure { _ = try initiator.receive(Self.air(responder.failureFrame)) } == .rejected,
            "accepted a refusal")
    }

    @Test func verificationWithTheCachedNPKResolvesThePeer() throws {
        let (setup, _) = try Self.run(.password(Array("2468".utf8)), policy: .init(password: Array("2468".utf8)))
        let initiatorNIK = try NANIdentityKey.random(), responderNIK = try NANIdentityKey.random()
        let cached = try #require(CachedPairing(npk: setup.keys.npk, akm: setup.keys.akm))
        var resolver = IdentityResolver<String>()
        try resolver.add(initiatorNIK, for: "initiator")
        var initiator = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID,
            method: .verification(cached), identity: initiatorNIK, peerIdentity: responderNIK)
        var responder = PASNPairingResponder(
            own: Self.responderNMI, peer: Self.initiatorNMI, publishID: Self.publishID,
            policy: .init(identity: responderNIK))
        var resolved: String?
        let frame2 = try responder.receive(frame1: Self.air(initiator.start())) { nira, transmitter in
            resolved = resolver.resolve(nira, from: transmitter)
            return resolved == nil ? nil : cached
        }
        #expect(resolved == "initiator")
        let (frame3, i) = try initiator.receive(Self.air(frame2))
        let r = try responder.receive(frame3: Self.air(frame3))
        #expect(i.kind == .verification && r.kind == .verification)
        #expect(i.keys.npk == setup.keys.npk && r.keys.npk == setup.keys.npk && i.keys.ndPMK == r.keys.ndPMK)
        #expect(i.keys.ndPMK != setup.keys.ndPMK)  // fresh ephemeral keys: a fresh ND-PMK
    }

    @Test func verificationWithAWrongNPKFailsTheMIC() throws {
        let nik = try NANIdentityKey.random()
        let mine = try #require(CachedPairing(npk: [UInt8](repeating: 1, count: 32), akm: .pasn))
        let theirs = try #require(CachedPairing(npk: [UInt8](repeating: 2, count: 32), akm: .pasn))
        var initiator = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID, method: .verification(mine),
            identity: nik)
        var responder = PASNPairingResponder(
            own: Self.responderNMI, peer: Self.initiatorNMI, publishID: Self.publishID, policy: .init(identity: nik))
        let frame2 = try responder.receive(frame1: Self.air(initiator.start())) { _, _ in theirs }
        #expect(
            Self.failure { _ = try initiator.receive(Self.air(frame2)) } == .authenticationFailed,
            "MIC verified with the wrong NPK")
    }

    @Test func verificationOfAnUnknownDeviceIsRefused() throws {
        let nik = try NANIdentityKey.random()
        let cached = try #require(CachedPairing(npk: [UInt8](repeating: 1, count: 32), akm: .pasn))
        var initiator = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID, method: .verification(cached),
            identity: nik)
        var responder = PASNPairingResponder(
            own: Self.responderNMI, peer: Self.initiatorNMI, publishID: Self.publishID, policy: .init(identity: nik))
        #expect(
            Self.failure { _ = try responder.receive(frame1: Self.air(initiator.start())) } == .unknownPeer,
            "verified an unknown device")
    }

    @Test func alteredFrame2FailsTheMIC() throws {
        var initiator = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID, method: .opportunistic)
        var responder = PASNPairingResponder(
            own: Self.responderNMI, peer: Self.initiatorNMI, publishID: Self.publishID,
            policy: .init(allowsOpportunistic: true))
        var frame2 = try responder.receive(frame1: Self.air(initiator.start()))
        let index = try #require(frame2.elements.firstIndex { $0.id == 221 })
        var body = Array(frame2.elements[index].body)
        body[body.count - 1] ^= 1
        frame2.elements[index].body = body[...]
        #expect(
            Self.failure { _ = try initiator.receive(Self.air(frame2)) } == .authenticationFailed,
            "altered frame accepted")
    }

    @Test func frame1LayoutMatchesWpaSupplicant() throws {
        var opportunistic = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID, method: .opportunistic)
        let bytes = try opportunistic.start().encoded()
        // Algorithm 7, sequence 1, status 0; RSNE: version 1, no group addressed, CCMP-128, AKM PASN (21),
        // MFPC|MFPR, no PMKID, no group addressed management.
        #expect(
            hexText(bytes.prefix(34)) == "070001000000" + "301a" + "0100" + "000fac07" + "0100000fac04" + "0100000fac15"
                + "c000" + "0000" + "000fac07")
        // PASN Parameters: extension 100, control 0x02 (group and key), no wrapped data, group 19, 33-byte key.
        #expect(hexText(bytes[34..<42]) == "ff2764020013" + "00" + "21")
        #expect([0x02, 0x03].contains(bytes[42]))
        // NAN element: Wi-Fi Alliance OUI, type 0x13; CSIA (0x22) with NCS-PK-PASN-128 for publish ID 3; DCEA with pairing bits.
        #expect(hexText(bytes[75...]) == "dd" + "0f" + "506f9a13" + "220300" + "0007" + "03" + "2a0200" + "0003")

        var sae = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID,
            method: .password(Array("1234".utf8)))
        let saeFrame = try sae.start()
        let wrapped = try #require(saeFrame.wrappedData)
        // SAE Authentication body: algorithm 3, sequence 1, status 126 (H2E), then group 19 and the commit.
        #expect(hexText(wrapped.prefix(8)) == "030001007e00" + "1300" && wrapped.count == 6 + 98)
        #expect(saeFrame.element(244).map { hexText($0) } == "2100")
        #expect(try saeFrame.parameters()?.wrappedDataFormat == 3)
    }

    @Test func nikKeyDataRoundTripsUnderTheKEKOnly() throws {
        let nik = try NANIdentityKey.random()
        let kek = [UInt8](repeating: 0x42, count: 16)
        let wrapped = try NIKKeyData.wrap(nik, lifetime: 43_200, kek: kek)
        #expect(wrapped.count == 48)
        let descriptor = NIKKeyDescriptor.attribute(publishID: Self.publishID, wrappedKeyData: wrapped)
        let decoded = try SharedKeyDescriptorAttribute(decoding: descriptor.encoded())
        let (back, lifetime) = try NIKKeyData.unwrap(NIKKeyDescriptor.wrappedKeyData(of: decoded), kek: kek)
        #expect(back == nik && lifetime == 43_200)
        #expect(
            Self.failure { _ = try NIKKeyData.unwrap(wrapped, kek: [UInt8](repeating: 0x43, count: 16)) } == .crypto,
            "unwrapped under another KEK")
    }

    /// The NCS-PK-PASN-128 keys of an opportunistic pairing, as our code derives them (PASN-PTK from the
    /// default PMK, then KEK, NPK and ND-PMK from its KDK, all KDF-SHA-256), against values computed
    /// independently with Python's hashlib/hmac (python3, this snippet as run):
    ///
    ///     import hashlib, hmac
    ///     def kdf(key, label, context, length):
    ///         out = b""; i = 1
    ///         while len(out) < length:
    ///             out += hmac.new(key, i.to_bytes(2, "little") + label.encode() + context + (length * 8).to_bytes(2, "little"), hashlib.sha256).digest(); i += 1
    ///         return out[:length]
    ///     pmk = b"PMKz" + bytes(28)
    ///     spa, bssid = bytes.fromhex("020000000001"), bytes.fromhex("020000000002")
    ///     dhss = bytes(range(0x10, 0x30))
    ///     ptk = kdf(pmk, "PASN PTK Derivation", spa + bssid + dhss, 32 + 16 + 32)
    ///     kck, tk, kdk = ptk[:32], ptk[32:48], ptk[48:]
    ///     print(kck.hex(), tk.hex(), kdk.hex())
    ///     print(kdf(kdk, "NAN Management KEK Derivation", spa + bssid, 16).hex())
    ///     print(kdf(kdk, "NAN Opportunistic NPK Derivation", spa + bssid, 32).hex())
    ///     print(kdf(kdk, "NDP PMK Derivation", spa + bssid, 32).hex())
    @Test func pairingKeysOn128MatchAnIndependentComputationInPython() throws {
        let initiator = MACAddress("02:00:00:00:00:01")!, responder = MACAddress("02:00:00:00:00:02")!
        let pasn = try PASNKeyDerivation.keys(
            .sha256, pmk: PASNKeyDerivation.defaultPMK, initiator: initiator, responder: responder,
            sharedSecret: Array(0x10...0x2f), tkLength: 16)
        #expect(hexText(pasn.kck) == "00c6c4bda07e24611b22488921509f048ab6b8c0bbde6bb13d17d0839b3bbb8d")
        #expect(hexText(pasn.tk) == "5c9286deef3a47a38db1a13b1e4e66c1")
        #expect(hexText(pasn.kdk) == "e5133cd14437168a9ba8ed5b6623b5ede1207a48a374b15c6ec4248a998faa7a")
        let keys = try PairingKeys(
            kdk: pasn.kdk, akm: .pasn, suite: .pk128, npk: nil, initiator: initiator, responder: responder)
        #expect(hexText(keys.kek) == "387faeb2d4ef2abc884d80cea9bea5cb")
        #expect(hexText(keys.npk) == "d7a0e1da780f1b83d00cae4323eb61336fb316194cefe8f15e5ae5b08350924e")
        #expect(hexText(keys.ndPMK) == "28333edc43d48ca5e26ceeb76d2032d4611651faf3699b5389dd1847274d93e1")
    }
}

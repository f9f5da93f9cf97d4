@testable import NANEngine
import NANCrypto
import NANWire
import Testing

/// NCS-PK-PASN-256 pairing between the two value machines, every frame through the wire codec: PASN and
/// SAE on group 20 (P-384) with the GCMP-256 pairwise cipher, the NAN keys over the KDK with SHA-384, the
/// 24-byte MIC where PASN has no base AKM, and both sides failing with a cipher suite mismatch when they
/// do not pair with the same suite (status 42, as hostap's PASN responder answers a cipher it refuses).
/// Key known answers: `tools/sae384-vectors.py` (an independent computation, see SAE384Tests).
@Suite struct PASNPairing256Tests {
    static let initiatorNMI = MACAddress(0x02, 0, 0, 0, 0, 0x0a)
    static let responderNMI = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
    static let publishID = InstanceID(3)
    static let pin = Array("123456".utf8)

    static func air(_ frame: PASNAuthenticationFrame) throws -> PASNAuthenticationFrame {
        try PASNAuthenticationFrame(decoding: frame.encoded()[...])
    }

    static func failure(_ body: () throws -> Void) -> PairingError.Code? {
        do { try body(); return nil } catch let error as PairingError { return error.code } catch { return nil }
    }

    static func run(
        _ method: PairingMethod, suite: NDPCipherSuite, policy: PASNPairingResponder.Policy,
        identity: NANIdentityKey? = nil, cached: CachedPairing? = nil
    )
        throws -> (PairingResult, PairingResult, frame2: PASNAuthenticationFrame, frame3: PASNAuthenticationFrame)
    {
        var initiator = try PASNPairingInitiator(
            own: initiatorNMI, peer: responderNMI, publishID: publishID, method: method,
            suite: suite, identity: identity)
        var responder = PASNPairingResponder(
            own: responderNMI, peer: initiatorNMI, publishID: publishID, policy: policy)
        let frame2 = try air(responder.receive(frame1: air(initiator.start())) { _, _ in cached })
        let (frame3, i) = try initiator.receive(frame2)
        let r = try responder.receive(frame3: air(frame3))
        #expect(responder.suite == i.keys.suite && r.keys.suite == i.keys.suite)
        return (i, r, frame2, try air(frame3))
    }

    @Test func pinPairingOn256GivesBothSidesTheSameKeysOfTheRightLengths() throws {
        let (i, r, frame2, frame3) = try Self.run(
            .password(Self.pin), suite: .pk256, policy: .init(password: Self.pin, suites: [.pk256]))
        #expect(i.keys.suite == .pk256 && r.keys.suite == .pk256)
        #expect(i.keys.npk == r.keys.npk && i.keys.kek == r.keys.kek && i.keys.ndPMK == r.keys.ndPMK)
        #expect(i.keys.npk.count == 32 && i.keys.kek.count == 32 && i.keys.ndPMK.count == 32)
        // SAE (base AKM SAE): PASN's hash stays SHA-256, so a 16-byte MIC; the SAE confirm is 48 bytes.
        #expect(frame2.mic?.count == 16 && frame3.mic?.count == 16)
        let confirm = try #require(frame3.wrappedData)
        #expect(confirm.count == 6 + 2 + 48)
        #expect(try frame2.parameters()?.group == 20 && frame2.parameters()?.publicKey.count == 49)
    }

    @Test func opportunisticPairingOn256UsesSHA384AndA24ByteMIC() throws {
        let (i, r, frame2, frame3) = try Self.run(
            .opportunistic, suite: .pk256, policy: .init(allowsOpportunistic: true, suites: [.pk128, .pk256]))
        #expect(i.keys.npk == r.keys.npk && i.keys.ndPMK == r.keys.ndPMK && i.keys.akm == .pasn)
        #expect(frame2.mic?.count == 24 && frame3.mic?.count == 24)
    }

    @Test func frame1On256NamesGCMP256Group20AndTheSuite() throws {
        var initiator = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID,
            method: .password(Self.pin), suite: .pk256)
        let frame = try initiator.start()
        let bytes = try frame.encoded()
        // RSNE: version 1, no group addressed, GCMP-256 (00-0F-AC:9), AKM SAE (8), MFPC|MFPR, no PMKID.
        #expect(
            hexText(bytes[6..<34]) == "301a" + "0100" + "000fac07" + "0100000fac09" + "0100000fac08" + "c000" + "0000"
                + "000fac07")
        let parameters = try #require(try frame.parameters())
        #expect(parameters.group == 20 && parameters.publicKey.count == 49)
        let wrapped = try #require(frame.wrappedData)
        #expect(hexText(wrapped.prefix(8)) == "030001007e00" + "1400" && wrapped.count == 6 + 146)
        // CSIA: NCS-PK-PASN-256 (8) for publish ID 3.
        #expect(hexText(PASNPairingElements.nanAttributes(in: frame).prefix(6)) == "220300" + "0008" + "03")
    }

    @Test func aResponderThatPairsOnlyWith128RefusesA256InitiatorAndBothSaySo() throws {
        var initiator = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID,
            method: .password(Self.pin), suite: .pk256)
        var responder = PASNPairingResponder(
            own: Self.responderNMI, peer: Self.initiatorNMI, publishID: Self.publishID,
            policy: .init(password: Self.pin))
        let frame1 = try Self.air(initiator.start())
        #expect(Self.failure { _ = try responder.receive(frame1: frame1) } == .cipherSuiteMismatch)
        #expect(responder.failureFrame.status == PASNPairing.statusInvalidPairwiseCipher)
        #expect(Self.failure { _ = try initiator.receive(Self.air(responder.failureFrame)) } == .cipherSuiteMismatch)
    }

    @Test func verificationRunsOnTheCachedPairingsSuite() throws {
        let (setup, _, _, _) = try Self.run(
            .password(Self.pin), suite: .pk256, policy: .init(password: Self.pin, suites: [.pk256]))
        let cached = try #require(CachedPairing(npk: setup.keys.npk, akm: setup.keys.akm, suite: setup.keys.suite))
        let nik = try NANIdentityKey.random()
        // The suite argument is ignored for a verification: the cached pairing's (256) is used.
        let (i, r, frame2, _) = try Self.run(
            .verification(cached), suite: .pk128, policy: .init(identity: nik), identity: nik, cached: cached)
        #expect(i.kind == .verification && i.keys.suite == .pk256 && r.keys.suite == .pk256)
        #expect(i.keys.ndPMK == r.keys.ndPMK && i.keys.npk == setup.keys.npk)
        #expect(try frame2.parameters()?.group == 20)
    }

    @Test func verificationOfA128PairingAgainstA256CacheIsAMismatch() throws {
        let nik = try NANIdentityKey.random()
        let mine = try #require(CachedPairing(npk: [UInt8](repeating: 1, count: 32), akm: .sae, suite: .pk128))
        let theirs = try #require(CachedPairing(npk: [UInt8](repeating: 1, count: 32), akm: .sae, suite: .pk256))
        var initiator = try PASNPairingInitiator(
            own: Self.initiatorNMI, peer: Self.responderNMI, publishID: Self.publishID,
            method: .verification(mine), identity: nik)
        var responder = PASNPairingResponder(
            own: Self.responderNMI, peer: Self.initiatorNMI, publishID: Self.publishID, policy: .init(identity: nik))
        #expect(
            Self.failure { _ = try responder.receive(frame1: Self.air(initiator.start())) { _, _ in theirs } }
                == .cipherSuiteMismatch)
    }

    @Test func pairingKeysOn256MatchTheIndependentComputation() throws {
        let kdk = hexBytes("443ff737eb94e98083ae6d94633b06d0d96d35a4c76337727d628133125b0918")
        let keys = try PairingKeys(
            kdk: kdk, akm: .pasn, suite: .pk256, npk: nil, initiator: Self.initiatorNMI, responder: Self.responderNMI)
        #expect(hexText(keys.kek) == "c26927c6dc1ee5e10002dd9b2bac7a2b4e8867fc54435990d1b6836dad40c5c3")
        #expect(hexText(keys.ndPMK) == "0f2f89b1a029b200af89dbd07bb55e6b2730ee53edecb76c2436de58ffab80e5")
        #expect(hexText(keys.npk) == "4e981af6a58f02a25fb26254da9b6f9ca5fa4e857308d57f41bd483775bb24f7")
    }

    @Test func nikKeyDataWrapsUnderThe32ByteKEK() throws {
        let nik = try NANIdentityKey.random()
        let kek = [UInt8](repeating: 9, count: 32)
        let wrapped = try NIKKeyData.wrap(nik, lifetime: 60, kek: kek)
        #expect(try NIKKeyData.unwrap(wrapped, kek: kek).nik == nik)
        #expect(Self.failure { _ = try NIKKeyData.unwrap(wrapped, kek: [UInt8](repeating: 8, count: 32)) } == .crypto)
    }

    @Test func pairedDataPathKeysKeepTheSuiteAndRefuseAnother() throws {
        let keys = PairedDataPathKeys()
        let peer = Self.responderNMI
        keys.store([UInt8](repeating: 5, count: 32), suite: .pk256, for: peer)
        #expect(keys.suite(for: peer) == .pk256)
        let credential = NDPCredential.paired(keys)
        let service = try ServiceID(serviceName: "_pdp._tcp")
        #expect(
            try credential.pairwiseMasterKey(suite: .pk256, serviceID: service, publisherNMI: peer, peerNMI: peer).bytes
                == [UInt8](repeating: 5, count: 32))
        #expect(throws: NDPSecurityError.self) {
            try credential.pairwiseMasterKey(suite: .pk128, serviceID: service, publisherNMI: peer, peerNMI: peer)
        }
        #expect(
            NDPCipherSuite(NANCipherSuite.pkPASN256) == .pk256 && NDPCipherSuite.pk256.keyCipherSelector == 0x000F_AC09)
        #expect(
            NDPCipherSuite.pk256.tkLength == 32 && NDPCipherSuite.pk256.micLength == 24
                && NDPCipherSuite.pk256.kekLength == 32)
    }
}

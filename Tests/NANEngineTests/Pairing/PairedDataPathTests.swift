@testable import NANEngine
import NANWire
import Testing

/// NCS-PK-PASN-128 data paths: every PASN pairing or verification leaves both sides the same ND-PMK
/// (KDF-SHA-256(KDK, "NDP PMK Derivation", initiator NMI ‖ responder NMI)), and the NDP 4-way handshake
/// keyed by it completes with cipher suite 7 in its Cipher Suite Info; a device whose pairing key differs
/// gets no ND-PMK and its data path is refused.
@Suite struct PairedDataPathTests {
    typealias Air = PairingEngineTests.LoopbackAir
    typealias Run = WPASupplicantRun

    static func engine(
        _ address: MACAddress, on air: Air, identity: NANIdentityKey, devices: [PairedDeviceKeys] = [],
        keys: PairedDataPathKeys
    ) async -> PairingEngine {
        let engine = PairingEngine(
            localAddress: address, cluster: PairingEngineTests.cluster, identity: identity,
            link: PairingEngineTests.Link(air: air, source: address), devices: devices,
            limits: .init(attemptLifetime: .seconds(120), nikDelay: .zero, verificationDelay: .zero), dataPathKeys: keys
        )
        await air.attach(engine)
        return engine
    }

    /// The ND-PMK and its PMKID from fixed inputs, against the formulas computed independently (Python's
    /// `hmac` over the IEEE 802.11 KDF block layout: HMAC-SHA-256(KDK, 01 00 ‖ label ‖ context ‖ 00 01)), as
    /// no published NCS-PK-PASN vector exists (Wi-Fi Aware 4.0 Appendix M has NCS-SK vectors only).
    @Test func theNDPMKAndItsPMKIDFollowTheFormulas() throws {
        let initiator = MACAddress(0x02, 0, 0, 0, 0, 0x0a), responder = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
        let keys = try PairingKeys(
            kdk: Array(0..<32), akm: .sae, npk: Array(repeating: 7, count: 32), initiator: initiator,
            responder: responder)
        #expect(hexText(keys.ndPMK) == "b215e490b72a3d4e444ea9959e7f83d1c06a5d818de5acd0b224d572e7d1f814")
        let pmkid = try NDPKeyDerivation.pmkid(
            NDPPairwiseMasterKey(bytes: keys.ndPMK), suite: .pk128, initiatorNMI: initiator,
            responderNMI: responder, serviceID: ServiceID(hex: "482006a8fc4e")!)
        #expect(hexText(pmkid) == "97a36f5b6f16ce40cf3bd9d6e92e1ad0")
        #expect(NDPCipherSuite.pk128.wireValue == .pkPASN128 && NDPCipherSuite(.pkPASN128) == .pk128)
        #expect(NDPCipherSuite.pk128.tkLength == 16 && NDPCipherSuite.pk128.keyCipherSelector == 0x000F_AC04)
        #expect("\(NDPCipherSuite.pk128)" == "NCS-PK-PASN-128")
    }

    @Test func aVerifiedPairingKeysAnNCSPKPASNHandshakeOnBothSides() async throws {
        let air = Air()
        let keysS = PairedDataPathKeys(), keysP = PairedDataPathKeys()
        let nikS = try NANIdentityKey.random(), nikP = try NANIdentityKey.random()
        let subscriber = await Self.engine(Run.subscriberNMI, on: air, identity: nikS, keys: keysS)
        let publisher = await Self.engine(Run.publisherNMI, on: air, identity: nikP, keys: keysP)
        await publisher.setPolicy(password: PairingEngineTests.pin, allowsOpportunistic: false)
        let paired = try await subscriber.pair(
            with: Run.publisherNMI, publishID: InstanceID(1), method: .password(PairingEngineTests.pin))
        let afterSetup = try #require(keysS.key(for: Run.publisherNMI))
        #expect(await PairingEngineTests.eventually { keysP.key(for: Run.subscriberNMI) == afterSetup })

        // Verification with the cached NPK derives a fresh ND-PMK, the same on both sides.
        _ = try await subscriber.verify(paired.id, at: Run.publisherNMI, publishID: InstanceID(1))
        let verified = try #require(keysS.key(for: Run.publisherNMI))
        #expect(verified != afterSetup)
        #expect(keysP.key(for: Run.subscriberNMI) == verified)

        var initiator = try NDPKeyExchange(
            initiator: .pk128, credential: .paired(keysS), serviceID: Run.serviceID, publishID: InstanceID(1),
            localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI)
        var m1 = try NDPKeyExchangeRoundTripTests.body(try Run.request, try initiator.requestAttributes())
        try initiator.seal(&m1)
        #expect(
            try DataPathMessage(NANActionFrame(actionBody: m1)).cipherSuiteInfo?.entries.map(\.suite) == [.pkPASN128])
        var responder = try NDPKeyExchange(
            respondingTo: m1, credential: .paired(keysP), acceptedSuites: [.pk128], serviceID: Run.serviceID,
            localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI)
        var m2 = try NDPKeyExchangeRoundTripTests.body(try Run.response, try responder.responseAttributes())
        try responder.seal(&m2)
        try initiator.receive(m2)
        var m3 = try NDPKeyExchangeRoundTripTests.body(try Run.confirm, try initiator.confirmAttributes())
        try initiator.seal(&m3)
        try responder.receive(m3)
        var m4 = try NDPKeyExchangeRoundTripTests.body(try Run.keyInstall, try responder.keyInstallAttributes())
        try responder.seal(&m4)
        try initiator.receive(m4)
        let key = try #require(initiator.installableKey)
        #expect(
            key.temporalKey == responder.installableKey?.temporalKey && key.suite == .pk128
                && key.temporalKey.count == 16)
    }

    @Test func aDeviceWithAnotherPairingKeyFailsVerificationAndItsDataPathIsRefused() async throws {
        let air = Air()
        let keysS = PairedDataPathKeys(), keysP = PairedDataPathKeys()
        let nikS = try NANIdentityKey.random(), nikP = try NANIdentityKey.random()
        // Each side holds the other's NIK, but their NPKs differ.
        let onS = PairedDeviceKeys(
            id: Run.publisherNMI, lastAddress: Run.publisherNMI, nik: nikP,
            pairing: try #require(CachedPairing(npk: Array(repeating: 1, count: 32), akm: .sae)))
        let onP = PairedDeviceKeys(
            id: Run.subscriberNMI, lastAddress: Run.subscriberNMI, nik: nikS,
            pairing: try #require(CachedPairing(npk: Array(repeating: 2, count: 32), akm: .sae)))
        let subscriber = await Self.engine(Run.subscriberNMI, on: air, identity: nikS, devices: [onS], keys: keysS)
        let publisher = await Self.engine(Run.publisherNMI, on: air, identity: nikP, devices: [onP], keys: keysP)
        var events = publisher.events.makeAsyncIterator()
        await #expect(throws: PairingError.self) {
            _ = try await subscriber.verify(Run.publisherNMI, at: Run.publisherNMI, publishID: InstanceID(1))
        }
        guard case .failed(let peer, _)? = await events.next() else {
            Issue.record("the publisher reported no failure"); return
        }
        #expect(peer == Run.subscriberNMI)
        #expect(keysS.count == 0 && keysP.count == 0)

        // Without a verified pairing neither side can key the data path.
        #expect(throws: NDPSecurityError.self) {
            _ = try NDPKeyExchange(
                initiator: .pk128, credential: .paired(keysS), serviceID: Run.serviceID, publishID: InstanceID(1),
                localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI)
        }
        keysS.store(Array(repeating: 9, count: 32), for: Run.publisherNMI)  // a key the publisher does not hold
        var initiator = try NDPKeyExchange(
            initiator: .pk128, credential: .paired(keysS), serviceID: Run.serviceID, publishID: InstanceID(1),
            localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI)
        var m1 = try NDPKeyExchangeRoundTripTests.body(try Run.request, try initiator.requestAttributes())
        try initiator.seal(&m1)
        #expect {
            _ = try NDPKeyExchange(
                respondingTo: m1, credential: .paired(keysP), acceptedSuites: [.pk128], serviceID: Run.serviceID,
                localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI)
        } throws: { ($0 as? NDPSecurityError)?.code == .pmkidMismatch }
        // A passphrase cannot stand in for the pairing, nor the pairing for a passphrase.
        #expect(throws: NDPSecurityError.self) {
            _ = try NDPKeyExchange(
                initiator: .pk128, credential: .passphrase("NAN"), serviceID: Run.serviceID, publishID: InstanceID(1),
                localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI)
        }
        #expect(throws: NDPSecurityError.self) {
            _ = try NDPKeyExchange(
                initiator: .sk128, credential: .paired(keysS), serviceID: Run.serviceID, publishID: InstanceID(1),
                localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI)
        }
    }

    /// An attacker replays a paired device's verification frame 1 (its NIRA with it): the responder answers,
    /// no valid frame 3 comes, the attempt fails. The ND-PMK the real verification left stays.
    @Test func aReplayedVerificationThatFailsLeavesTheFreshNDPMK() async throws {
        let air = Air()
        let keysS = PairedDataPathKeys(), keysP = PairedDataPathKeys()
        let nikS = try NANIdentityKey.random(), nikP = try NANIdentityKey.random()
        // A lifetime long enough for SAE in a debug build on a loaded machine (6 s was not, with the whole suite
        // on two cores); the replay below waits out its wait for frame 3 instead.
        let limits = PairingEngine.Limits(
            attemptLifetime: .seconds(30), nikDelay: .zero, verificationDelay: .zero, frame3Wait: .seconds(4))
        let subscriber = PairingEngine(
            localAddress: Run.subscriberNMI, cluster: PairingEngineTests.cluster, identity: nikS,
            link: PairingEngineTests.Link(air: air, source: Run.subscriberNMI), limits: limits, dataPathKeys: keysS)
        let publisher = PairingEngine(
            localAddress: Run.publisherNMI, cluster: PairingEngineTests.cluster, identity: nikP,
            link: PairingEngineTests.Link(air: air, source: Run.publisherNMI), limits: limits, dataPathKeys: keysP)
        await air.attach(subscriber)
        await air.attach(publisher)
        await publisher.setPolicy(password: PairingEngineTests.pin, allowsOpportunistic: false)
        let paired = try await subscriber.pair(
            with: Run.publisherNMI, publishID: InstanceID(1), method: .password(PairingEngineTests.pin))
        let before = await air.sent.count
        _ = try await subscriber.verify(paired.id, at: Run.publisherNMI, publishID: InstanceID(1))
        let fresh = try #require(keysP.key(for: Run.subscriberNMI))
        let frame1 = try #require(
            await air.sent[before...].first { (try? PASNManagementFrame(bytes: $0))?.body.sequence == 1 })

        await publisher.handle(authentication: frame1)  // the replay: answered, never completed
        await publisher.answersSent()  // its frame 2 is out: the wait for frame 3 runs
        #expect(await publisher.attemptCount == 1)
        try await Task.sleep(for: .seconds(5))
        await publisher.handle(authentication: [])  // a frame that cannot parse: expires what is due
        #expect(await publisher.attemptCount == 0)
        #expect(keysP.key(for: Run.subscriberNMI) == fresh)
        #expect(keysS.key(for: Run.publisherNMI) == fresh)
    }

    @Test func theKeyTableIsBoundedByCountAndAge() async throws {
        let keys = PairedDataPathKeys(capacity: 2, lifetime: .milliseconds(200))
        for last in UInt8(1)...3 { keys.store(Array(repeating: last, count: 32), for: MACAddress(2, 0, 0, 0, 0, last)) }
        #expect(keys.count == 2 && keys.key(for: MACAddress(2, 0, 0, 0, 0, 1)) == nil)
        keys.store([1, 2, 3], for: MACAddress(2, 0, 0, 0, 0, 9))  // not 32 bytes: ignored
        #expect(keys.count == 2)
        try await Task.sleep(for: .milliseconds(300))
        #expect(keys.key(for: MACAddress(2, 0, 0, 0, 0, 3)) == nil)
        #expect("\(keys)".contains("peers") && !"\(keys)".contains("0303"))
    }
}

@testable import NANEngine
import NANWire
import Testing

/// Two (or three) pairing engines over a loopback air: every Authentication frame and follow-up goes
/// through its wire codec to the addressed engine at once. Pairing with a PIN (SAE), opportunistically
/// (PASN), a wrong PIN on both sides, verification with the cached NPK after the peer's NMI changed, and
/// the attempts table's bounds.
@Suite struct PairingEngineTests {
    actor LoopbackAir {
        var engines: [MACAddress: PairingEngine] = [:]
        /// Authentication frames held back (both sides' frames 1 cross in the air), nil when delivering.
        var held: [[UInt8]]?
        func attach(_ engine: PairingEngine) { engines[engine.localAddress] = engine }
        func hold() { held = [] }
        var heldCount: Int { held?.count ?? 0 }
        func release() async {
            let frames = held ?? []
            held = nil
            for frame in frames { await deliver(authentication: frame) }
        }
        /// Every Authentication frame sent, in order (for replays).
        var sent: [[UInt8]] = []
        func deliver(authentication frame: [UInt8]) async {
            sent.append(frame)
            if held != nil {
                held?.append(frame)
                return
            }
            guard let header = try? PASNManagementFrame(bytes: frame), let engine = engines[header.header.destination]
            else { return }
            await engine.handle(authentication: frame)
        }
        func deliver(_ attribute: PairingBootstrappingAttribute, from source: MACAddress, to peer: MACAddress) async {
            var writer = ByteWriter(capacity: 64)
            guard let engine = engines[peer],
                (try? NANAttribute.encodeList([.pairingBootstrapping(attribute)], into: &writer)) != nil,
                case .pairingBootstrapping(let decoded)? = try? NANAttribute.decodeList(ByteReader(writer.bytes)).first
            else { return }
            await engine.handle(bootstrapping: decoded, from: source)
        }
        func deliver(_ attribute: SharedKeyDescriptorAttribute, from source: MACAddress, to peer: MACAddress) async {
            guard let engine = engines[peer], let bytes = try? attribute.encoded(),
                let decoded = try? SharedKeyDescriptorAttribute(decoding: bytes)
            else { return }
            await engine.handle(keyDescriptor: decoded, from: source)
        }
    }

    struct Link: PairingLink {
        let air: LoopbackAir
        let source: MACAddress
        func send(authentication frame: [UInt8]) async throws { await air.deliver(authentication: frame) }
        func send(keyDescriptor: SharedKeyDescriptorAttribute, to peer: MACAddress) async throws {
            await air.deliver(keyDescriptor, from: source, to: peer)
        }
        func send(bootstrapping: PairingBootstrappingAttribute, to peer: MACAddress) async throws {
            await air.deliver(bootstrapping, from: source, to: peer)
        }
    }

    /// Delivers every Authentication frame twice, as a sender whose acknowledgement came too late does.
    struct RepeatingLink: PairingLink {
        let air: LoopbackAir
        let source: MACAddress
        func send(authentication frame: [UInt8]) async throws {
            await air.deliver(authentication: frame)
            await air.deliver(authentication: frame)
        }
        func send(keyDescriptor: SharedKeyDescriptorAttribute, to peer: MACAddress) async throws {
            await air.deliver(keyDescriptor, from: source, to: peer)
        }
        func send(bootstrapping: PairingBootstrappingAttribute, to peer: MACAddress) async throws {
            await air.deliver(bootstrapping, from: source, to: peer)
        }
    }

    /// A link that announces `schedule` in its frame 1 and keeps what the peers' frames 1 announced.
    struct AnnouncingLink: PairingLink {
        actor Heard {
            var schedules: [MACAddress: NANAvailabilityAttribute] = [:]
            func note(_ peer: MACAddress, _ schedule: NANAvailabilityAttribute) { schedules[peer] = schedule }
        }
        let air: LoopbackAir
        let source: MACAddress
        let schedule: NANAvailabilityAttribute
        let heard = Heard()
        func send(authentication frame: [UInt8]) async throws { await air.deliver(authentication: frame) }
        func send(keyDescriptor: SharedKeyDescriptorAttribute, to peer: MACAddress) async throws {
            await air.deliver(keyDescriptor, from: source, to: peer)
        }
        func send(bootstrapping: PairingBootstrappingAttribute, to peer: MACAddress) async throws {
            await air.deliver(bootstrapping, from: source, to: peer)
        }
        func availability() async -> NANAvailabilityAttribute? { schedule }
        func peerAnnounced(_ peer: MACAddress, availability: NANAvailabilityAttribute, committedDW: UInt16?) async {
            await heard.note(peer, availability)
        }
    }

    static let a = MACAddress(0x02, 0, 0, 0, 0, 0x0a), b = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
    static let cluster = MACAddress(0x50, 0x6f, 0x9a, 0x01, 0x00, 0x01)
    static let pin = Array("123456".utf8)

    /// Whether `condition` holds within about 5 s: the loopback air delivers each frame on its own task, so
    /// the initiator may be done while the responder still handles frame 3.
    static func eventually(_ condition: () async -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    static func engine(
        _ address: MACAddress, on air: LoopbackAir, identity: NANIdentityKey? = nil, devices: [PairedDeviceKeys] = [],
        limits: PairingEngine.Limits = .init(attemptLifetime: .seconds(120), nikDelay: .zero, verificationDelay: .zero)
    ) async throws -> PairingEngine {
        // A long attempt lifetime: a loaded machine (the whole suite on two cores) must not time out an
        // exchange that only waits for CPU; the bounds test sets its own short lifetime.
        let engine = PairingEngine(
            localAddress: address, cluster: cluster, identity: try identity ?? .random(),
            link: Link(air: air, source: address), devices: devices, limits: limits)
        await air.attach(engine)
        return engine
    }

    static func failure(_ body: () async throws -> Void) async -> PairingError.Code? {
        do { try await body(); return nil } catch let error as PairingError { return error.code } catch { return nil }
    }

    @Test func pinPairingLeavesEachSideThePeersNIKAndTheSameNPK() async throws {
        let air = LoopbackAir()
        let nikA = try NANIdentityKey.random(), nikB = try NANIdentityKey.random()
        let engineA = try await Self.engine(Self.a, on: air, identity: nikA)
        let engineB = try await Self.engine(Self.b, on: air, identity: nikB)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        let device = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        #expect(device.nik == nikB && device.pairing.akm == .sae)
        // B records the pairing once its NIK, sent again on A's, is out: maybe after A returns.
        #expect(await Self.eventually { await !engineB.pairedDevices.isEmpty })
        let onB = try #require(await engineB.pairedDevices.first)
        #expect(onB.nik == nikA && onB.pairing.npk == device.pairing.npk)
        let counts = (await engineA.attemptCount, await engineB.attemptCount)
        #expect(counts == (0, 0))
    }

    @Test func retransmittedPASNFramesAreIgnoredAndThePairingCompletes() async throws {
        // Over the air a frame is sent again when its TX status is late, so the peer may get frame 1, 2 or
        // 3 twice: the repeat must neither restart nor fail the attempt (in the VM under load, a second
        // frame 3 failed the responder with "PASN frame 3 while done").
        let air = LoopbackAir()
        let nikA = try NANIdentityKey.random(), nikB = try NANIdentityKey.random()
        let limits = PairingEngine.Limits(attemptLifetime: .seconds(120), nikDelay: .zero, verificationDelay: .zero)
        let engineA = PairingEngine(
            localAddress: Self.a, cluster: Self.cluster, identity: nikA,
            link: RepeatingLink(air: air, source: Self.a), limits: limits)
        let engineB = PairingEngine(
            localAddress: Self.b, cluster: Self.cluster, identity: nikB,
            link: RepeatingLink(air: air, source: Self.b), limits: limits)
        await air.attach(engineA)
        await air.attach(engineB)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        let device = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        #expect(device.nik == nikB)
        var outcome: String?
        for await event in engineB.events {
            switch event {
            case .paired(let peer): outcome = "paired \(peer.nik == nikA)"
            case .failed(_, let error): outcome = "failed \(error)"
            default: continue
            }
            break
        }
        #expect(outcome == "paired true")
    }

    @Test func opportunisticPairingNeedsTheResponderToAllowIt() async throws {
        let air = LoopbackAir()
        let engineA = try await Self.engine(Self.a, on: air), engineB = try await Self.engine(Self.b, on: air)
        #expect(
            await Self.failure {
                _ = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .opportunistic)
            } == .rejected)
        await engineB.setPolicy(password: nil, allowsOpportunistic: true)
        let device = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .opportunistic)
        #expect(device.pairing.akm == .pasn)
        // B records the pairing as it handles A's NIK, which may still be running when A returns.
        for _ in 0..<200 where await engineB.pairedDevices.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(
            await PairingEngineTests.eventually { await engineB.pairedDevices.first?.pairing.npk == device.pairing.npk }
        )
    }

    @Test func wrongPINFailsOnBothSidesAndStoresNothing() async throws {
        let air = LoopbackAir()
        let engineA = try await Self.engine(Self.a, on: air), engineB = try await Self.engine(Self.b, on: air)
        await engineB.setPolicy(password: Array("000000".utf8), allowsOpportunistic: false)
        var events = engineB.events.makeAsyncIterator()
        #expect(
            await Self.failure {
                _ = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
            } == .wrongPassword)
        guard case .failed(let peer, let error)? = await events.next() else {
            Issue.record("no failure on the responder"); return
        }
        #expect(peer == Self.a && error.code == .wrongPassword)
        let stored = (await engineA.pairedDevices.count, await engineB.pairedDevices.count)
        #expect(stored == (0, 0))
    }

    @Test func verificationAfterAnNMIChangeResolvesAndProvesThePeer() async throws {
        let air = LoopbackAir()
        let nikB = try NANIdentityKey.random()
        let engineA = try await Self.engine(Self.a, on: air)
        let engineB = try await Self.engine(Self.b, on: air, identity: nikB)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        let paired = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        #expect(await Self.eventually { await !engineB.pairedDevices.isEmpty })

        // B restarts NAN with a new random NMI, keeping its NIK and its pairings.
        let newB = MACAddress(0x06, 0x11, 0x22, 0x33, 0x44, 0x55)
        let restartedB = try await Self.engine(newB, on: air, identity: nikB, devices: engineB.pairedDevices)
        let nira = try await restartedB.identityResolution()
        let resolved = try #require(await engineA.resolve(nira, from: newB))
        #expect(resolved.id == Self.b && resolved.lastAddress == newB)
        #expect(await engineA.resolve(nira, from: Self.b) == nil)  // replayed from another address

        var events = restartedB.events.makeAsyncIterator()
        let verified = try await engineA.verify(resolved.id, at: newB, publishID: InstanceID(1))
        #expect(verified.pairing.npk == paired.pairing.npk && verified.lastAddress == newB)
        guard case .verified(let onB)? = await events.next() else { Issue.record("B did not verify A"); return }
        #expect(onB.id == Self.a)

        // An unpaired device C is never resolved as B.
        let engineC = try await Self.engine(MACAddress(0x02, 0, 0, 0, 0, 0x0c), on: air)
        #expect(await engineA.resolve(try engineC.identityResolution(), from: engineC.localAddress) == nil)
    }

    @Test func aVerifyingInitiatorsFrame1AnnouncesItsScheduleToTheResponder() async throws {
        // A passive subscriber verifying a pairing has sent the responder no SDF: its frame 1 tells when it
        // listens, so that frame 2 need not wait for a DW. A setup's frame 1 (anyone may send one) is not taken.
        let air = LoopbackAir()
        let schedule = try NANAvailabilityAttribute(
            decoding: [0x12, 0x0a, 0x00, 0x05, 0xa2, 0x00, 0x05, 0x00, 0x65, 0x03, 0x20, 0x02, 0x04])
        let linkA = AnnouncingLink(air: air, source: Self.a, schedule: schedule)
        let linkB = AnnouncingLink(air: air, source: Self.b, schedule: schedule)
        let nikA = try NANIdentityKey.random(), nikB = try NANIdentityKey.random()
        let cached = try #require(CachedPairing(npk: [UInt8](repeating: 9, count: 32), akm: .sae))
        let limits = PairingEngine.Limits(attemptLifetime: .seconds(120), nikDelay: .zero, verificationDelay: .zero)
        let engineA = PairingEngine(
            localAddress: Self.a, cluster: Self.cluster, identity: nikA, link: linkA,
            devices: [PairedDeviceKeys(id: Self.b, lastAddress: Self.b, nik: nikB, pairing: cached)], limits: limits)
        let engineB = PairingEngine(
            localAddress: Self.b, cluster: Self.cluster, identity: nikB, link: linkB,
            devices: [PairedDeviceKeys(id: Self.a, lastAddress: Self.a, nik: nikA, pairing: cached)], limits: limits)
        await air.attach(engineA)
        await air.attach(engineB)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        _ = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        #expect(await linkB.heard.schedules.isEmpty)  // a setup's frame 1
        _ = try await engineA.verify(Self.b, at: Self.b, publishID: InstanceID(1))
        #expect(await linkB.heard.schedules[Self.a] == schedule)
        #expect(await linkA.heard.schedules.isEmpty)  // frame 2 carries none
    }

    @Test func pairingsStoredWhileTheEngineRunsAreTakenAndRemovedOnesForgotten() async throws {
        // A running system's engine started before B paired (in another process): the store changes and the
        // engine takes the new pairing, so B is resolved and verified; unpaired, it is forgotten.
        let air = LoopbackAir()
        let nikA = try NANIdentityKey.random(), nikB = try NANIdentityKey.random()
        let pairingA = try await Self.engine(Self.a, on: air, identity: nikA)
        let engineB = try await Self.engine(Self.b, on: air, identity: nikB)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        let paired = try await pairingA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))

        let runningA = try await Self.engine(Self.a, on: air, identity: nikA)  // started with no pairings
        let nira = try await engineB.identityResolution()
        #expect(await runningA.resolve(nira, from: Self.b) == nil)
        await runningA.replaceDevices([paired])
        let resolved = try #require(await runningA.resolve(nira, from: Self.b))
        let verified = try await runningA.verify(resolved.id, at: Self.b, publishID: InstanceID(1))
        #expect(verified.pairing.npk == paired.pairing.npk)
        // The store read again: the record keeps where the device was last seen.
        let moved = MACAddress(0x06, 0x11, 0x22, 0x33, 0x44, 0x66)
        _ = await runningA.resolve(try nikB.identityResolution(nmi: moved), from: moved)
        await runningA.replaceDevices([paired])
        #expect(await runningA.pairedDevices.first?.lastAddress == moved)
        await runningA.replaceDevices([])
        #expect(await runningA.resolve(nira, from: Self.b) == nil)
        #expect(
            await Self.failure { _ = try await runningA.verify(paired.id, at: Self.b, publishID: InstanceID(1)) }
                == .unknownPeer)
    }

    @Test func simultaneousVerificationsEndInOneExchangeBothSidesVerified() async throws {
        // Each side's subscriber verifies the other's publisher at the same moment: both frames 1 cross.
        // Without a rule each ignored the other's frame 1 and both timed out; now the exchange started by
        // the larger NMI (B) goes on, A answers it, and both callers see their device verified.
        let air = LoopbackAir()
        let engineA = try await Self.engine(Self.a, on: air), engineB = try await Self.engine(Self.b, on: air)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        let paired = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        await air.hold()
        let onA = Task { try await engineA.verify(Self.b, at: Self.b, publishID: InstanceID(1)) }
        let onB = Task { try await engineB.verify(Self.a, at: Self.a, publishID: InstanceID(2)) }
        while await air.heldCount < 2 { await Task.yield() }
        await air.release()
        let (a, b) = (try await onA.value, try await onB.value)
        #expect(a.id == Self.b && b.id == Self.a)
        #expect(a.pairing.npk == paired.pairing.npk && b.pairing.npk == paired.pairing.npk)
        let counts = (await engineA.attemptCount, await engineB.attemptCount)
        #expect(counts == (0, 0))
    }

    /// A frame 1 costs an attacker nothing: answered, it holds a place in the attempts table only until
    /// frame 3 is overdue, not for the caller's whole timeout. A real exchange sends its frame 3 at once.
    @Test func aFrame1WithoutItsFrame3HoldsItsPlaceOnlyBriefly() async throws {
        let air = LoopbackAir()
        let limits = PairingEngine.Limits(
            attemptLifetime: .seconds(120), nikDelay: .zero, verificationDelay: .zero, frame3Wait: .seconds(1))
        let engineA = try await Self.engine(Self.a, on: air, limits: limits)
        let engineB = try await Self.engine(Self.b, on: air, limits: limits)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        _ = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        let frame1 = try #require(await air.sent.first { (try? PASNManagementFrame(bytes: $0))?.body.sequence == 1 })
        await engineB.handle(authentication: frame1)  // replayed: answered, its frame 3 never comes
        #expect(await engineB.attemptCount == 1)
        try await Task.sleep(for: .milliseconds(1500))
        #expect(await engineB.attemptCount == 0)
    }

    @Test func attemptsAreBoundedByCountAndAge() async throws {
        let air = LoopbackAir()
        // Long enough that the second call comes before the first attempt expires even on a loaded machine.
        let engineA = try await Self.engine(
            Self.a, on: air, limits: .init(maximumAttempts: 1, attemptLifetime: .seconds(5)))
        let silent = MACAddress(0x02, 0, 0, 0, 0, 0x99)  // nobody answers
        async let first = Self.failure {
            _ = try await engineA.pair(with: silent, publishID: InstanceID(1), method: .opportunistic)
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(
            await Self.failure {
                _ = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .opportunistic)
            } == .tableFull)
        #expect(await first == .timedOut)
        #expect(await engineA.attemptCount == 0)
    }
}

import NANWire
import Testing
@testable import NANEngine

/// Bootstrapping wired to follow-ups: the publisher advertises its methods in an NPBA, requests and
/// responses travel in follow-ups over the fake air, and two pairing engines bootstrap (opportunistic at
/// once; PIN with a comeback until the user confirms), then pair; a mismatch, a rejection and a silent
/// peer end clearly.
@Suite struct PairingBootstrappingTests {
    typealias Air = PairingEngineTests.LoopbackAir
    static let a = PairingEngineTests.a, b = PairingEngineTests.b
    static let pin = Array("123456".utf8)

    @Test func aPublishAdvertisesItsMethodsAndAFollowUpCarriesARequest() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("pair"))
        publish.type = .unsolicited
        publish.bootstrappingMethods = [.opportunistic, .pinDisplay]
        let publisher = try await bench.engines[0].publish(publish)
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("pair")))
        await bench.ticks(2)
        let request = PairingBootstrappingAttribute(dialogToken: 5, type: .request, methods: .pinKeypad)
        _ = try await bench.engines[1].send(
            bootstrapping: request, from: subscriber.instanceID, to: address(1), peerInstanceID: publisher.instanceID)
        await bench.ticks(1)
        let message = try #require(await drain(publisher).compactMap(\.message).first)
        #expect(message.bootstrapping == request && message.keyDescriptor == nil)
        let found = try #require(await drain(subscriber).compactMap(\.discovered).first)
        #expect(found.bootstrappingMethods == [.opportunistic, .pinDisplay])
    }

    @Test func aPublishWithoutMethodsAdvertisesNone() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("pair"))
        publish.type = .unsolicited
        _ = try await bench.engines[0].publish(publish)
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("pair")))
        await bench.ticks(2)
        #expect(await drain(subscriber).compactMap(\.discovered).allSatisfy { $0.bootstrappingMethods == nil })
    }

    @Test func opportunisticBootstrappingIsAcceptedAtOnceThenPairs() async throws {
        let air = Air()
        let engineA = try await PairingEngineTests.engine(Self.a, on: air)
        let engineB = try await PairingEngineTests.engine(Self.b, on: air)
        await engineB.setBootstrapping(supported: .opportunistic, autoAccept: .opportunistic)
        await engineB.setPolicy(password: nil, allowsOpportunistic: true)
        let method = try await engineA.bootstrap(
            with: Self.b, localMethods: [.opportunistic, .pinKeypad], peerMethods: .opportunistic)
        #expect(method == .opportunistic)
        let device = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .opportunistic)
        #expect(device.pairing.akm == .pasn)
        var eventsB: [String] = []
        for await event in engineB.events {
            if case .bootstrapped(let peer, let ours) = event {
                eventsB.append("bootstrapped \(peer) \(ours.rawValue)")
            }
            if case .paired = event { eventsB.append("paired"); break }
        }
        #expect(eventsB == ["bootstrapped \(Self.a) \(BootstrappingMethods.opportunistic.rawValue)", "paired"])
    }

    @Test func pinBootstrappingComesBackUntilTheUserConfirmsThenPairsWithThePIN() async throws {
        let air = Air()
        let engineA = try await PairingEngineTests.engine(Self.a, on: air)
        let engineB = try await PairingEngineTests.engine(Self.b, on: air)
        await engineB.setBootstrapping(supported: .pinDisplay)
        await engineB.setPolicy(password: Self.pin, allowsOpportunistic: false)
        // B's user: when asked, shows the PIN (our side is display), then confirms.
        let user = Task {
            for await event in engineB.events {
                if case .bootstrappingRequested(let peer, let ours) = event {
                    #expect(peer == Self.a && ours == .pinDisplay)
                    try? await Task.sleep(for: .milliseconds(300))
                    await engineB.authorizeBootstrapping(peer)
                    return true
                }
            }
            return false
        }
        let method = try await engineA.bootstrap(
            with: Self.b, localMethods: .pinKeypad, peerMethods: [.pinDisplay, .passphraseDisplay])
        #expect(method == .pinKeypad)
        #expect(await user.value)
        let device = try await engineA.pair(with: Self.b, publishID: InstanceID(1), method: .password(Self.pin))
        #expect(device.pairing.akm == .sae)
    }

    @Test func noFittingMethodFailsBeforeSendingAnything() async throws {
        let air = Air()
        let engineA = try await PairingEngineTests.engine(Self.a, on: air)
        let engineB = try await PairingEngineTests.engine(Self.b, on: air)
        await engineB.setBootstrapping(supported: .opportunistic, autoAccept: .opportunistic)
        let code = await PairingEngineTests.failure {
            _ = try await engineA.bootstrap(with: Self.b, localMethods: .pinKeypad, peerMethods: .opportunistic)
        }
        #expect(code == .methodMismatch)
        #expect(await engineB.bootstrapResponder.pending.isEmpty)
    }

    @Test func aMethodThePeerDoesNotOfferIsRejectedOnBothSides() async throws {
        let air = Air()
        let engineA = try await PairingEngineTests.engine(Self.a, on: air)
        let engineB = try await PairingEngineTests.engine(Self.b, on: air)
        await engineB.setBootstrapping(supported: .opportunistic, autoAccept: .opportunistic)
        // A believes B shows a PIN (a stale advertisement): B refuses with reason 13.
        let code = await PairingEngineTests.failure {
            _ = try await engineA.bootstrap(with: Self.b, localMethods: .pinKeypad, peerMethods: .pinDisplay)
        }
        #expect(code == .rejected)
        for await event in engineB.events {
            guard case .failed(let peer, let error) = event else { continue }
            #expect(peer == Self.a && error.code == .methodMismatch)
            break
        }
    }

    @Test func aSilentPeerTimesOut() async throws {
        let air = Air()
        let engineA = PairingEngine(
            localAddress: Self.a, cluster: PairingEngineTests.cluster, identity: try .random(),
            link: PairingEngineTests.Link(air: air, source: Self.a),
            bootstrappingLimits: .init(responseTimeout: .milliseconds(200)))
        await air.attach(engineA)
        // No wall-clock bound: a loaded machine only delays the timeout; the attempt lifetime (10 s) is
        // the other end of the wait and would end it with the same code.
        let code = await PairingEngineTests.failure {
            _ = try await engineA.bootstrap(with: Self.b, localMethods: .opportunistic, peerMethods: .opportunistic)
        }
        #expect(code == .timedOut)
        #expect(await engineA.bootstrapRequests.isEmpty)
    }

    @Test func responsesCarryOurMethodWhenAcceptingAndNoneOtherwise() throws {
        // wpa_supplicant 2.12 (nan_bootstrap.c) accepts a response only when its method is the complement
        // of the one it requested, and sends no method with a comeback or a rejection.
        let t0 = ContinuousClock.now
        var opportunistic = BootstrappingResponder(supported: .opportunistic, autoAccept: .opportunistic)
        let accepted = try opportunistic.receive(
            PairingBootstrappingAttribute(dialogToken: 1, type: .request, methods: .opportunistic), from: Self.a, at: t0
        )
        #expect(accepted.status == .accepted && accepted.methods == .opportunistic)
        var display = BootstrappingResponder(supported: .pinDisplay)
        let request = PairingBootstrappingAttribute(dialogToken: 2, type: .request, methods: .pinKeypad)
        let comeback = try display.receive(request, from: Self.a, at: t0)
        #expect(comeback.status == .comeback && comeback.methods.isEmpty)
        display.authorize(Self.a)
        let cookie = try #require(comeback.comeback?.cookie)
        let later = try display.receive(
            PairingBootstrappingAttribute(
                dialogToken: 2, type: .request, status: .comeback,
                comeback: .init(after: nil, cookie: cookie), methods: .pinKeypad), from: Self.a, at: t0)
        #expect(later.status == .accepted && later.methods == .pinDisplay)
        let rejected = try display.receive(
            PairingBootstrappingAttribute(dialogToken: 3, type: .request, methods: .opportunistic), from: Self.b, at: t0
        )
        #expect(rejected.status == .rejected && rejected.methods.isEmpty)
    }
}

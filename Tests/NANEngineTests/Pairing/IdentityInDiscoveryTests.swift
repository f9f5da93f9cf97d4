import NANWire
import Testing
@testable import NANEngine

/// The NIRA in our publish and subscribe frames, and its resolution on receipt, over the fake air.
@Suite struct IdentityInDiscoveryTests {
    @Test func publishersNIRAResolvesToThePairedDeviceAcrossAnNMIChange() async throws {
        // Radio 1: B; radio 3: B again after a restart with a new NMI (same NIK); radio 4: unpaired C.
        let bench = await Bench(radios: 4)
        let nikB = try NANIdentityKey.random(), nikC = try NANIdentityKey.random()
        await bench.engines[0].setIdentityResolution(try nikB.identityResolution(nmi: address(1)))
        await bench.engines[2].setIdentityResolution(try nikB.identityResolution(nmi: address(3)))
        await bench.engines[3].setIdentityResolution(try nikC.identityResolution(nmi: address(4)))
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        for index in [0, 2, 3] { _ = try await bench.engines[index].publish(publish) }
        var resolver = IdentityResolver<String>()
        try resolver.add(nikB, for: "B")
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(3)
        let found = await drain(subscriber).compactMap(\.discovered)
        #expect(found.count == 3)
        let names = Dictionary(found.map { result in (result.peer, result.identityResolution.flatMap { resolver.resolve($0, from: result.peer) }) },
                               uniquingKeysWith: { first, _ in first })
        #expect(names[address(1)] == .some("B") && names[address(3)] == .some("B"))
        #expect(names[address(4)] == .some(nil))
    }

    @Test func framesCarryNoNIRAUntilOneIsSet() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        _ = try await bench.engines[0].publish(publish)
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(2)
        #expect(await drain(subscriber).compactMap(\.discovered).allSatisfy { $0.identityResolution == nil })
    }
}

/// NAN pairing's NIK key data travels in a follow-up's Shared Key Descriptor attribute.
@Suite struct KeyDescriptorFollowUpTests {
    @Test func aFollowUpCarriesTheKeyDescriptorToThePeersSession() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        let publisher = try await bench.engines[0].publish(publish)
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(2)
        let attribute = NIKKeyDescriptor.attribute(publishID: publisher.instanceID, wrappedKeyData: [UInt8](repeating: 0xAB, count: 48))
        _ = try await bench.engines[1].send(keyDescriptor: attribute, from: subscriber.instanceID, to: address(1), peerInstanceID: publisher.instanceID)
        await bench.ticks(1)
        let messages = await drain(publisher).compactMap(\.message)
        #expect(messages.count == 1)
        #expect(messages.first?.keyDescriptor == attribute && messages.first?.payload == [])
    }
}

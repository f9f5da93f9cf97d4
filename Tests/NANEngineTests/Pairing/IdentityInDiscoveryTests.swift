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
        let names = Dictionary(
            found.map { result in
                (result.peer, result.identityResolution.flatMap { resolver.resolve($0, from: result.peer) })
            },
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
        let attribute = NIKKeyDescriptor.attribute(
            publishID: publisher.instanceID, wrappedKeyData: [UInt8](repeating: 0xAB, count: 48))
        _ = try await bench.engines[1].send(
            keyDescriptor: attribute, from: subscriber.instanceID, to: address(1), peerInstanceID: publisher.instanceID)
        await bench.ticks(1)
        let messages = await drain(publisher).compactMap(\.message)
        #expect(messages.count == 1)
        #expect(messages.first?.keyDescriptor == attribute && messages.first?.payload == [])
    }
}

/// After pairing, unicast SDFs to the paired peer go out protected (category 9, the kernel encrypting them
/// with the NM-TK), as wpa_supplicant 2.12 sends and expects them.
@Suite struct ProtectedFollowUpTests {
    @Test func followUpsToAProtectedPeerAreProtectedSDFsAndArriveMarkedSo() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        let publisher = try await bench.engines[0].publish(publish)
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(2)
        await bench.engines[1].protectFrames(to: address(1))
        _ = try await bench.engines[1].send(
            [1], from: subscriber.instanceID, to: address(1), peerInstanceID: publisher.instanceID)
        await bench.engines[1].protectFrames(to: address(1), false)
        _ = try await bench.engines[1].send(
            [2], from: subscriber.instanceID, to: address(1), peerInstanceID: publisher.instanceID)
        await bench.ticks(1)
        let categories = await bench.air.sent.filter {
            $0.from == address(2) && $0.bytes.count > 24 && $0.bytes[4..<10].elementsEqual(address(1).bytes)
        }
        .map { $0.bytes[24] }
        #expect(categories.suffix(2) == [0x09, 0x04])
        let messages = await drain(publisher).compactMap(\.message)
        #expect(messages.map(\.payload) == [[1], [2]] && messages.map(\.isProtected) == [true, false])
    }
}

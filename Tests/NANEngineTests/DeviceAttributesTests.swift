import NANWire
import Testing
@testable import NANEngine

/// Our SDFs say what deployed stacks need to hear before they request a data path or pair with us (issue 23:
/// wpa_supplicant 2.12 refused with "no device capabilities" while our SDFs carried none).
@Suite struct DeviceAttributesTests {
    static let capability = DeviceCapabilityAttribute(
        committedDWInfo: 0x0009, supportedBands: 0x14, antennas: 0x22,
        capabilities: 0x08)

    static func attributes(of bytes: [UInt8]) throws -> [NANAttribute] {
        let frame = try NANManagementFrame(bytes: bytes)
        guard case .serviceDiscovery(let sdf) = frame.body else { throw NANWireError(.malformed, at: 0, "not an SDF") }
        return sdf.attributes
    }

    @Test func everyFrameKindCarriesCapabilityAvailabilityAndExtensionInTheDeployedOrder() async throws {
        let bench = await Bench()
        await bench.engines[0].core.setDeviceAttributes(
            DeviceAttributes(capability: Self.capability, usableChannels: [.channel6, .channel149]))
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        let publisher = try await bench.engines[0].publish(publish)
        await bench.ticks(2)
        _ = try await bench.engines[0].send(
            [1], from: publisher.instanceID, to: address(2), peerInstanceID: InstanceID(rawValue: 1))
        let sent = await bench.air.sent.filter { $0.from == address(1) }
        #expect(sent.count >= 2)
        for frame in sent {
            let ids = try Self.attributes(of: frame.bytes).map(\.id)
            let device = ids.filter { [.deviceCapability, .availability, .deviceCapabilityExtension].contains($0) }
            #expect(device == [.deviceCapability, .availability, .deviceCapabilityExtension])
            // After the service descriptors, as wpa_supplicant 2.12 sends them.
            #expect(ids.firstIndex(of: .deviceCapability)! > ids.lastIndex(of: .serviceDescriptor)!)
        }
    }

    @Test func beforeASchedulePotentialAvailabilityOnlyWithSequenceZero() throws {
        let attributes = DeviceAttributes(capability: Self.capability, usableChannels: [.channel6, .channel149])
        let availability = attributes.availability
        #expect(availability.sequenceID == 0)
        #expect(availability.entries.count == 1)
        #expect(availability.entries[0].availabilityType == 2)
        #expect(availability.entries[0].timeBitmap == nil)
        #expect(
            availability.entries[0].bandChannels
                == .channels([DataPathChannel.channel6.channelEntry, DataPathChannel.channel149.channelEntry]))
    }

    @Test func anInstalledScheduleIsAnnouncedAsTheNAFsAnnounceIt() throws {
        var attributes = DeviceAttributes(capability: Self.capability, usableChannels: [.channel6, .channel149])
        let schedule = DataPathSchedule.preferred(fiveGHz: .channel149)
        attributes.committed = schedule
        let availability = attributes.availability
        let naf = schedule.availabilityAttribute
        // Same map and sequence ID, the same committed entries, then the potential one.
        #expect(availability.sequenceID == naf.sequenceID)
        #expect(availability.mapID == naf.mapID)
        #expect(Array(availability.entries.prefix(naf.entries.count)) == naf.entries)
        #expect(availability.entries.last?.availabilityType == 2)
    }

    @Test func pairingSupportFollowsTheIdentityResolutionAttribute() async throws {
        let bench = await Bench()
        let core = bench.engines[0].core
        await core.setDeviceAttributes(DeviceAttributes(capability: Self.capability, usableChannels: [.channel6]))
        #expect(await core.deviceAttributes?.pairing == false)
        await core.setIdentityResolution(
            IdentityResolutionAttribute(
                cipherVersion: 0, nonce: [UInt8](repeating: 1, count: 8)[...],
                tag: [UInt8](repeating: 2, count: 8)[...]))
        let extensionAttribute = await core.deviceAttributes?.attributes.compactMap {
            if case .deviceCapabilityExtension(let a) = $0 { a } else { nil }
        }.first
        #expect(extensionAttribute?.pairingSetupSupported == true)
        #expect(extensionAttribute?.npkNIKCachingSupported == true)
    }

    @Test func aRadioWithoutDataPathsSendsNoDeviceAttributes() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        _ = try await bench.engines[0].publish(publish)
        await bench.ticks(2)
        for frame in await bench.air.sent where frame.from == address(1) {
            #expect(try !Self.attributes(of: frame.bytes).map(\.id).contains(.deviceCapability))
        }
    }
}

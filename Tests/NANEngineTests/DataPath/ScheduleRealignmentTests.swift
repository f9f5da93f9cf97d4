import Testing
import NANWire
@testable import NANEngine

private let wpaOpenRequest = DataPathFixture.wpaOpenRequest

private let publisherNMI = MACAddress(0x42, 0, 0, 0, 0, 0)
private let subscriberNMI = MACAddress(0x42, 0, 0, 0, 1, 0)
private let publisherNDI = MACAddress(0x52, 0, 0, 0, 0, 0)
private let subscriberNDI = MACAddress(0x52, 0, 0, 0, 1, 0)

/// A data link with a peer whose schedule is not ours gets the slots it can (issue 23): against our preferred
/// schedule wpa_supplicant's shares one slot, and TCP could not even connect over it on the VM bench.
@Suite struct ScheduleRealignmentTests {
    let now = ContinuousClock.now

    /// A device as the engine builds one on a dual-band radio: channel 6, 149 and 44, then every other
    /// 20 MHz channel outside DFS.
    static func device(_ nmi: MACAddress) -> DataPathLocalDevice {
        var device = DataPathFixture.device(nmi)
        device.usableChannels =
            [.channel6, .channel149, .channel44]
            + DataPathChannel.nonDFS5GHz.filter { ![.channel149, .channel44].contains($0) }
        return device
    }

    static func wpaRequest() throws -> DataPathMessage {
        let frame = try NANManagementFrame(bytes: hexBytes(wpaOpenRequest))
        guard case .action(let naf) = frame.body else { throw NANWireError(.notThisFrame, at: 0, "not a NAF") }
        return try DataPathMessage(naf)
    }

    static func changes(_ actions: [DataPathAction]) -> [DataPathSchedule] {
        actions.compactMap { if case .changeSchedule(let to, _, _) = $0 { to } else { nil } }
    }

    @Test func responderMeetsTheDeployedStacksScheduleInsteadOfSharingOneSlot() throws {
        let request = try Self.wpaRequest()
        let peer = PeerAvailability(request.availability)
        var table = DataPathNegotiations(local: Self.device(publisherNMI), localNDI: publisherNDI)
        table.acceptingPublishes = [InstanceID(1)]
        #expect(peer.commonSlots(with: table.local.schedule) == [1])
        let actions = table.receive(request, from: subscriberNMI, now: now)
        let adopted = try #require(Self.changes(actions).first)
        // Its slots outside the DWs (0, 8): 1–3 on channel 6, 4–7 and 9–31 on channel 36.
        #expect(peer.commonSlots(with: adopted) == [1, 2, 3, 4, 5, 6, 7] + Array(9...31))
        #expect(adopted.channels.map(\.frequency) == [2437, 5180])
        #expect(adopted.sequenceID == DataPathSchedule.preferred(fiveGHz: .channel149).sequenceID + 1)
        // The schedule changes before the response announces it; the response accepts (no counter).
        let changeIndex = try #require(actions.firstIndex { if case .changeSchedule = $0 { true } else { false } })
        let sendIndex = try #require(actions.firstIndex { if case .send = $0 { true } else { false } })
        #expect(changeIndex < sendIndex)
        let response = try #require(DataPathFixture.sends(actions).first)
        #expect(response.ndl?.status == .accepted)
        #expect(response.availability == [adopted.availabilityAttribute])
    }

    @Test func twoWawareDevicesKeepTheirPreferredSchedule() throws {
        var initiator = DataPathNegotiations(local: Self.device(subscriberNMI), localNDI: subscriberNDI)
        var responder = DataPathNegotiations(local: Self.device(publisherNMI), localNDI: publisherNDI)
        responder.acceptingPublishes = [InstanceID(3)]
        let announced = [responder.local.schedule.availabilityAttribute]
        let started = try #require(
            try initiator.initiate(
                to: publisherNMI, publishID: InstanceID(3), serviceInfo: [],
                peerAvailability: announced, now: now))
        #expect(Self.changes(started.1).isEmpty)
        let request = try DataPathFixture.overTheAir(try #require(DataPathFixture.sends(started.1).first))
        #expect(Self.changes(responder.receive(request, from: subscriberNMI, now: now)).isEmpty)
    }

    @Test func initiatorProposesAScheduleThatMeetsThePeersAnnouncedOne() throws {
        let announced = try Self.wpaRequest().availability
        var table = DataPathNegotiations(local: Self.device(subscriberNMI), localNDI: subscriberNDI)
        let (_, actions) = try #require(
            try table.initiate(
                to: publisherNMI, publishID: InstanceID(1), serviceInfo: [],
                peerAvailability: announced, now: now))
        let adopted = try #require(Self.changes(actions).first)
        let request = try #require(DataPathFixture.sends(actions).first)
        #expect(request.availability == [adopted.availabilityAttribute])
        #expect(
            PeerAvailability(announced).commonSlots(with: adopted) == [1, 2, 3, 4, 5, 6, 7] + Array(9...31),
            "\(adopted.slots) \(adopted.channels)")
    }

    @Test func aScheduleOtherDataPathsUseIsNotChanged() throws {
        var table = DataPathNegotiations(local: Self.device(publisherNMI), localNDI: publisherNDI)
        table.acceptingPublishes = [InstanceID(1)]
        // A data path already negotiating with another peer.
        _ = try table.initiate(to: MACAddress(0x42, 0, 0, 0, 9, 0), publishID: InstanceID(4), serviceInfo: [], now: now)
        let actions = table.receive(try Self.wpaRequest(), from: subscriberNMI, now: now)
        #expect(Self.changes(actions).isEmpty)
        #expect(table.local.schedule == DataPathSchedule.preferred(fiveGHz: .channel149))
    }

    @Test func aFailedSecureExchangeLeavesTheScheduleAsItWas() throws {
        var table = DataPathNegotiations(local: Self.device(subscriberNMI), localNDI: subscriberNDI)
        let before = table.local.schedule
        // A passphrase that cannot be used (empty): the key exchange fails before anything is sent.
        let policy = NDPSecurityPolicy(
            credential: .passphrase(""), suites: [.sk128], serviceID: ServiceID(1, 2, 3, 4, 5, 6))
        #expect(throws: NDPSecurityError.self) {
            _ = try table.initiate(
                to: publisherNMI, publishID: InstanceID(1), serviceInfo: [], security: policy,
                peerAvailability: try Self.wpaRequest().availability, now: now)
        }
        #expect(table.local.schedule == before)
    }
}

extension ScheduleRealignmentTests {
    /// wpa_supplicant 2.12 refused our counter-proposal ("No local NDC map_id found for peer NDC") when its NDC
    /// slot was on channel 149, which its schedule lacked: the NDC goes on channel 6 when we commit it.
    @Test func theNDCSlotIsOnChannel6WhenTheScheduleHasIt() {
        #expect(DataPathSchedule.swapped(fiveGHz: .channel149).ndcSlot == 2)
        #expect(DataPathSchedule.preferred(fiveGHz: .channel149).ndcSlot == 1)
        let fiveOnly = DataPathSchedule(channels: [.channel149], slots: [nil] + [Int?](repeating: 0, count: 31))
        #expect(fiveOnly.ndcSlot == 1)
        let ndc = DataPathSchedule.swapped(fiveGHz: .channel149).ndcAttribute(
            ndcID: MACAddress(0x50, 0x6f, 0x9a, 1, 0, 1))
        #expect(ndc.schedule.first?.timeBitmap == DataPathSchedule.timeBitmap([2]))
    }
}

import Testing
import NANSystem
import NANWire
@testable import NANEngine

/// The peer schedule handed to the kernel (`NAN_SET_PEER_SCHED`) holds only channels of our local schedule:
/// the kernel refuses a peer channel "not compatible with any local channel" with EINVAL.
struct NL80211DataPathRadioPeerScheduleTests {
    private let peer = MACAddress(0x42, 0, 0, 0, 0, 1)

    private func link(committing schedule: DataPathSchedule) -> NDPLink {
        NDPLink(
            id: NDPIdentifier(peer: peer, initiatorNDI: MACAddress(0x52, 0, 0, 0, 0, 1), ndpID: 1), isInitiator: true,
            localNDI: MACAddress(0x52, 0, 0, 0, 0, 2), peerNDI: MACAddress(0x52, 0, 0, 0, 0, 1),
            peerAvailability: PeerAvailability([schedule.availabilityAttribute]), peerCommittedDW: 0x0009,
            peerElements: [], peerInterfaceID: nil, peerServiceInfo: [], publishID: InstanceID(rawValue: 1))
    }

    private let unavailable = NANLocalSchedule.unavailableSlot

    @Test func aPeerChannelWeDoNotHaveIsLeftOutWithItsSlots() {
        // The peer: channel 6 in slot 1, channel 44 elsewhere; we: channel 6 and 149.
        let sent = NL80211DataPathRadio.peerSchedule(
            link(committing: .preferred(fiveGHz: .channel44)),
            local: .preferred(fiveGHz: .channel149))
        #expect(sent.channels.map(\.frequency.rawValue) == [2437])
        #expect(sent.channels.map(\.channelEntry) == [DataPathChannel.channel6.kernelChannelEntry])
        #expect(sent.maps.count == 1)
        let expected = (0..<DataPathSchedule.slotCount).map { $0 == 1 ? UInt8(0) : unavailable }
        #expect(sent.maps.first?.timeSlots == expected)
        #expect(sent.sequenceID == 1)
        #expect(sent.committedDiscoveryWindows == 0x0009)
    }

    @Test func aPeerCommittingOnlyAChannelWeDoNotHaveGetsOnlyItsDiscoveryWindows() {
        // The peer: channel 6 only; we: channel 149 only (as after taking a 5 GHz-only counter-proposal).
        var ours = DataPathSchedule(
            channels: [.channel149], slots: [Int?](repeating: nil, count: DataPathSchedule.slotCount))
        ours.slots[2] = 0
        let sent = NL80211DataPathRadio.peerSchedule(link(committing: .preferred(fiveGHz: nil)), local: ours)
        #expect(sent.channels.isEmpty)
        #expect(sent.maps.isEmpty)
        #expect(sent.sequenceID == nil)
        #expect(sent.committedDiscoveryWindows == 0x0009)
    }

    @Test func aPeerOnOurChannelsIsPassedAsItCommits() {
        let theirs = DataPathSchedule.preferred(fiveGHz: .channel149)
        let sent = NL80211DataPathRadio.peerSchedule(link(committing: theirs), local: .realtime(fiveGHz: .channel149))
        #expect(sent.channels.map(\.frequency.rawValue) == [2437, 5745])
        #expect(sent.maps.first?.timeSlots == theirs.slots.map { $0.map { UInt8($0) } ?? unavailable })
    }

    @Test func aPeerCommittingOnlyChannel6ToOurTwoChannelScheduleKeepsChannel6() {
        let sent = NL80211DataPathRadio.peerSchedule(
            link(committing: .preferred(fiveGHz: nil)),
            local: .preferred(fiveGHz: .channel149))
        #expect(sent.channels.map(\.frequency.rawValue) == [2437])
        #expect(sent.maps.first?.timeSlots.filter { $0 == 0 }.count == 30)
    }
}

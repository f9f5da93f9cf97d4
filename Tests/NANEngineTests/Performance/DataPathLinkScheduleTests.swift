import NANWire
@testable import NANEngine
import Testing

// The airtime a data path may use is the slots both sides committed on the same channel.

@Suite struct DataPathLinkScheduleTests {
    let dualBand = DataPathSchedule.preferred(fiveGHz: .channel149)
    let twoFourOnly = DataPathSchedule.preferred(fiveGHz: nil)

    @Test func twoDualBandPeersShareEveryCommittedSlot() {
        let link = DataPathLinkSchedule(local: dualBand, peer: PeerAvailability([dualBand.availabilityAttribute]))
        #expect(link.localCommittedSlots == 30)
        #expect(link.peerCommittedSlots == 30)
        #expect(link.commonSlots == 30)
        #expect(link.airtimeShare == 30.0 / 32)
        #expect(link.channels.map(\.frequency) == [2437, 5745])
        #expect(link.channels.map(\.localSlots) == [1, 29])
        #expect(link.channels.map(\.commonSlots) == [1, 29])
    }

    @Test func aTwoPointFourOnlyPeerMeetsUsInOneSlot() {
        let link = DataPathLinkSchedule(local: dualBand, peer: PeerAvailability([twoFourOnly.availabilityAttribute]))
        #expect(link.commonSlots == 1)
        #expect(link.airtimeShare == 1.0 / 32)
        #expect(link.channels.map(\.commonSlots) == [1, 0])
    }

    @Test func withoutThePeersScheduleOursAloneCounts() {
        let link = DataPathLinkSchedule(local: twoFourOnly, peer: nil)
        #expect(link.peerCommittedSlots == nil)
        #expect(link.commonSlots == 30)
        #expect(link.channels.map(\.number) == [6])
    }

    @Test func aPeerWithNothingCommittedLeavesNoAirtime() {
        let link = DataPathLinkSchedule(local: dualBand, peer: PeerAvailability([]))
        #expect(link.commonSlots == 0)
        #expect(link.airtimeShare == 0)
    }

    // Performance modes: bulk keeps the preferred layout, real-time spreads channel 6 over the period.

    /// The longest run of slots (cyclic) in which `schedule` is not on `frequency`.
    func longestWait(_ schedule: DataPathSchedule, frequency: Int) -> Int {
        let on = (0..<DataPathSchedule.slotCount).map { slot in
            schedule.slots[slot].map { schedule.channels[$0].frequency == frequency } ?? false
        }
        guard on.contains(true) else { return DataPathSchedule.slotCount }
        var longest = 0, run = 0
        for slot in 0..<(2 * DataPathSchedule.slotCount) {
            if on[slot % DataPathSchedule.slotCount] { run = 0 } else { run += 1; longest = max(longest, run) }
        }
        return longest
    }

    @Test func bulkModeUsesThePreferredLayout() {
        #expect(DataPathScheduleLayout.preferred.schedule(fiveGHz: .channel149) == dualBand)
    }

    @Test func realtimeCommitsAsManySlotsWithChannel6SpreadEvenly() {
        let realtime = DataPathScheduleLayout.realtime.schedule(fiveGHz: .channel149)
        #expect(realtime.committedSlotCount == dualBand.committedSlotCount)
        #expect(realtime.slots[0] == nil && realtime.slots[8] == nil)
        let channel6 = (0..<32).filter { realtime.slots[$0].map { realtime.channels[$0].frequency == 2437 } ?? false }
        #expect(channel6 == [1, 9, 17, 25])
        // A packet for a 2.4 GHz peer waits at most 7 slots for channel 6 instead of 31; on 5 GHz no more than bulk.
        #expect(longestWait(realtime, frequency: 2437) == 7)
        #expect(longestWait(dualBand, frequency: 2437) == 31)
        #expect(longestWait(realtime, frequency: 5745) <= longestWait(dualBand, frequency: 5745))
    }

    @Test func aRealtimePeerAndABulkPeerStillShareSlotsOnBothChannels() {
        let realtime = DataPathSchedule.realtime(fiveGHz: .channel149)
        let link = DataPathLinkSchedule(local: realtime, peer: PeerAvailability([dualBand.availabilityAttribute]))
        #expect(link.channels.map(\.commonSlots) == [1, 26])
        let both = DataPathLinkSchedule(local: realtime, peer: PeerAvailability([realtime.availabilityAttribute]))
        #expect(both.commonSlots == 30)
        #expect(both.channels.map(\.localSlots) == [4, 26])
    }

    @Test func withoutFiveGHzRealtimeIsTheTwoPointFourSchedule() {
        #expect(DataPathSchedule.realtime(fiveGHz: nil) == twoFourOnly)
    }
}

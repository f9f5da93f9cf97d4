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

    // Performance modes: no mode keeps the preferred layout, bulk commits one contiguous block, real-time
    // commits more slots spread over the period.

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

    @Test func withoutAModeThePreferredLayoutStays() {
        #expect(DataPathScheduleLayout.preferred.schedule(fiveGHz: .channel149) == dualBand)
        #expect(DataPathScheduleLayout.preferred.schedule(fiveGHz: nil) == twoFourOnly)
    }

    @Test func bulkCommitsOneContiguousBlockOfFifteenSlots() {
        let bulk = DataPathScheduleLayout.bulk.schedule(fiveGHz: .channel149)
        let committed = (0..<32).filter { bulk.slots[$0] != nil }
        #expect(committed == Array(1...7) + Array(9...16))
        #expect(bulk.slots(of: 0) == [1] && bulk.channels[0] == .channel6)
        #expect(bulk.slots(of: 1) == Array(2...7) + Array(9...16) && bulk.channels[1] == .channel149)
        // Slots 17-31 and 0 are free: up to 16 slots (256 TU) without either channel.
        #expect(longestWait(bulk, frequency: 5745) == 17)
        let twoFour = DataPathSchedule.bulk(fiveGHz: nil)
        #expect(twoFour.channels == [.channel6] && twoFour.committedSlotCount == 15)
    }

    @Test func realtimeWaitsLessThanBulkOnEitherChannel() {
        let realtime = DataPathSchedule.realtime(fiveGHz: .channel149)
        let bulk = DataPathSchedule.bulk(fiveGHz: .channel149)
        #expect(realtime.committedSlotCount == 30 && bulk.committedSlotCount == 15)
        #expect(longestWait(realtime, frequency: 5745) < longestWait(bulk, frequency: 5745))
        #expect(longestWait(realtime, frequency: 2437) < longestWait(bulk, frequency: 2437))
    }

    @Test func aBulkPeerSharesItsBlockWithADefaultOrRealtimePeer() {
        let bulk = DataPathSchedule.bulk(fiveGHz: .channel149)
        let withDefault = DataPathLinkSchedule(local: bulk, peer: PeerAvailability([dualBand.availabilityAttribute]))
        #expect(withDefault.channels.map(\.commonSlots) == [1, 14])
        let withRealtime = DataPathLinkSchedule(
            local: bulk, peer: PeerAvailability([DataPathSchedule.realtime(fiveGHz: .channel149).availabilityAttribute])
        )
        // Real-time has channel 6 in slot 9, where bulk is on 5 GHz.
        #expect(withRealtime.channels.map(\.commonSlots) == [1, 13])
        let both = DataPathLinkSchedule(local: bulk, peer: PeerAvailability([bulk.availabilityAttribute]))
        #expect(both.commonSlots == 15 && both.airtimeShare == 15.0 / 32)
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

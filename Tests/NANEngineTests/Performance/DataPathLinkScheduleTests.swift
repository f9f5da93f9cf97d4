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
}

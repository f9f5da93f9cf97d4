import NANWire
import Testing

@testable import NANEngine

@Suite struct UnacknowledgedPeersTests {
    let peer = MACAddress(0x42, 0, 0, 0, 1, 0)

    @Test func aPeerIsReportedOnceItLeavesTheLimitInARowUnacknowledged() {
        var peers = UnacknowledgedPeers()
        for _ in 1..<UnacknowledgedPeers.limit {
            let reported = peers.status(of: peer, acknowledged: false)
            #expect(!reported)
        }
        let reported = peers.status(of: peer, acknowledged: false)
        #expect(reported)
        #expect(peers.misses(of: peer) == 0)
    }

    @Test func anAcknowledgedFrameStartsTheCountAgain() {
        var peers = UnacknowledgedPeers()
        for _ in 1..<UnacknowledgedPeers.limit { _ = peers.status(of: peer, acknowledged: false) }
        let acknowledged = peers.status(of: peer, acknowledged: true)
        #expect(!acknowledged)
        #expect(peers.misses(of: peer) == 0)
        let next = peers.status(of: peer, acknowledged: false)
        #expect(!next)
    }

    @Test func groupAddressesAreNeverCounted() {
        var peers = UnacknowledgedPeers()
        for _ in 0..<(2 * UnacknowledgedPeers.limit) {
            let reported = peers.status(of: .broadcast, acknowledged: false)
            #expect(!reported)
        }
        #expect(peers.misses(of: .broadcast) == 0)
    }

    @Test func manyOtherAddressesCannotWipeTheCountOfAPeerNearTheLimit() {
        var peers = UnacknowledgedPeers(capacity: 8)
        for _ in 0..<20 { _ = peers.status(of: peer, acknowledged: false) }
        for n in 0..<100 { _ = peers.status(of: MACAddress(2, 0, 0, 0, 0, UInt8(n)), acknowledged: false) }
        #expect(peers.misses(of: peer) == 20)
    }
}

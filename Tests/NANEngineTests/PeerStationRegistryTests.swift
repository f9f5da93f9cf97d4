import Testing
import NANSystem
import NANWire
@testable import NANEngine

/// The peer stations we add to send outside the DWs stay bounded, least recently used first out, and a data
/// path's station is never the one removed.
struct PeerStationRegistryTests {
    private func peer(_ n: UInt8) -> MACAddress { MACAddress(0x42, 0, 0, 0, 0, n) }

    @Test func aNewPeerIsAddedAndAKnownOneIsNot() {
        var registry = PeerStationRegistry(capacity: 4)
        let first = registry.use(peer(1))
        let again = registry.use(peer(1))
        #expect(first.isNew)
        #expect(!again.isNew)
        #expect(registry.peers == [peer(1)])
    }

    @Test func beyondTheCapacityTheLeastRecentlyUsedGoes() {
        var registry = PeerStationRegistry(capacity: 2)
        _ = registry.use(peer(1))
        _ = registry.use(peer(2))
        // Peer 1 used again: peer 2 is now the least recently used.
        _ = registry.use(peer(1))
        let third = registry.use(peer(3))
        #expect(third.isNew)
        #expect(third.evicted == [peer(2)])
        #expect(registry.peers == [peer(1), peer(3)])
    }

    @Test func aPinnedPeerIsNeverEvicted() {
        var registry = PeerStationRegistry(capacity: 2)
        _ = registry.use(peer(1))
        _ = registry.use(peer(2))
        let third = registry.use(peer(3), pinned: [peer(1)])
        #expect(third.evicted == [peer(2)])
        // Every other one pinned: the registry holds more than its capacity rather than end a data path.
        let fourth = registry.use(peer(4), pinned: [peer(1), peer(3)])
        #expect(fourth.evicted.isEmpty)
        #expect(registry.peers.count == 3)
    }

    @Test func aFloodOfPeersKeepsTheRegistryBounded() {
        var registry = PeerStationRegistry(capacity: 64)
        var evicted = 0
        for n in 0..<200 { evicted += registry.use(MACAddress(0x42, 0, 0, 0, 0, UInt8(n))).evicted.count }
        #expect(registry.peers.count == 64)
        #expect(evicted == 136)
    }

    @Test func removingSaysWhetherTheStationWasOurs() {
        var registry = PeerStationRegistry(capacity: 4)
        _ = registry.use(peer(1))
        let removed = registry.remove(peer(1))
        let removedAgain = registry.remove(peer(1))
        #expect(removed)
        #expect(!removedAgain)
        #expect(!registry.contains(peer(1)))
    }
}

/// A peer's station gets the schedule its SDFs announced, cut to our device schedule: committed entries
/// only (never the potential one), channels we do not have left out, and its committed DWs.
struct AnnouncedPeerScheduleTests {
    private let peer = MACAddress(0x42, 0, 0, 0, 0, 1)
    private let unavailable = NANLocalSchedule.unavailableSlot

    /// What a peer's SDFs carry: its committed schedule and a potential entry over channel 6 and 149.
    private func announced(_ committed: DataPathSchedule) -> PeerAvailability {
        let attributes = DeviceAttributes(
            capability: DeviceCapabilityAttribute(
                committedDWInfo: 0x0009, supportedBands: 0x14, operationMode: 0, antennas: 0x11,
                maxChannelSwitchTime: 0, capabilities: 0),
            usableChannels: [.channel6, .channel149], committed: committed)
        return PeerAvailability([attributes.availability])
    }

    @Test func theCommittedSlotsOnOurChannelsAreInstalled() {
        let sent = NL80211DataPathRadio.peerSchedule(
            of: peer, availability: announced(.preferred(fiveGHz: .channel44)), committedDW: 0x0009,
            local: .preferred(fiveGHz: .channel149))
        #expect(sent.channels.map(\.frequency.rawValue) == [2437])
        #expect(sent.maps.first?.timeSlots == (0..<DataPathSchedule.slotCount).map { $0 == 1 ? 0 : unavailable })
        #expect(sent.committedDiscoveryWindows == 0x0009)
        #expect(sent.sequenceID == 1)
    }

    @Test func aPeerThatAnnouncedOnlyPotentialAvailabilityGetsNoSchedule() {
        let potentialOnly = DeviceAttributes(
            capability: DeviceCapabilityAttribute(
                committedDWInfo: 0x0001, supportedBands: 0x04, operationMode: 0, antennas: 0x11,
                maxChannelSwitchTime: 0, capabilities: 0),
            usableChannels: [.channel6])
        let sent = NL80211DataPathRadio.peerSchedule(
            of: peer, availability: PeerAvailability([potentialOnly.availability]), committedDW: 0x0001,
            local: .preferred(fiveGHz: nil))
        #expect(sent.maps.isEmpty)
        #expect(sent.channels.isEmpty)
    }
}

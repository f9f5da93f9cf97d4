public import NANWire

/// The schedule a data path runs on, in 16-TU slots of the 512-TU NAN period: our committed slots per
/// channel, the peer's, and the slots where both are committed on the same channel, which is the share
/// of airtime the link may use (the rest goes to discovery windows, other channels, or nothing).
public struct DataPathLinkSchedule: Hashable, Sendable {
    /// One channel of our schedule.
    public struct Channel: Hashable, Sendable {
        /// Centre frequency, MHz.
        public var frequency: Int
        /// Channel number.
        public var number: Int
        /// Our committed slots on it.
        public var localSlots: Int
        /// Slots on it where the peer is committed to the same channel too.
        public var commonSlots: Int
    }

    /// Slots in a period.
    public static let slotCount = DataPathSchedule.slotCount

    /// Our channels, in schedule order.
    public var channels: [Channel]
    /// Our committed slots in all.
    public var localCommittedSlots: Int
    /// The peer's committed slots in all (over its maps), nil when its schedule is unknown.
    public var peerCommittedSlots: Int?
    /// Slots where both are on the same channel (our slots when the peer's schedule is unknown).
    public var commonSlots: Int

    /// The share of the period the link may carry data: common slots / 32.
    public var airtimeShare: Double { Double(commonSlots) / Double(Self.slotCount) }

    /// Intersects our schedule with the peer's committed availability (nil: ours alone).
    public init(local: DataPathSchedule, peer: PeerAvailability?) {
        var peerFrequencies = [Set<Int>](repeating: [], count: Self.slotCount)
        if let peer {
            for map in peer.maps {
                for (slot, position) in map.slots.enumerated() where slot < Self.slotCount {
                    if let position, peer.channels.indices.contains(position) {
                        peerFrequencies[slot].insert(peer.channels[position].channel.frequency)
                    }
                }
            }
        }
        var channels: [Channel] = []
        var common = 0
        for (position, channel) in local.channels.enumerated() {
            let mine = local.slots(of: position)
            let shared =
                peer == nil ? mine.count : mine.filter { peerFrequencies[$0].contains(channel.frequency) }.count
            common += shared
            channels.append(
                Channel(
                    frequency: channel.frequency, number: channel.number, localSlots: mine.count, commonSlots: shared))
        }
        self.channels = channels
        localCommittedSlots = local.committedSlotCount
        peerCommittedSlots = peer.map { _ in peerFrequencies.filter { !$0.isEmpty }.count }
        commonSlots = common
    }
}

extension NANEngine {
    /// Our data-path schedule as installed (`NAN_SET_LOCAL_SCHED`), nil before the first data path was
    /// requested or accepted.
    public func localDataPathSchedule() async -> DataPathSchedule? {
        await dataPath?.negotiations?.local.schedule
    }

    /// The schedule of the data path `ndpID` with `peer`: ours against the peer's committed availability;
    /// nil when no such data path is up.
    public func linkSchedule(peer: MACAddress, ndpID: UInt8) async -> DataPathLinkSchedule? {
        guard let dataPath, let local = await dataPath.negotiations?.local.schedule else { return nil }
        let link = await dataPath.connections.first { $0.id.peer == peer && $0.id.ndpID == ndpID }
        guard let link else { return nil }
        return DataPathLinkSchedule(local: local, peer: link.peerAvailability)
    }
}

/// A peer's committed availability, read from the NAN Availability attributes of its data-path NAFs:
/// per map, which channel each 16-TU slot of the 512-TU period is on.
public struct PeerAvailability: Hashable, Sendable {
    /// A channel the peer named, with the 6-byte channel entry the kernel wants back.
    public struct Channel: Hashable, Sendable {
        /// Where.
        public var channel: DataPathChannel
        /// Operating class, channel bitmap, primary bitmap, auxiliary bitmap (LE).
        public var kernelChannelEntry: [UInt8]
    }

    /// One map: its id and 32 slots (a position in ``channels`` or nil).
    public struct Map: Hashable, Sendable {
        /// The map id.
        public var mapID: UInt8
        /// 32 entries.
        public var slots: [Int?]
    }

    /// The kernel takes at most this many maps per peer.
    public static let maximumMaps = 2

    /// The channels of every map.
    public var channels: [Channel]
    /// At most ``maximumMaps`` maps with at least one committed slot.
    public var maps: [Map]
    /// The highest availability sequence id seen.
    public var sequenceID: UInt8

    /// Reads the committed entries of `attributes`; channels we cannot place (unknown operating class,
    /// bands instead of channels) are left out. Total: odd bitmaps only lose slots.
    public init(_ attributes: [NANAvailabilityAttribute]) {
        var channels: [Channel] = []
        var maps: [Map] = []
        var sequence: UInt8 = 0
        for attribute in attributes where maps.count < Self.maximumMaps {
            sequence = max(sequence, attribute.sequenceID)
            var slots = [Int?](repeating: nil, count: DataPathSchedule.slotCount)
            for entry in attribute.entries where entry.availabilityType & 0x01 != 0 {
                guard case .channels(let list) = entry.bandChannels, let first = list.first,
                    let channel = DataPathChannel(first)
                else { continue }
                let kernelEntry = [
                    first.operatingClass, UInt8(first.channelBitmap & 0xff), UInt8(first.channelBitmap >> 8),
                    first.primaryChannelBitmap,
                    UInt8((first.auxiliaryChannelBitmap ?? 0) & 0xff), UInt8((first.auxiliaryChannelBitmap ?? 0) >> 8),
                ]
                let position: Int
                if let found = channels.firstIndex(where: { $0.kernelChannelEntry == kernelEntry }) {
                    position = found
                } else {
                    guard channels.count < 16 else { continue }
                    channels.append(Channel(channel: channel, kernelChannelEntry: kernelEntry))
                    position = channels.count - 1
                }
                for slot in Self.slots(of: entry.timeBitmap) where slots[slot] == nil { slots[slot] = position }
            }
            if slots.contains(where: { $0 != nil }) { maps.append(Map(mapID: attribute.mapID, slots: slots)) }
        }
        self.channels = channels
        self.maps = maps
        self.sequenceID = sequence
    }

    /// The 16-TU slots (0…31) of the 512-TU period a time bitmap covers; every slot when there is none.
    public static func slots(of bitmap: TimeBitmap?) -> [Int] {
        guard let bitmap else { return Array(0..<DataPathSchedule.slotCount) }
        let bitTU = 16 << Int(bitmap.bitDuration & 0x3)
        let periodTU = bitmap.period == 0 ? 512 : 64 << Int(bitmap.period)
        let start = Int(bitmap.startOffset) * 16
        var covered = Set<Int>()
        for (byteIndex, byte) in bitmap.bitmap.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let from = start + (byteIndex * 8 + bit) * bitTU
                // Repeat a short period across 512 TU; fold a long one into it.
                var offset = from % max(periodTU, 1)
                while offset < max(512, periodTU) {
                    var tu = offset
                    while tu < offset + bitTU {
                        covered.insert((tu % 512) / 16)
                        tu += 16
                    }
                    if periodTU >= 512 { break }
                    offset += periodTU
                }
            }
        }
        return covered.sorted()
    }

    /// The slots both `self` (any map) and `local` commit on the same frequency.
    public func commonSlots(with local: DataPathSchedule) -> [Int] {
        (0..<DataPathSchedule.slotCount).filter { slot in
            guard let mine = local.slots[slot] else { return false }
            return maps.contains { map in
                guard let theirs = map.slots[slot] else { return false }
                return channels[theirs].channel.frequency == local.channels[mine].frequency
            }
        }
    }
}

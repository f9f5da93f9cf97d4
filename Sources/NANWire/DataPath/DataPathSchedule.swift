/// Our committed availability for data links: which channel each of the 32 16-TU slots of the 512-TU
/// NAN period is spent on.
///
/// The choice ([docs/data-path.md](../../docs/data-path.md)): the discovery windows (slot 0 on 2.4 GHz,
/// slot 8 on 5 GHz) stay free; 2.4 GHz channel 6 is always in the schedule, so a 2.4 GHz-only peer finds a
/// common slot; when a 5 GHz channel is allowed it takes every other slot, for throughput.
public struct DataPathSchedule: Hashable, Sendable {
    /// The number of slots in a period.
    public static let slotCount = 32
    /// The slots of the discovery windows: slot 0 (2.4 GHz DW) and slot 8 (5 GHz DW).
    public static let discoveryWindowSlots: Set<Int> = [0, 8]
    /// The availability map our schedule is announced in.
    public static let mapID: UInt8 = 1

    /// The channels, referred to by position from ``slots``.
    public var channels: [DataPathChannel]
    /// 32 entries: a position in ``channels``, or nil when the radio is not committed.
    public var slots: [Int?]
    /// The availability sequence id (incremented on change).
    public var sequenceID: UInt8

    /// Creates a schedule; `slots` must have 32 entries referring to `channels`.
    public init(channels: [DataPathChannel], slots: [Int?], sequenceID: UInt8 = 1) {
        self.channels = channels
        self.slots = slots
        self.sequenceID = sequenceID
    }

    /// The default choice: channel 6 in slot 1 and `fiveGHz` (when allowed) in every other slot outside the
    /// DWs; with no 5 GHz channel, channel 6 in every slot outside the DWs.
    public static func preferred(fiveGHz: DataPathChannel?) -> DataPathSchedule {
        var slots = [Int?](repeating: nil, count: slotCount)
        guard let fiveGHz else {
            for slot in 0..<slotCount where !discoveryWindowSlots.contains(slot) { slots[slot] = 0 }
            return DataPathSchedule(channels: [.channel6], slots: slots)
        }
        slots[1] = 0
        for slot in 2..<slotCount where !discoveryWindowSlots.contains(slot) { slots[slot] = 1 }
        return DataPathSchedule(channels: [.channel6, fiveGHz], slots: slots)
    }

    /// The real-time layout (latency first, ``DataPathScheduleLayout/realtime``): every slot outside the DWs
    /// committed, as in ``preferred(fiveGHz:)``, but channel 6 spread evenly over the period, one slot in
    /// eight (1, 9, 17, 25), and `fiveGHz` in the other 26. A packet for a peer on either band then waits at
    /// most 7 slots (112 TU) for a common slot, instead of up to 31 (496 TU) on channel 6; the
    /// price is 3 fewer 5 GHz slots (26 instead of 29) and 8 channel switches per period instead of 2.
    /// Without a 5 GHz channel it is the preferred 2.4 GHz schedule (every slot already on channel 6).
    public static func realtime(fiveGHz: DataPathChannel?) -> DataPathSchedule {
        guard let fiveGHz else { return preferred(fiveGHz: nil) }
        var slots = [Int?](repeating: nil, count: slotCount)
        for slot in 1..<slotCount where !discoveryWindowSlots.contains(slot) {
            slots[slot] = slot % realtimeSpacing == 1 ? 0 : 1
        }
        return DataPathSchedule(channels: [.channel6, fiveGHz], slots: slots)
    }

    /// In ``realtime(fiveGHz:)``, channel 6 comes back every this many slots.
    public static let realtimeSpacing = 8

    /// The bulk layout (``DataPathScheduleLayout/bulk``): one contiguous block of committed slots,
    /// ``bulkBlock`` (slots 1–16, the 5 GHz DW in slot 8 left free: 15 slots, half the period), channel 6 in
    /// slot 1 and `fiveGHz` in the other 14; slots 17–31 stay free (the radio may sleep or serve others).
    /// Traffic goes out in bursts: a packet that arrives after slot 16 waits for the next period's block
    /// (up to 16 slots, 256 TU). Without a 5 GHz channel, channel 6 in the whole block.
    public static func bulk(fiveGHz: DataPathChannel?) -> DataPathSchedule {
        var slots = [Int?](repeating: nil, count: slotCount)
        for slot in bulkBlock where !discoveryWindowSlots.contains(slot) {
            slots[slot] = fiveGHz == nil || slot == bulkBlock.lowerBound ? 0 : 1
        }
        return DataPathSchedule(channels: fiveGHz.map { [.channel6, $0] } ?? [.channel6], slots: slots)
    }

    /// The slots of ``bulk(fiveGHz:)``'s block (the DW slot 8 inside it stays free).
    public static let bulkBlock = 1...16

    /// The channels of ``preferred(fiveGHz:)`` in other slots: `fiveGHz` in slot 1 and channel 6 in every other
    /// slot outside the DWs. It shares no slot with a peer that uses the preferred layout on the same 5 GHz
    /// channel, so that peer must take our counter-proposal: a knob for testing the counter path
    /// (`WAWARE_DP_SCHEDULE=swapped`). Without a 5 GHz channel it is the preferred 2.4 GHz schedule.
    public static func swapped(fiveGHz: DataPathChannel?) -> DataPathSchedule {
        guard let fiveGHz else { return preferred(fiveGHz: nil) }
        var slots = [Int?](repeating: nil, count: slotCount)
        slots[1] = 1
        for slot in 2..<slotCount where !discoveryWindowSlots.contains(slot) { slots[slot] = 0 }
        return DataPathSchedule(channels: [.channel6, fiveGHz], slots: slots)
    }

    /// Our schedule after taking a peer's counter-proposal: the peer's committed channel in each slot
    /// outside the DWs where it commits one of `usable` (matched by frequency), with the next sequence ID
    /// after `previous`; nil when no such slot is left.
    public static func adopting(
        _ peer: PeerAvailability, usable: [DataPathChannel], after previous: UInt8
    ) -> DataPathSchedule? {
        var channels: [DataPathChannel] = []
        var slots = [Int?](repeating: nil, count: slotCount)
        for slot in 0..<slotCount where !discoveryWindowSlots.contains(slot) {
            for map in peer.maps {
                guard let position = map.slots[slot], peer.channels.indices.contains(position),
                    let channel = usable.first(where: { $0.frequency == peer.channels[position].channel.frequency })
                else { continue }
                if let known = channels.firstIndex(of: channel) {
                    slots[slot] = known
                } else {
                    channels.append(channel)
                    slots[slot] = channels.count - 1
                }
                break
            }
        }
        guard !channels.isEmpty else { return nil }
        return DataPathSchedule(channels: channels, slots: slots, sequenceID: previous == .max ? 1 : previous + 1)
    }

    /// The slots committed on the channel at `position`.
    public func slots(of position: Int) -> [Int] {
        (0..<Self.slotCount).filter { slots.indices.contains($0) && slots[$0] == position }
    }

    /// The number of committed slots.
    public var committedSlotCount: Int { slots.lazy.filter { $0 != nil }.count }

    /// The first committed slot (where the NDC schedule goes), if any.
    public var firstCommittedSlot: Int? { slots.firstIndex(where: { $0 != nil }) }

    /// A 4-byte bitmap of `slots` (bit n = slot n) in a time bitmap with 16-TU bits and a 512-TU period.
    public static func timeBitmap(_ slots: [Int]) -> TimeBitmap {
        var bytes = [UInt8](repeating: 0, count: 4)
        for slot in slots where (0..<slotCount).contains(slot) { bytes[slot / 8] |= 1 << (slot % 8) }
        // Bit duration 16 TU (0), period 512 TU (code 3), start offset 0.
        return TimeBitmap(control: 3 << 3, bitmap: bytes[...])
    }

    /// The NAN Availability attribute announcing this schedule: one committed entry per channel.
    public var availabilityAttribute: NANAvailabilityAttribute {
        let entries = channels.indices.compactMap { (position) -> AvailabilityEntry? in
            let committed = slots(of: position)
            guard !committed.isEmpty else { return nil }
            // Type committed (bit 0), RX NSS 1 (bits 8–11).
            return AvailabilityEntry(
                control: 0x0001 | 1 << 8, timeBitmap: Self.timeBitmap(committed),
                bandChannels: .channels([channels[position].channelEntry]))
        }
        // Map ID, committed changed (bit 4).
        return NANAvailabilityAttribute(sequenceID: sequenceID, control: UInt16(Self.mapID) | 1 << 4, entries: entries)
    }

    /// The slot our NDC schedule goes in: the first committed on channel 6, the channel every NAN device
    /// has, else our first committed slot. (wpa_supplicant 2.12 refuses a data path whose NDC slot is on a
    /// channel its own schedule lacks, even when other slots are shared.)
    public var ndcSlot: Int? {
        channels.firstIndex(of: .channel6).flatMap { slots(of: $0).first } ?? firstCommittedSlot
    }

    /// The NDC attribute proposing `ndcID` with its schedule in ``ndcSlot``.
    public func ndcAttribute(ndcID: MACAddress) -> NDCAttribute {
        let slot = ndcSlot.map { [$0] } ?? []
        return NDCAttribute(
            ndcID: ndcID, selected: true,
            schedule: [ScheduleEntry(mapID: Self.mapID, timeBitmap: Self.timeBitmap(slot))])
    }
}

extension DataPathSchedule {
    /// This schedule without the channels on `frequencies` (a channel evacuation): their slots go to the
    /// first channel left in the schedule, or, with none left, to the first of `fallback` (channels we may
    /// use, the evacuated ones already removed); the sequence ID is the next one. Nil when no channel is
    /// left to use. Slots that were not committed stay free.
    public func evacuating(_ frequencies: Set<Int>, fallback: [DataPathChannel]) -> DataPathSchedule? {
        var kept = channels.filter { !frequencies.contains($0.frequency) }
        if kept.isEmpty {
            guard let replacement = fallback.first(where: { !frequencies.contains($0.frequency) }) else { return nil }
            kept = [replacement]
        }
        let moved = slots.map { slot -> Int? in
            guard let slot, channels.indices.contains(slot) else { return nil }
            return kept.firstIndex(of: channels[slot]) ?? 0
        }
        return DataPathSchedule(channels: kept, slots: moved, sequenceID: sequenceID == .max ? 1 : sequenceID + 1)
    }
}

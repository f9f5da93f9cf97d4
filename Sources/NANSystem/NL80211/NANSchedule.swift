public import NANWire
/// A channel width. `enum nl80211_chan_width` (`NL80211_ATTR_CHANNEL_WIDTH`, u32).
public struct ChannelWidth: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `nl80211_chan_width` value.
    public let rawValue: UInt32
    /// Wraps a value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(_ code: NL80211ChannelWidthCode) { rawValue = code.rawValue }

    /// 20 MHz without HT.
    public static let mhz20NoHT = Self(._20Noht)
    /// 20 MHz.
    public static let mhz20 = Self(._20)
    /// 40 MHz.
    public static let mhz40 = Self(._40)
    /// 80 MHz.
    public static let mhz80 = Self(._80)
    /// 160 MHz.
    public static let mhz160 = Self(._160)
    /// 320 MHz.
    public static let mhz320 = Self(._320)

    /// `20 MHz`, …
    public var description: String {
        switch NL80211ChannelWidthCode(rawValue: rawValue) {
        case ._20Noht: "20 MHz (no HT)"
        case ._20: "20 MHz"
        case ._40: "40 MHz"
        case ._80: "80 MHz"
        case ._80p80: "80+80 MHz"
        case ._160: "160 MHz"
        case ._5: "5 MHz"
        case ._10: "10 MHz"
        case ._320: "320 MHz"
        case nil: "width \(rawValue)"
        }
    }
}

/// One channel of a NAN schedule (`NL80211_ATTR_NAN_CHANNEL`: a channel definition plus its NAN
/// channel entry and receive spatial streams).
public struct NANScheduleChannel: Sendable, Hashable {
    /// The control channel.
    public var frequency: Frequency
    /// The width.
    public var width: ChannelWidth
    /// The centre of the (first segment of the) channel, for widths above 20 MHz.
    public var centerFrequency1: Frequency?
    /// The NAN Channel Entry (Wi-Fi Aware Table 100), exactly 6 bytes.
    public var channelEntry: [UInt8]
    /// Receive spatial streams.
    public var receiveSpatialStreams: UInt8

    /// Creates a schedule channel.
    public init(
        frequency: Frequency, width: ChannelWidth = .mhz20, centerFrequency1: Frequency? = nil,
        channelEntry: [UInt8], receiveSpatialStreams: UInt8 = 1
    ) {
        self.frequency = frequency
        self.width = width
        self.centerFrequency1 = centerFrequency1
        self.channelEntry = channelEntry
        self.receiveSpatialStreams = receiveSpatialStreams
    }
}

/// Our own NAN availability: which channel each of the 32 16-TU slots of the 512-TU period uses.
/// For `NL80211_CMD_NAN_SET_LOCAL_SCHED`.
public struct NANLocalSchedule: Sendable, Hashable {
    /// The value of a slot in which the radio is not available (`NL80211_NAN_SCHED_NOT_AVAIL_SLOT`).
    public static let unavailableSlot: UInt8 = 0xff
    /// The number of slots in a period.
    public static let slotCount = 32

    /// The channels, referred to by their position in this array.
    public var channels: [NANScheduleChannel]
    /// 32 entries: a channel position, or ``unavailableSlot``.
    public var timeSlots: [UInt8]
    /// The NAN Availability attribute to announce, header included (Wi-Fi Aware Table 93); empty
    /// (left out of the request) exactly when every slot is unavailable.
    public var availabilityAttribute: [UInt8]
    /// Let the device announce the change and switch later (`NL80211_ATTR_NAN_SCHED_DEFERRED`).
    public var deferred: Bool

    /// The schedule that clears ours: no channels, every slot unavailable and, as Linux 7.2 requires
    /// then, no availability attribute. Set it before stopping NAN.
    public static let cleared = NANLocalSchedule(
        channels: [], timeSlots: [UInt8](repeating: unavailableSlot, count: slotCount), availabilityAttribute: [])

    /// Creates a local schedule.
    public init(
        channels: [NANScheduleChannel], timeSlots: [UInt8], availabilityAttribute: [UInt8], deferred: Bool = false
    ) {
        self.channels = channels
        self.timeSlots = timeSlots
        self.availabilityAttribute = availabilityAttribute
        self.deferred = deferred
    }
}

/// One of a peer's schedule maps (`NL80211_ATTR_NAN_PEER_MAPS` entry).
public struct NANPeerMap: Sendable, Hashable {
    /// The map id.
    public var mapID: UInt8
    /// 32 entries: a channel position, or ``NANLocalSchedule/unavailableSlot``.
    public var timeSlots: [UInt8]

    /// Creates a peer map.
    public init(mapID: UInt8, timeSlots: [UInt8]) {
        self.mapID = mapID
        self.timeSlots = timeSlots
    }
}

/// A peer's NAN schedule, for `NL80211_CMD_NAN_SET_PEER_SCHED` (replaces the previous one).
public struct NANPeerSchedule: Sendable, Hashable {
    /// The peer's NAN management interface address.
    public var peer: MACAddress
    /// The peer's committed DW information (Wi-Fi Aware Table 80).
    public var committedDiscoveryWindows: UInt16
    /// The schedule's sequence id; with ``channels`` and ``maps`` (all three or none).
    public var sequenceID: UInt8?
    /// The peer's channels.
    public var channels: [NANScheduleChannel]
    /// Up to two maps.
    public var maps: [NANPeerMap]
    /// The peer's unaligned schedule attribute (Wi-Fi Aware Table 109), if it published one.
    public var unalignedSchedule: [UInt8]?

    /// Creates a peer schedule.
    public init(
        peer: MACAddress, committedDiscoveryWindows: UInt16, sequenceID: UInt8? = nil,
        channels: [NANScheduleChannel] = [], maps: [NANPeerMap] = [], unalignedSchedule: [UInt8]? = nil
    ) {
        self.peer = peer
        self.committedDiscoveryWindows = committedDiscoveryWindows
        self.sequenceID = sequenceID
        self.channels = channels
        self.maps = maps
        self.unalignedSchedule = unalignedSchedule
    }
}

extension NL80211Request {
    private static func invalid(_ call: String, _ detail: String) -> NetlinkError {
        NetlinkError(code: .invalidRequest, call: call, detail: detail)
    }

    private static func put(_ channel: NANScheduleChannel, into w: inout NetlinkAttributeWriter) throws(NetlinkError) {
        guard channel.channelEntry.count == 6 else {
            throw invalid(
                "NL80211_ATTR_NAN_CHANNEL", "a NAN channel entry is 6 bytes, got \(channel.channelEntry.count)")
        }
        try w.nest(A.nanChannel) { (c) throws(NetlinkError) in
            try c.put(A.wiphyFreq, channel.frequency.rawValue)
            try c.put(A.channelWidth, channel.width.rawValue)
            if let center = channel.centerFrequency1 { try c.put(A.centerFreq1, center.rawValue) }
            try c.put(A.nanChannelEntry, bytes: channel.channelEntry)
            try c.put(A.nanRxNss, channel.receiveSpatialStreams)
        }
    }

    private static func checkSlots(_ slots: [UInt8], channels: Int, call: String) throws(NetlinkError) {
        guard slots.count == NANLocalSchedule.slotCount else {
            throw invalid(call, "a schedule has 32 time slots, got \(slots.count)")
        }
        if let bad = slots.first(where: { $0 != NANLocalSchedule.unavailableSlot && Int($0) >= channels }) {
            throw invalid(call, "time slot refers to channel \(bad) of \(channels)")
        }
    }

    /// `NAN_SET_LOCAL_SCHED`.
    static func setLocalSchedule(
        _ wdev: WirelessDeviceID, _ schedule: NANLocalSchedule
    ) throws(NetlinkError) -> NL80211Request {
        let call = "NL80211_CMD_NAN_SET_LOCAL_SCHED"
        try checkSlots(schedule.timeSlots, channels: schedule.channels.count, call: call)
        if schedule.timeSlots.allSatisfy({ $0 == NANLocalSchedule.unavailableSlot })
            && !schedule.availabilityAttribute.isEmpty
        {
            throw invalid(call, "the availability attribute must be empty when every slot is unavailable")
        }
        var w = NetlinkAttributeWriter()
        try w.put(A.wdev, wdev.rawValue)
        for channel in schedule.channels { try put(channel, into: &w) }
        try w.put(A.nanTimeSlots, bytes: schedule.timeSlots)
        // Linux 7.2 rejects a present but short blob, and wants none when every slot is unavailable.
        if !schedule.availabilityAttribute.isEmpty { try w.put(A.nanAvailBlob, bytes: schedule.availabilityAttribute) }
        if schedule.deferred { try w.putFlag(A.nanSchedDeferred) }
        return NL80211Request(command: .nanSetLocalSched, attributes: w.bytes)
    }

    /// `NAN_SET_PEER_SCHED`.
    static func setPeerSchedule(
        _ wdev: WirelessDeviceID, _ schedule: NANPeerSchedule
    ) throws(NetlinkError) -> NL80211Request {
        let call = "NL80211_CMD_NAN_SET_PEER_SCHED"
        let partial = [schedule.sequenceID != nil, !schedule.channels.isEmpty, !schedule.maps.isEmpty]
        guard partial.allSatisfy({ $0 }) || partial.allSatisfy({ !$0 }) else {
            throw invalid(call, "sequence id, channels and maps go together")
        }
        guard schedule.maps.count <= 2 else { throw invalid(call, "at most 2 peer maps, got \(schedule.maps.count)") }
        for map in schedule.maps { try checkSlots(map.timeSlots, channels: schedule.channels.count, call: call) }
        var w = NetlinkAttributeWriter()
        try w.put(A.wdev, wdev.rawValue)
        try w.put(A.mac, bytes: schedule.peer.bytes)
        try w.put(A.nanCommittedDw, schedule.committedDiscoveryWindows)
        if let sequence = schedule.sequenceID { try w.put(A.nanSeqId, sequence) }
        for channel in schedule.channels { try put(channel, into: &w) }
        if !schedule.maps.isEmpty {
            try w.nest(A.nanPeerMaps) { (array) throws(NetlinkError) in
                for (position, map) in schedule.maps.enumerated() {
                    try array.nest(type: UInt16(position + 1)) { (m) throws(NetlinkError) in
                        try m.put(NL80211NANPeerMapAttribute.mapId, map.mapID)
                        try m.put(NL80211NANPeerMapAttribute.timeSlots, bytes: map.timeSlots)
                    }
                }
            }
        }
        if let ulw = schedule.unalignedSchedule { try w.put(A.nanUlw, bytes: ulw) }
        return NL80211Request(command: .nanSetPeerSched, attributes: w.bytes)
    }
}

/// One entry of a NAN Availability attribute: when and on which bands or channels a device is available.
///
/// Wire form: Length (2, LE; counts the bytes after it), Entry Control (2, LE), then if control bit 12
/// a time bitmap (control 2, length 1, bitmap), then optionally a Band/Channel Entries List:
/// control (1; bit 0 type: 0 bands, 1 channels; bit 1 non-contiguous bandwidth; bits 4–7 count)
/// followed by that many band IDs (1 byte each) or channel entries (4 bytes, 6 if non-contiguous).
public struct AvailabilityEntry: Hashable, Sendable {
    /// Where the device is available.
    public enum BandChannelList: Hashable, Sendable {
        /// Band IDs: 1 sub-1 GHz, 2 2.4 GHz, 4 5 GHz, 7 6 GHz.
        case bands([UInt8])
        /// Channel entries; all have an auxiliary bitmap or none do.
        case channels([ChannelEntry])
    }

    /// Entry Control without bit 12 (time bitmap present), which follows from ``timeBitmap``.
    /// Bits 0–2 type (committed 1, potential 2, conditional 4), 3–4 usage preference, 5–7 utilization,
    /// 8–11 RX NSS.
    public var control: UInt16
    /// When, if not "all the time".
    public var timeBitmap: TimeBitmap?
    /// Where, if listed.
    public var bandChannels: BandChannelList?

    /// Creates an entry.
    public init(control: UInt16, timeBitmap: TimeBitmap? = nil, bandChannels: BandChannelList? = nil) {
        self.control = control & ~Self.timeBitmapPresent
        self.timeBitmap = timeBitmap
        self.bandChannels = bandChannels
    }

    static let timeBitmapPresent: UInt16 = 1 << 12

    /// Availability type bits 0–2 (bit 0 committed, bit 1 potential, bit 2 conditional).
    public var availabilityType: UInt8 { UInt8(control & 0x7) }
    /// The availability types bits 0–2 set.
    public var types: AvailabilityTypes { AvailabilityTypes(rawValue: availabilityType) }
    /// Usage preference, bits 3–4 (0…3, higher is preferred).
    public var usagePreference: UInt8 { UInt8((control >> 3) & 0x3) }
    /// Utilization, bits 5–7: 0…5 in units of 20 % of the time, 7 unknown (6 reserved).
    public var utilization: UInt8 { UInt8((control >> 5) & 0x7) }
    /// The utilization as a percentage, nil for unknown (7) and reserved (6).
    public var utilizationPercent: Int? { utilization <= 5 ? Int(utilization) * 20 : nil }
    /// RX NSS, bits 8–11.
    public var rxNSS: UInt8 { UInt8((control >> 8) & 0xF) }
    /// Reserved bits 13–15 of the Entry Control field (0 from a conforming sender).
    public var reservedControlBits: UInt16 { control & 0xE000 }

    /// The availability types of an entry: committed, potential, conditional (bits 0–2 of Entry Control).
    public struct AvailabilityTypes: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Wraps the raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0x7 }
        /// Bit 0: committed.
        public static let committed = AvailabilityTypes(rawValue: 1 << 0)
        /// Bit 1: potential.
        public static let potential = AvailabilityTypes(rawValue: 1 << 1)
        /// Bit 2: conditional.
        public static let conditional = AvailabilityTypes(rawValue: 1 << 2)
        /// The names of the set types, e.g. `["committed"]`.
        public var names: [String] {
            [(Self.committed, "committed"), (.potential, "potential"), (.conditional, "conditional")]
                .filter { contains($0.0) }.map(\.1)
        }
    }

    static func read(_ outer: inout ByteReader) throws(NANWireError) -> AvailabilityEntry {
        let what = "NAN Availability attribute: entry"
        let lengthOffset = outer.offset
        let length = Int(try outer.readLE16("\(what) length"))
        guard length >= 2 else {
            throw NANWireError(.outOfRange, at: lengthOffset, "\(what) length \(length), at least 2 (entry control)")
        }
        guard length <= outer.remaining else {
            throw NANWireError(
                .overlong, at: lengthOffset, "\(what) length \(length) exceeds the \(outer.remaining) bytes left")
        }
        var reader = try outer.subReader(length, what)
        let rawControl = try reader.readLE16("\(what) control")
        let bitmap = rawControl & timeBitmapPresent != 0 ? try TimeBitmap.read(&reader, what) : nil
        var list: BandChannelList?
        if !reader.isAtEnd {
            let listOffset = reader.offset
            let listControl = try reader.readU8("\(what) band/channel list control")
            let count = Int(listControl >> 4)
            if listControl & 0x01 == 0 {
                var bands: [UInt8] = []
                for _ in 0..<count { bands.append(try reader.readU8("\(what) band ID")) }
                list = .bands(bands)
            } else {
                let aux = listControl & 0x02 != 0
                var channels: [ChannelEntry] = []
                for _ in 0..<count {
                    channels.append(try ChannelEntry.read(&reader, auxiliary: aux, "\(what) channel entry"))
                }
                list = .channels(channels)
            }
            guard reader.isAtEnd else {
                throw NANWireError(
                    .malformed, at: listOffset,
                    "\(what): band/channel list announces \(count) entries but \(reader.remaining) bytes remain after them"
                )
            }
        }
        return AvailabilityEntry(control: rawControl, timeBitmap: bitmap, bandChannels: list)
    }

    func write(_ writer: inout ByteWriter) throws(NANWireError) {
        let what = "NAN Availability attribute: entry"
        try writer.lengthPrefixedLE16(what) { (w: inout ByteWriter) throws(NANWireError) in
            w.writeLE16(control & ~Self.timeBitmapPresent | (timeBitmap != nil ? Self.timeBitmapPresent : 0))
            if let timeBitmap { try timeBitmap.write(&w, what) }
            switch bandChannels {
            case nil:
                break
            case .bands(let bands):
                guard bands.count <= 15 else {
                    throw NANWireError(.tooLarge, at: w.count, "\(what): \(bands.count) bands, at most 15")
                }
                w.writeU8(UInt8(bands.count) << 4)
                w.writeBytes(bands)
            case .channels(let channels):
                guard channels.count <= 15 else {
                    throw NANWireError(.tooLarge, at: w.count, "\(what): \(channels.count) channels, at most 15")
                }
                let aux = channels.first?.auxiliaryChannelBitmap != nil
                guard channels.allSatisfy({ ($0.auxiliaryChannelBitmap != nil) == aux }) else {
                    throw NANWireError(
                        .malformed, at: w.count, "\(what): channel entries mix with and without auxiliary bitmap")
                }
                w.writeU8(UInt8(channels.count) << 4 | 0x01 | (aux ? 0x02 : 0))
                for channel in channels { channel.write(&w) }
            }
        }
    }
}

/// The NAN Availability attribute (0x12): a device's schedule for one map.
///
/// Body: Sequence ID (1), Attribute Control (2, LE; bits 0–3 map ID, bit 4 committed changed,
/// 5 potential changed, 6 public availability attribute changed, 7 NDC attribute changed, 8–15 reserved),
/// then availability entries.
public struct NANAvailabilityAttribute: NANAttributeBody {
    /// The attribute ID, 0x12.
    public static var attributeID: NANAttributeID { .availability }
    /// Sequence ID, incremented when the schedule changes.
    public var sequenceID: UInt8
    /// The raw Attribute Control field.
    public var control: UInt16
    /// The entries.
    public var entries: [AvailabilityEntry]

    /// Creates the attribute.
    public init(sequenceID: UInt8, control: UInt16, entries: [AvailabilityEntry]) {
        self.sequenceID = sequenceID
        self.control = control
        self.entries = entries
    }

    /// The map ID, bits 0–3 of the control field.
    public var mapID: UInt8 { UInt8(control & 0xF) }
    /// Control bit 4: the committed schedule changed.
    public var committedChanged: Bool { control & 0x10 != 0 }
    /// Control bit 5: the potential schedule changed.
    public var potentialChanged: Bool { control & 0x20 != 0 }
    /// Control bit 6: the public availability attribute changed.
    public var publicAvailabilityChanged: Bool { control & 0x40 != 0 }
    /// Control bit 7: the NDC attribute changed.
    public var ndcChanged: Bool { control & 0x80 != 0 }
    /// Reserved control bits 8–15 (0 from a conforming sender).
    public var reservedControlBits: UInt16 { control & 0xFF00 }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        sequenceID = try reader.readU8("NAN Availability attribute: sequence ID")
        control = try reader.readLE16("NAN Availability attribute: control")
        entries = try reader.readToEnd(AvailabilityEntry.read)
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(sequenceID)
        writer.writeLE16(control)
        for entry in entries { try entry.write(&writer) }
    }
}

/// The Unaligned Schedule attribute (0x17): a ULW (unaligned window) outside the aligned schedule.
///
/// Body: Attribute Control (2; schedule ID bits 0–3, sequence ID bits 8–11), Starting Time (4),
/// Duration (4), Period (4), Count Down (1), ULW Overwrite (1), then optionally ULW Control (1; bits 0–1
/// type: 0 band ID follows, 1 channel entry, 2 channel entry with auxiliary bitmap; bit 2 channel
/// available; bits 3–6 RX NSS) and the band ID or channel entry.
public struct UnalignedScheduleAttribute: NANAttributeBody {
    /// The attribute ID, 0x17.
    public static var attributeID: NANAttributeID { .unalignedSchedule }

    /// Where the ULW applies.
    public struct ULWControl: Hashable, Sendable {
        /// A band ID or a channel.
        public enum Target: Hashable, Sendable {
            /// A band ID.
            case band(UInt8)
            /// A channel entry (type 2 when it has an auxiliary bitmap).
            case channel(ChannelEntry)
        }
        /// Bit 2: the device is available on the channel during the ULW.
        public var channelAvailable: Bool
        /// RX NSS (4 bits).
        public var rxNSS: UInt8
        /// Band or channel.
        public var target: Target
        /// Creates a ULW control.
        public init(channelAvailable: Bool, rxNSS: UInt8, target: Target) {
            self.channelAvailable = channelAvailable
            self.rxNSS = rxNSS & 0x0F
            self.target = target
        }
    }

    /// The raw Attribute Control field.
    public var control: UInt16
    /// Start of the first ULW (low 32 bits of the TSF, µs).
    public var startingTime: UInt32
    /// ULW duration (µs).
    public var duration: UInt32
    /// ULW period (µs, 0 = once).
    public var period: UInt32
    /// Number of repetitions (255 = until changed).
    public var countDown: UInt8
    /// ULW Overwrite (bit 0 all maps, bits 1–4 map ID).
    public var overwrite: UInt8
    /// ULW control and its band/channel, if present.
    public var ulwControl: ULWControl?

    /// Creates the attribute.
    public init(
        control: UInt16, startingTime: UInt32, duration: UInt32, period: UInt32, countDown: UInt8,
        overwrite: UInt8, ulwControl: ULWControl? = nil
    ) {
        self.control = control
        self.startingTime = startingTime
        self.duration = duration
        self.period = period
        self.countDown = countDown
        self.overwrite = overwrite
        self.ulwControl = ulwControl
    }

    /// Schedule ID, bits 0–3 of the Attribute Control field.
    public var scheduleID: UInt8 { UInt8(control & 0x0F) }
    /// Sequence ID, bits 8–11 of the Attribute Control field.
    public var sequenceID: UInt8 { UInt8((control >> 8) & 0x0F) }
    /// ULW Overwrite bit 0: the ULW overwrites every map's schedule.
    public var overwritesAllMaps: Bool { overwrite & 0x01 != 0 }
    /// ULW Overwrite bits 1–4: the map whose schedule the ULW overwrites (when not all).
    public var overwriteMapID: UInt8 { (overwrite >> 1) & 0x0F }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        let what = "Unaligned Schedule attribute"
        control = try reader.readLE16("\(what): control")
        startingTime = try reader.readLE32("\(what): starting time")
        duration = try reader.readLE32("\(what): duration")
        period = try reader.readLE32("\(what): period")
        countDown = try reader.readU8("\(what): count down")
        overwrite = try reader.readU8("\(what): ULW overwrite")
        if reader.isAtEnd {
            ulwControl = nil
            return
        }
        let offset = reader.offset
        let c = try reader.readU8("\(what): ULW control")
        let target: ULWControl.Target
        switch c & 0x03 {
        case 0: target = .band(try reader.readU8("\(what): band ID"))
        case 1: target = .channel(try ChannelEntry.read(&reader, auxiliary: false, "\(what): channel entry"))
        case 2: target = .channel(try ChannelEntry.read(&reader, auxiliary: true, "\(what): channel entry"))
        default: throw NANWireError(.outOfRange, at: offset, "\(what): reserved ULW control type 3")
        }
        ulwControl = ULWControl(channelAvailable: c & 0x04 != 0, rxNSS: (c >> 3) & 0x0F, target: target)
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeLE16(control)
        writer.writeLE32(startingTime)
        writer.writeLE32(duration)
        writer.writeLE32(period)
        writer.writeU8(countDown)
        writer.writeU8(overwrite)
        guard let ulwControl else { return }
        var c: UInt8 = (ulwControl.channelAvailable ? 0x04 : 0) | (ulwControl.rxNSS & 0x0F) << 3
        switch ulwControl.target {
        case .band(let band):
            writer.writeU8(c)
            writer.writeU8(band)
        case .channel(let entry):
            c |= entry.auxiliaryChannelBitmap != nil ? 2 : 1
            writer.writeU8(c)
            entry.write(&writer)
        }
    }
}

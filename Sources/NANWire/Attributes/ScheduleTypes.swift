/// A time bitmap with its control field, as used by NAN Availability entries and schedule entries.
///
/// Control (2, LE): bit duration in bits 0–2 (16·2ⁿ TU), period in bits 3–5 (0 = none, else 64·2ⁿ TU),
/// start offset in bits 6–14 (×16 TU). Then a 1-byte length and the bitmap.
public struct TimeBitmap: Hashable, Sendable {
    /// The raw Time Bitmap Control field.
    public var control: UInt16
    /// The bitmap; bit n (LSB first) covers the n-th time slot.
    public var bitmap: ArraySlice<UInt8>

    /// Creates a time bitmap.
    public init(control: UInt16, bitmap: ArraySlice<UInt8>) { self.control = control; self.bitmap = bitmap }

    /// Bit duration code (bits 0–2): 0 = 16 TU, 1 = 32, 2 = 64, 3 = 128.
    public var bitDuration: UInt8 { UInt8(control & 0x7) }
    /// Period code (bits 3–5).
    public var period: UInt8 { UInt8((control >> 3) & 0x7) }
    /// Start offset in units of 16 TU (bits 6–14).
    public var startOffset: UInt16 { (control >> 6) & 0x1FF }

    /// The time one bit covers: 16, 32, 64 or 128 TU (nil for the reserved codes 4–7).
    public var bitDurationTU: Int? { bitDuration <= 3 ? 16 << Int(bitDuration) : nil }
    /// The time after which the bitmap repeats: 128, 256, …, 8192 TU for codes 1–7; nil for 0 (it does not
    /// repeat).
    public var periodTU: Int? { period == 0 ? nil : 64 << Int(period) }
    /// Where the first bit starts, in TU after DW0's start (the start offset × 16).
    public var startOffsetTU: Int { Int(startOffset) * 16 }
    /// The slots the bitmap marks: bit n (least significant bit of the first byte first) is slot n.
    public var slots: [Int] {
        var list: [Int] = []
        for (index, byte) in bitmap.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { list.append(index * 8 + bit) }
        }
        return list
    }

    static func read(_ reader: inout ByteReader, _ what: @autoclosure () -> String) throws(NANWireError) -> TimeBitmap {
        let control = try reader.readLE16("\(what()): time bitmap control")
        return TimeBitmap(control: control, bitmap: try reader.readLV8("\(what()): time bitmap"))
    }

    func write(_ writer: inout ByteWriter, _ what: @autoclosure () -> String) throws(NANWireError) {
        writer.writeLE16(control)
        try writer.writeLV8(bitmap, "\(what()): time bitmap")
    }
}

/// A channel entry (operating class, channel bitmap, primary channel bitmap, optional auxiliary bitmap).
public struct ChannelEntry: Hashable, Sendable {
    /// Global operating class.
    public var operatingClass: UInt8
    /// Channels of the class that are used (bit n = n-th channel of the class).
    public var channelBitmap: UInt16
    /// Which 20 MHz channel is primary.
    public var primaryChannelBitmap: UInt8
    /// Auxiliary channel bitmap for non-contiguous (80+80) bandwidth.
    public var auxiliaryChannelBitmap: UInt16?

    /// Creates a channel entry.
    public init(
        operatingClass: UInt8, channelBitmap: UInt16, primaryChannelBitmap: UInt8, auxiliaryChannelBitmap: UInt16? = nil
    ) {
        self.operatingClass = operatingClass
        self.channelBitmap = channelBitmap
        self.primaryChannelBitmap = primaryChannelBitmap
        self.auxiliaryChannelBitmap = auxiliaryChannelBitmap
    }

    static func read(
        _ reader: inout ByteReader, auxiliary: Bool, _ what: @autoclosure () -> String
    ) throws(NANWireError) -> ChannelEntry {
        let opClass = try reader.readU8("\(what()): operating class")
        let bitmap = try reader.readLE16("\(what()): channel bitmap")
        let primary = try reader.readU8("\(what()): primary channel bitmap")
        let aux = auxiliary ? try reader.readLE16("\(what()): auxiliary channel bitmap") : nil
        return ChannelEntry(
            operatingClass: opClass, channelBitmap: bitmap, primaryChannelBitmap: primary, auxiliaryChannelBitmap: aux)
    }

    func write(_ writer: inout ByteWriter) {
        writer.writeU8(operatingClass)
        writer.writeLE16(channelBitmap)
        writer.writeU8(primaryChannelBitmap)
        if let auxiliaryChannelBitmap { writer.writeLE16(auxiliaryChannelBitmap) }
    }
}

/// A schedule entry: map ID and time bitmap (NDC schedule, NDL immutable schedule).
public struct ScheduleEntry: Hashable, Sendable {
    /// The NAN Availability map this entry refers to (0…15).
    public var mapID: UInt8
    /// When.
    public var timeBitmap: TimeBitmap

    /// Creates a schedule entry.
    public init(mapID: UInt8, timeBitmap: TimeBitmap) { self.mapID = mapID; self.timeBitmap = timeBitmap }

    static func readList(
        _ reader: inout ByteReader, _ what: @autoclosure () -> String
    ) throws(NANWireError) -> [ScheduleEntry] {
        try reader.readToEnd { r throws(NANWireError) in
            // Bits 4-7 are reserved: ignored on read, written as 0.
            let map = try r.readU8("\(what()): schedule entry map ID") & 0x0F
            return ScheduleEntry(mapID: map, timeBitmap: try TimeBitmap.read(&r, what()))
        }
    }

    static func writeList(
        _ entries: [ScheduleEntry], _ writer: inout ByteWriter, _ what: @autoclosure () -> String
    ) throws(NANWireError) {
        for entry in entries {
            guard entry.mapID <= 0x0F else {
                throw NANWireError(.outOfRange, at: writer.count, "\(what()): map ID \(entry.mapID) exceeds 15")
            }
            writer.writeU8(entry.mapID)
            try entry.timeBitmap.write(&writer, what())
        }
    }
}

/// The type half of a "Type and Status" byte in NDP, NDPE and NDL attributes (low 4 bits).
public struct NDPMessageType: RawRepresentable, Hashable, Sendable {
    /// The raw 4-bit value.
    public let rawValue: UInt8
    /// Wraps a 4-bit value (higher bits dropped).
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }
    /// Request (0).
    public static let request = NDPMessageType(rawValue: 0)
    /// Response (1).
    public static let response = NDPMessageType(rawValue: 1)
    /// Confirm (2).
    public static let confirm = NDPMessageType(rawValue: 2)
    /// Security install (3, NDP/NDPE only).
    public static let securityInstall = NDPMessageType(rawValue: 3)
    /// Terminate (4, NDP/NDPE only).
    public static let terminate = NDPMessageType(rawValue: 4)
}

/// The status half of a "Type and Status" byte (high 4 bits).
public struct NDPStatus: RawRepresentable, Hashable, Sendable {
    /// The raw 4-bit value.
    public let rawValue: UInt8
    /// Wraps a 4-bit value (higher bits dropped).
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }
    /// Continued (0).
    public static let continued = NDPStatus(rawValue: 0)
    /// Accepted (1).
    public static let accepted = NDPStatus(rawValue: 1)
    /// Rejected (2).
    public static let rejected = NDPStatus(rawValue: 2)
}

/// A NAN reason code (Wi-Fi Aware "Reason Code field").
public struct NANReasonCode: RawRepresentable, Hashable, Sendable {
    /// The raw byte.
    public let rawValue: UInt8
    /// Wraps a raw byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Reserved (0): no reason.
    public static let none = NANReasonCode(rawValue: 0)
    /// Unspecified reason (1).
    public static let unspecified = NANReasonCode(rawValue: 1)
    /// Resource limitation (2).
    public static let resourceLimitation = NANReasonCode(rawValue: 2)
    /// Invalid parameters (3).
    public static let invalidParameters = NANReasonCode(rawValue: 3)
    /// FTM parameters incapable (4).
    public static let ftmParametersIncapable = NANReasonCode(rawValue: 4)
    /// No movement (5).
    public static let noMovement = NANReasonCode(rawValue: 5)
    /// Invalid availability (6).
    public static let invalidAvailability = NANReasonCode(rawValue: 6)
    /// Immutable schedule unacceptable (7).
    public static let immutableUnacceptable = NANReasonCode(rawValue: 7)
    /// Security policy (8).
    public static let securityPolicy = NANReasonCode(rawValue: 8)
    /// QoS unacceptable (9).
    public static let qosUnacceptable = NANReasonCode(rawValue: 9)
    /// NDP rejected (10).
    public static let ndpRejected = NANReasonCode(rawValue: 10)
    /// NDL unacceptable (11).
    public static let ndlUnacceptable = NANReasonCode(rawValue: 11)
    /// Ranging schedule unacceptable (12).
    public static let rangingScheduleUnacceptable = NANReasonCode(rawValue: 12)
    /// Pairing bootstrapping rejected (13).
    public static let pairingBootstrappingRejected = NANReasonCode(rawValue: 13)
}

extension NDPMessageType: CustomStringConvertible {
    /// `request`, `response`, `confirm`, `security install`, `terminate`, or `type n` for reserved values.
    public var description: String {
        switch self {
        case .request: return "request"
        case .response: return "response"
        case .confirm: return "confirm"
        case .securityInstall: return "security install"
        case .terminate: return "terminate"
        default: return "type \(rawValue)"
        }
    }
}

extension NDPStatus: CustomStringConvertible {
    /// `continued`, `accepted`, `rejected`, or `status n` for reserved values.
    public var description: String {
        switch self {
        case .continued: return "continued"
        case .accepted: return "accepted"
        case .rejected: return "rejected"
        default: return "status \(rawValue)"
        }
    }
}

extension NANReasonCode: CustomStringConvertible {
    /// The reason's name, e.g. `invalid availability`; `none` for 0 and `reason n` for reserved values.
    public var description: String {
        let names = [
            "none", "unspecified", "resource limitation", "invalid parameters", "FTM parameters incapable",
            "no movement", "invalid availability", "immutable schedule unacceptable", "security policy",
            "QoS unacceptable", "NDP rejected", "NDL unacceptable", "ranging schedule unacceptable",
            "pairing bootstrapping rejected",
        ]
        return Int(rawValue) < names.count ? names[Int(rawValue)] : "reason \(rawValue)"
    }
}

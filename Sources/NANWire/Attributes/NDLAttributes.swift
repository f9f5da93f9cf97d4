/// The NDL attribute (0x14): NAN data link schedule negotiation.
///
/// Body: Dialog Token (1), Type and Status (1), Reason Code (1), NDL Control (1), then NDL Peer ID
/// (1, control bit 0), Max Idle Period (2, bit 4) and Immutable Schedule (schedule entries to the end,
/// bit 1). Bit 2: an NDC attribute accompanies it; bit 3: an NDL QoS attribute does; bit 5: NDL type;
/// bits 6–7: setup reason.
public struct NDLAttribute: NANAttributeBody {
    /// The attribute ID, 0x14.
    public static var attributeID: NANAttributeID { .ndl }

    /// Dialog token.
    public var dialogToken: UInt8
    /// Request, response or confirm.
    public var type: NDPMessageType
    /// Continued, accepted or rejected.
    public var status: NDPStatus
    /// Why, when rejected.
    public var reasonCode: NANReasonCode
    /// Control bit 2: an NDC attribute is present in the frame.
    public var ndcAttributePresent: Bool
    /// Control bit 3: an NDL QoS attribute is present in the frame.
    public var qosAttributePresent: Bool
    /// Control bit 5: NDL type (0 = S-NDL).
    public var ndlTypeBit: Bool
    /// Control bits 6–7: setup reason (0 NDP, 1 FSD using GAS).
    public var setupReason: UInt8
    /// NDL peer ID, if present.
    public var peerID: UInt8?
    /// Max idle period, if present.
    public var maxIdlePeriod: UInt16?
    /// Immutable schedule, if present.
    public var immutableSchedule: [ScheduleEntry]?

    /// Creates an NDL attribute.
    public init(
        dialogToken: UInt8, type: NDPMessageType, status: NDPStatus = .continued, reasonCode: NANReasonCode = .none,
        ndcAttributePresent: Bool = false, qosAttributePresent: Bool = false, ndlTypeBit: Bool = false,
        setupReason: UInt8 = 0, peerID: UInt8? = nil, maxIdlePeriod: UInt16? = nil,
        immutableSchedule: [ScheduleEntry]? = nil
    ) {
        self.dialogToken = dialogToken
        self.type = type
        self.status = status
        self.reasonCode = reasonCode
        self.ndcAttributePresent = ndcAttributePresent
        self.qosAttributePresent = qosAttributePresent
        self.ndlTypeBit = ndlTypeBit
        self.setupReason = setupReason & 0x03
        self.peerID = peerID
        self.maxIdlePeriod = maxIdlePeriod
        self.immutableSchedule = immutableSchedule
    }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        dialogToken = try reader.readU8("NDL attribute: dialog token")
        let ts = try reader.readU8("NDL attribute: type and status")
        type = NDPMessageType(rawValue: ts & 0x0F)
        status = NDPStatus(rawValue: ts >> 4)
        reasonCode = NANReasonCode(rawValue: try reader.readU8("NDL attribute: reason code"))
        let control = try reader.readU8("NDL attribute: control")
        ndcAttributePresent = control & 0x04 != 0
        qosAttributePresent = control & 0x08 != 0
        ndlTypeBit = control & 0x20 != 0
        setupReason = control >> 6
        peerID = control & 0x01 != 0 ? try reader.readU8("NDL attribute: peer ID") : nil
        maxIdlePeriod = control & 0x10 != 0 ? try reader.readLE16("NDL attribute: max idle period") : nil
        immutableSchedule =
            control & 0x02 != 0 ? try ScheduleEntry.readList(&reader, "NDL attribute: immutable schedule") : nil
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(dialogToken)
        writer.writeU8(type.rawValue | status.rawValue << 4)
        writer.writeU8(reasonCode.rawValue)
        var control: UInt8 = (setupReason & 0x03) << 6
        if peerID != nil { control |= 0x01 }
        if immutableSchedule != nil { control |= 0x02 }
        if ndcAttributePresent { control |= 0x04 }
        if qosAttributePresent { control |= 0x08 }
        if maxIdlePeriod != nil { control |= 0x10 }
        if ndlTypeBit { control |= 0x20 }
        writer.writeU8(control)
        if let peerID { writer.writeU8(peerID) }
        if let maxIdlePeriod { writer.writeLE16(maxIdlePeriod) }
        if let immutableSchedule {
            try ScheduleEntry.writeList(immutableSchedule, &writer, "NDL attribute: immutable schedule")
        }
    }
}

/// The NDL QoS attribute (0x15): minimum time slots (1) and maximum latency (2, LE).
public struct NDLQoSAttribute: NANAttributeBody {
    /// The attribute ID, 0x15.
    public static var attributeID: NANAttributeID { .ndlQoS }
    /// Minimum number of time slots per DW interval (0 = no preference).
    public var minimumTimeSlots: UInt8
    /// Maximum latency in slots (0xFFFF = no preference).
    public var maximumLatency: UInt16
    /// Creates the attribute.
    public init(minimumTimeSlots: UInt8, maximumLatency: UInt16) {
        self.minimumTimeSlots = minimumTimeSlots
        self.maximumLatency = maximumLatency
    }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        minimumTimeSlots = try reader.readU8("NDL QoS attribute: minimum time slots")
        maximumLatency = try reader.readLE16("NDL QoS attribute: maximum latency")
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(minimumTimeSlots)
        writer.writeLE16(maximumLatency)
    }
}

/// The NDC attribute (0x13): a NAN data cluster's ID and schedule.
///
/// Body: NDC ID (6), Attribute Control (1; bit 0 "selected"), schedule entries to the end.
public struct NDCAttribute: NANAttributeBody {
    /// The attribute ID, 0x13.
    public static var attributeID: NANAttributeID { .ndc }
    /// The NDC ID.
    public var ndcID: MACAddress
    /// Whether this is the NDC selected for the NDL schedule.
    public var selected: Bool
    /// The NDC schedule.
    public var schedule: [ScheduleEntry]
    /// Creates the attribute.
    public init(ndcID: MACAddress, selected: Bool, schedule: [ScheduleEntry]) {
        self.ndcID = ndcID
        self.selected = selected
        self.schedule = schedule
    }
    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        ndcID = try reader.readMAC("NDC attribute: NDC ID")
        let control = try reader.readU8("NDC attribute: control")
        selected = control & 0x01 != 0
        schedule = try ScheduleEntry.readList(&reader, "NDC attribute")
    }
    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeMAC(ndcID)
        writer.writeU8(selected ? 1 : 0)
        try ScheduleEntry.writeList(schedule, &writer, "NDC attribute")
    }
}

/// The NDP attribute (0x10): one step of NAN data-path setup or teardown.
///
/// Body: Dialog Token (1), Type and Status (1), Reason Code (1), Initiator NDI (6), NDP ID (1),
/// NDP Control (1), then Publish ID (1, control bit 3), Responder NDI (6, bit 4) and NDP-specific
/// info (the rest, bit 5). Control bit 0 is "confirm required", bit 2 "security present".
public struct NDPAttribute: NANAttributeBody {
    /// The attribute ID, 0x10.
    public static var attributeID: NANAttributeID { .ndp }

    /// Dialog token pairing request and response.
    public var dialogToken: UInt8
    /// Request, response, confirm, security install or terminate.
    public var type: NDPMessageType
    /// Continued, accepted or rejected.
    public var status: NDPStatus
    /// Why, when rejected.
    public var reasonCode: NANReasonCode
    /// The initiator's NDI.
    public var initiatorNDI: MACAddress
    /// The NDP ID chosen by the initiator.
    public var ndpID: UInt8
    /// Control bit 0: a confirm is required.
    public var confirmRequired: Bool
    /// Control bit 2: security attributes accompany this NDP.
    public var securityPresent: Bool
    /// The publish ID the NDP is for, if present.
    public var publishID: InstanceID?
    /// The responder's NDI, if present.
    public var responderNDI: MACAddress?
    /// NDP-specific info, if present.
    public var specificInfo: ArraySlice<UInt8>?

    /// Creates an NDP attribute.
    public init(dialogToken: UInt8, type: NDPMessageType, status: NDPStatus = .continued, reasonCode: NANReasonCode = .none,
                initiatorNDI: MACAddress, ndpID: UInt8, confirmRequired: Bool = false, securityPresent: Bool = false,
                publishID: InstanceID? = nil, responderNDI: MACAddress? = nil, specificInfo: ArraySlice<UInt8>? = nil) {
        self.dialogToken = dialogToken
        self.type = type
        self.status = status
        self.reasonCode = reasonCode
        self.initiatorNDI = initiatorNDI
        self.ndpID = ndpID
        self.confirmRequired = confirmRequired
        self.securityPresent = securityPresent
        self.publishID = publishID
        self.responderNDI = responderNDI
        self.specificInfo = specificInfo
    }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        dialogToken = try reader.readU8("NDP attribute: dialog token")
        let ts = try reader.readU8("NDP attribute: type and status")
        type = NDPMessageType(rawValue: ts & 0x0F)
        status = NDPStatus(rawValue: ts >> 4)
        reasonCode = NANReasonCode(rawValue: try reader.readU8("NDP attribute: reason code"))
        initiatorNDI = try reader.readMAC("NDP attribute: initiator NDI")
        ndpID = try reader.readU8("NDP attribute: NDP ID")
        let control = try reader.readU8("NDP attribute: NDP control")
        confirmRequired = control & 0x01 != 0
        securityPresent = control & 0x04 != 0
        publishID = control & 0x08 != 0 ? InstanceID(try reader.readU8("NDP attribute: publish ID")) : nil
        responderNDI = control & 0x10 != 0 ? try reader.readMAC("NDP attribute: responder NDI") : nil
        specificInfo = control & 0x20 != 0 ? reader.readRest() : nil
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(dialogToken)
        writer.writeU8(type.rawValue | status.rawValue << 4)
        writer.writeU8(reasonCode.rawValue)
        writer.writeMAC(initiatorNDI)
        writer.writeU8(ndpID)
        var control: UInt8 = 0
        if confirmRequired { control |= 0x01 }
        if securityPresent { control |= 0x04 }
        if publishID != nil { control |= 0x08 }
        if responderNDI != nil { control |= 0x10 }
        if specificInfo != nil { control |= 0x20 }
        writer.writeU8(control)
        if let publishID { writer.writeU8(publishID.rawValue) }
        if let responderNDI { writer.writeMAC(responderNDI) }
        if let specificInfo { writer.writeBytes(specificInfo) }
    }
}

/// A TLV inside an NDP Extension attribute: type (1), length (2, LE), value.
public struct NDPETLV: Hashable, Sendable {
    /// TLV type: 0 IPv6 link-local interface identifier, 1 service info; others reserved.
    public var type: UInt8
    /// The value (a slice of the frame when decoded).
    public var value: ArraySlice<UInt8>
    /// Creates a TLV.
    public init(type: UInt8, value: ArraySlice<UInt8>) { self.type = type; self.value = value }
    /// Type 0: the 8-byte IPv6 link-local interface identifier.
    public static let ipv6LinkLocal: UInt8 = 0
    /// Type 1: service info.
    public static let serviceInfo: UInt8 = 1
}

/// The NDP Extension attribute (NDPE, 0x29): NDP fields plus TLVs (IPv6 interface ID, service info).
///
/// Same fixed part and optional Publish ID / Responder NDI as ``NDPAttribute``; control bit 5 means
/// "GTK required" instead of "specific info present", and the rest of the body is a list of TLVs.
public struct NDPExtensionAttribute: NANAttributeBody {
    /// The attribute ID, 0x29.
    public static var attributeID: NANAttributeID { .ndpExtension }

    /// Dialog token pairing request and response.
    public var dialogToken: UInt8
    /// Request, response, confirm, security install or terminate.
    public var type: NDPMessageType
    /// Continued, accepted or rejected.
    public var status: NDPStatus
    /// Why, when rejected.
    public var reasonCode: NANReasonCode
    /// The initiator's NDI.
    public var initiatorNDI: MACAddress
    /// The NDP ID chosen by the initiator.
    public var ndpID: UInt8
    /// Control bit 0: a confirm is required.
    public var confirmRequired: Bool
    /// Control bit 2: security attributes accompany this NDP.
    public var securityPresent: Bool
    /// Control bit 5: a GTK is required.
    public var gtkRequired: Bool
    /// The publish ID, if present.
    public var publishID: InstanceID?
    /// The responder's NDI, if present.
    public var responderNDI: MACAddress?
    /// The TLVs.
    public var tlvs: [NDPETLV]

    /// Creates an NDPE attribute.
    public init(dialogToken: UInt8, type: NDPMessageType, status: NDPStatus = .continued, reasonCode: NANReasonCode = .none,
                initiatorNDI: MACAddress, ndpID: UInt8, confirmRequired: Bool = false, securityPresent: Bool = false,
                gtkRequired: Bool = false, publishID: InstanceID? = nil, responderNDI: MACAddress? = nil, tlvs: [NDPETLV] = []) {
        self.dialogToken = dialogToken
        self.type = type
        self.status = status
        self.reasonCode = reasonCode
        self.initiatorNDI = initiatorNDI
        self.ndpID = ndpID
        self.confirmRequired = confirmRequired
        self.securityPresent = securityPresent
        self.gtkRequired = gtkRequired
        self.publishID = publishID
        self.responderNDI = responderNDI
        self.tlvs = tlvs
    }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        dialogToken = try reader.readU8("NDP Extension attribute: dialog token")
        let ts = try reader.readU8("NDP Extension attribute: type and status")
        type = NDPMessageType(rawValue: ts & 0x0F)
        status = NDPStatus(rawValue: ts >> 4)
        reasonCode = NANReasonCode(rawValue: try reader.readU8("NDP Extension attribute: reason code"))
        initiatorNDI = try reader.readMAC("NDP Extension attribute: initiator NDI")
        ndpID = try reader.readU8("NDP Extension attribute: NDP ID")
        let control = try reader.readU8("NDP Extension attribute: control")
        confirmRequired = control & 0x01 != 0
        securityPresent = control & 0x04 != 0
        gtkRequired = control & 0x20 != 0
        publishID = control & 0x08 != 0 ? InstanceID(try reader.readU8("NDP Extension attribute: publish ID")) : nil
        responderNDI = control & 0x10 != 0 ? try reader.readMAC("NDP Extension attribute: responder NDI") : nil
        var list: [NDPETLV] = []
        while !reader.isAtEnd {
            let t = try reader.readU8("NDP Extension attribute: TLV type")
            let length = Int(try reader.readLE16("NDP Extension attribute: TLV length"))
            list.append(NDPETLV(type: t, value: try reader.readBytes(length, "NDP Extension attribute: TLV value")))
        }
        tlvs = list
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeU8(dialogToken)
        writer.writeU8(type.rawValue | status.rawValue << 4)
        writer.writeU8(reasonCode.rawValue)
        writer.writeMAC(initiatorNDI)
        writer.writeU8(ndpID)
        var control: UInt8 = 0
        if confirmRequired { control |= 0x01 }
        if securityPresent { control |= 0x04 }
        if publishID != nil { control |= 0x08 }
        if responderNDI != nil { control |= 0x10 }
        if gtkRequired { control |= 0x20 }
        writer.writeU8(control)
        if let publishID { writer.writeU8(publishID.rawValue) }
        if let responderNDI { writer.writeMAC(responderNDI) }
        for tlv in tlvs {
            writer.writeU8(tlv.type)
            try writer.lengthPrefixedLE16("NDP Extension attribute: TLV") { (w: inout ByteWriter) throws(NANWireError) in
                w.writeBytes(tlv.value)
            }
        }
    }
}

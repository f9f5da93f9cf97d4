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
    public init(
        dialogToken: UInt8, type: NDPMessageType, status: NDPStatus = .continued, reasonCode: NANReasonCode = .none,
        initiatorNDI: MACAddress, ndpID: UInt8, confirmRequired: Bool = false, securityPresent: Bool = false,
        publishID: InstanceID? = nil, responderNDI: MACAddress? = nil, specificInfo: ArraySlice<UInt8>? = nil
    ) {
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
        let fixed = try NDPFixedPart(reading: &reader, "NDP attribute", controlField: "NDP control")
        self.init(
            dialogToken: fixed.dialogToken, type: fixed.type, status: fixed.status, reasonCode: fixed.reasonCode,
            initiatorNDI: fixed.initiatorNDI, ndpID: fixed.ndpID, confirmRequired: fixed.confirmRequired,
            securityPresent: fixed.securityPresent, publishID: fixed.publishID, responderNDI: fixed.responderNDI,
            specificInfo: fixed.controlBit5 ? reader.readRest() : nil)
    }

    /// The fields the NDP Extension attribute shares.
    var fixedPart: NDPFixedPart {
        NDPFixedPart(
            dialogToken: dialogToken, type: type, status: status, reasonCode: reasonCode,
            initiatorNDI: initiatorNDI, ndpID: ndpID, confirmRequired: confirmRequired,
            securityPresent: securityPresent, controlBit5: specificInfo != nil, publishID: publishID,
            responderNDI: responderNDI)
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        fixedPart.write(into: &writer)
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

    /// The IPv6 link-local interface identifier of a type 0 TLV (8 bytes); nil for other types or lengths.
    public var interfaceIdentifier: ArraySlice<UInt8>? {
        type == Self.ipv6LinkLocal && value.count == 8 ? value : nil
    }

    /// The service info of a type 1 TLV: OUI (3), service protocol type (1), then the info, as in a
    /// Service Descriptor Extension attribute; nil for other types or a value shorter than 4 bytes.
    public var serviceInfoValue: ServiceDescriptorExtensionAttribute.ServiceInfo? {
        guard type == Self.serviceInfo, value.count >= 4 else { return nil }
        let start = value.startIndex
        let oui = OUI(rawValue: UInt32(value[start]) << 16 | UInt32(value[start + 1]) << 8 | UInt32(value[start + 2]))
        return .init(
            oui: oui, protocolType: ServiceProtocolType(rawValue: value[start + 3]), info: value[(start + 4)...])
    }
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
    public init(
        dialogToken: UInt8, type: NDPMessageType, status: NDPStatus = .continued, reasonCode: NANReasonCode = .none,
        initiatorNDI: MACAddress, ndpID: UInt8, confirmRequired: Bool = false, securityPresent: Bool = false,
        gtkRequired: Bool = false, publishID: InstanceID? = nil, responderNDI: MACAddress? = nil, tlvs: [NDPETLV] = []
    ) {
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
        let fixed = try NDPFixedPart(reading: &reader, "NDP Extension attribute", controlField: "control")
        let list = try reader.readToEnd { r throws(NANWireError) in
            let t = try r.readU8("NDP Extension attribute: TLV type")
            let length = Int(try r.readLE16("NDP Extension attribute: TLV length"))
            return NDPETLV(type: t, value: try r.readBytes(length, "NDP Extension attribute: TLV value"))
        }
        self.init(
            dialogToken: fixed.dialogToken, type: fixed.type, status: fixed.status, reasonCode: fixed.reasonCode,
            initiatorNDI: fixed.initiatorNDI, ndpID: fixed.ndpID, confirmRequired: fixed.confirmRequired,
            securityPresent: fixed.securityPresent, gtkRequired: fixed.controlBit5, publishID: fixed.publishID,
            responderNDI: fixed.responderNDI, tlvs: list)
    }

    /// The fields the NDP attribute shares.
    var fixedPart: NDPFixedPart {
        NDPFixedPart(
            dialogToken: dialogToken, type: type, status: status, reasonCode: reasonCode,
            initiatorNDI: initiatorNDI, ndpID: ndpID, confirmRequired: confirmRequired,
            securityPresent: securityPresent, controlBit5: gtkRequired, publishID: publishID,
            responderNDI: responderNDI)
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        fixedPart.write(into: &writer)
        for tlv in tlvs {
            writer.writeU8(tlv.type)
            try writer.lengthPrefixedLE16("NDP Extension attribute: TLV") {
                (w: inout ByteWriter) throws(NANWireError) in
                w.writeBytes(tlv.value)
            }
        }
    }
}

/// The part NDP and NDP Extension attributes share: Dialog Token (1), Type and Status (1), Reason Code (1),
/// Initiator NDI (6), NDP ID (1), Control (1), then Publish ID (1, control bit 3) and Responder NDI (6, bit 4).
///
/// Control bit 5 differs in meaning ("specific info present" in NDP, "GTK required" in NDPE), so it is
/// carried as a plain flag; what follows the fixed part is each attribute's own.
struct NDPFixedPart {
    var dialogToken: UInt8
    var type: NDPMessageType
    var status: NDPStatus
    var reasonCode: NANReasonCode
    var initiatorNDI: MACAddress
    var ndpID: UInt8
    /// Control bit 0.
    var confirmRequired: Bool
    /// Control bit 2.
    var securityPresent: Bool
    /// Control bit 5, whose meaning is the attribute's.
    var controlBit5: Bool
    /// Present when control bit 3 is set.
    var publishID: InstanceID?
    /// Present when control bit 4 is set.
    var responderNDI: MACAddress?
}

extension NDPFixedPart {
    /// Reads the fixed part; `what` names the attribute and `controlField` its control byte in error messages.
    init(reading reader: inout ByteReader, _ what: String, controlField: String) throws(NANWireError) {
        dialogToken = try reader.readU8("\(what): dialog token")
        let ts = try reader.readU8("\(what): type and status")
        type = NDPMessageType(rawValue: ts & 0x0F)
        status = NDPStatus(rawValue: ts >> 4)
        reasonCode = NANReasonCode(rawValue: try reader.readU8("\(what): reason code"))
        initiatorNDI = try reader.readMAC("\(what): initiator NDI")
        ndpID = try reader.readU8("\(what): NDP ID")
        let control = try reader.readU8("\(what): \(controlField)")
        confirmRequired = control & 0x01 != 0
        securityPresent = control & 0x04 != 0
        controlBit5 = control & 0x20 != 0
        publishID = control & 0x08 != 0 ? InstanceID(try reader.readU8("\(what): publish ID")) : nil
        responderNDI = control & 0x10 != 0 ? try reader.readMAC("\(what): responder NDI") : nil
    }

    /// Writes the fixed part, setting the control bits from the fields.
    func write(into writer: inout ByteWriter) {
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
        if controlBit5 { control |= 0x20 }
        writer.writeU8(control)
        if let publishID { writer.writeU8(publishID.rawValue) }
        if let responderNDI { writer.writeMAC(responderNDI) }
    }
}

import NANWire

/// Fields of the NDP and NDP Extension attributes, with the NDPE TLVs (IPv6 interface identifier, service
/// info) decoded.
extension AttributeFields {
    static func ndp(_ a: NDPAttribute) -> [ReportField] {
        var fields = ndpCommon(
            dialogToken: a.dialogToken, type: a.type, status: a.status, reasonCode: a.reasonCode,
            initiatorNDI: a.initiatorNDI, ndpID: a.ndpID, confirmRequired: a.confirmRequired,
            securityPresent: a.securityPresent, publishID: a.publishID, responderNDI: a.responderNDI,
            controlBit5: .flag("specificInfoPresent", "NDP specific info present", a.specificInfo != nil))
        if let info = a.specificInfo { fields.append(.hex("specificInfo", "NDP specific info", info)) }
        return fields
    }

    static func ndpExtension(_ a: NDPExtensionAttribute) -> [ReportField] {
        ndpCommon(
            dialogToken: a.dialogToken, type: a.type, status: a.status, reasonCode: a.reasonCode,
            initiatorNDI: a.initiatorNDI, ndpID: a.ndpID, confirmRequired: a.confirmRequired,
            securityPresent: a.securityPresent, publishID: a.publishID, responderNDI: a.responderNDI,
            controlBit5: .flag("gtkRequired", "GTK required", a.gtkRequired))
            + [.list("tlvs", "TLVs", item: "TLV", a.tlvs.map(ndpeTLV))]
    }

    /// The fields both attributes share; `controlBit5` is the one control bit they read differently.
    private static func ndpCommon(
        dialogToken: UInt8, type: NDPMessageType, status: NDPStatus, reasonCode: NANReasonCode,
        initiatorNDI: MACAddress, ndpID: UInt8, confirmRequired: Bool, securityPresent: Bool,
        publishID: InstanceID?, responderNDI: MACAddress?, controlBit5: ReportField
    ) -> [ReportField] {
        let control: [ReportField] = [
            .flag("confirmRequired", "confirm required", confirmRequired),
            .flag("securityPresent", "security present", securityPresent),
            .flag("publishIDPresent", "publish ID present", publishID != nil),
            .flag("responderNDIPresent", "responder NDI present", responderNDI != nil), controlBit5,
        ]
        var fields: [ReportField] = [
            .number("dialogToken", "dialog token", dialogToken),
            .number("type", "type", type.rawValue, text: "\(type.rawValue) (\(type))"),
            .number("status", "status", status.rawValue, text: "\(status.rawValue) (\(status))"),
            .number("reasonCode", "reason code", reasonCode.rawValue, text: "\(reasonCode.rawValue) (\(reasonCode))"),
            .string("initiatorNDI", "initiator NDI", initiatorNDI.description),
            .number("ndpID", "NDP ID", ndpID),
            .group("control", "NDP control", control),
        ]
        if let publishID { fields.append(.number("publishID", "publish ID", publishID.rawValue)) }
        if let responderNDI { fields.append(.string("responderNDI", "responder NDI", responderNDI.description)) }
        return fields
    }

    static func ndpeTLV(_ tlv: NDPETLV) -> [ReportField] {
        var fields: [ReportField] = [.number("length", "length", tlv.value.count)]
        if let identifier = tlv.interfaceIdentifier, let iid = InterfaceIdentifier(bytes: identifier) {
            fields.insert(
                .number("type", "type", tlv.type, text: "\(tlv.type) (IPv6 link-local interface identifier)"), at: 0)
            fields.append(.hex("interfaceIdentifier", "interface identifier", identifier))
            fields.append(.string("linkLocalAddress", "link-local address", iid.linkLocalAddress.description))
        } else if let info = tlv.serviceInfoValue {
            fields.insert(.number("type", "type", tlv.type, text: "\(tlv.type) (service info)"), at: 0)
            fields.append(.string("oui", "OUI", info.oui.description))
            fields.append(
                .number(
                    "protocolType", "protocol type", info.protocolType.rawValue,
                    text: "\(info.protocolType.rawValue) (\(info.protocolType))"))
            if let text = FrameReport.text(info.info) {
                fields.append(.string("serviceInfo", "service info text", text))
            }
            fields.append(.hex("serviceInfoHex", "service info", info.info))
        } else {
            fields.insert(.number("type", "type", tlv.type), at: 0)
            fields.append(.hex("value", "value", tlv.value))
        }
        return fields
    }
}

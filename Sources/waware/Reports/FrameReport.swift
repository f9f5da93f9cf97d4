import NANWire

/// A decoded NAN frame as `waware decode` prints it: the frame kind, the 802.11 addresses when the whole
/// management frame was given, and every attribute with its typed fields.
///
/// Built from NANWire values only; service names come from the caller's hints (a service ID is a hash, so
/// the name can only be recognised, never recovered).
struct FrameReport: Encodable, Sendable, Equatable {
    /// The 802.11 management header, present when the input was a whole frame.
    struct Header: Encodable, Sendable, Equatable {
        var frameControl: String
        var destination: String
        var source: String
        var bssid: String
        var sequenceNumber: Int
    }

    /// One attribute: its id and name, a one-line summary, and its typed fields: those of the service
    /// descriptor and its extension as properties, every other known kind's in ``fields`` (encoded at the
    /// same level); an attribute the codec does not know keeps its body as hex in ``bodyHex``.
    struct Attribute: Encodable, Sendable, Equatable {
        var id: Int
        var name: String
        var summary: String
        var type: String?
        var serviceID: String?
        var serviceName: String?
        var instanceID: Int?
        var requestorInstanceID: Int?
        var control: Int?
        var controlBits: [String]?
        var bindingBitmap: Int?
        var matchingFilter: [String]?
        var serviceResponseFilter: ResponseFilter?
        var serviceInfo: String?
        var serviceInfoHex: String?
        var protocolType: String?
        var oui: String?
        var rangeLimit: [Int]?
        var serviceUpdateIndicator: Int?
        var bodyHex: String?
        /// The typed fields of the attributes other than the service descriptor and its extension.
        var fields: [ReportField] = []

        /// The properties that are set, then ``fields`` under their own keys, in one JSON object.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.encode(id, forKey: "id")
            try container.encode(name, forKey: "name")
            try container.encode(summary, forKey: "summary")
            try container.encodeIfPresent(type, forKey: "type")
            try container.encodeIfPresent(serviceID, forKey: "serviceID")
            try container.encodeIfPresent(serviceName, forKey: "serviceName")
            try container.encodeIfPresent(instanceID, forKey: "instanceID")
            try container.encodeIfPresent(requestorInstanceID, forKey: "requestorInstanceID")
            try container.encodeIfPresent(control, forKey: "control")
            try container.encodeIfPresent(controlBits, forKey: "controlBits")
            try container.encodeIfPresent(bindingBitmap, forKey: "bindingBitmap")
            try container.encodeIfPresent(matchingFilter, forKey: "matchingFilter")
            try container.encodeIfPresent(serviceResponseFilter, forKey: "serviceResponseFilter")
            try container.encodeIfPresent(serviceInfo, forKey: "serviceInfo")
            try container.encodeIfPresent(serviceInfoHex, forKey: "serviceInfoHex")
            try container.encodeIfPresent(protocolType, forKey: "protocolType")
            try container.encodeIfPresent(oui, forKey: "oui")
            try container.encodeIfPresent(rangeLimit, forKey: "rangeLimit")
            try container.encodeIfPresent(serviceUpdateIndicator, forKey: "serviceUpdateIndicator")
            try container.encodeIfPresent(bodyHex, forKey: "bodyHex")
            for field in fields { try field.encode(into: &container) }
        }

        /// The keys every attribute's JSON has. An attribute with ``fields`` sets none of its other
        /// properties, so its fields may use any other key (`type`, `control`, as the descriptor's do).
        static let fixedKeys: Set<String> = ["id", "name", "summary"]
    }

    /// A service response filter: include or exclude, and its address list or Bloom filter.
    struct ResponseFilter: Encodable, Sendable, Equatable {
        var include: Bool
        var addresses: [String]?
        var bloomIndex: Int?
        var bloomFilter: String?
    }

    /// `SDF`, `protected SDF`, `NAF` or `protected NAF`.
    var kind: String
    /// The NAF subtype's name.
    var subtype: String?
    /// The number of bytes decoded.
    var length: Int
    /// The management header, when the input had one.
    var header: Header?
    /// The attributes in frame order.
    var attributes: [Attribute]

    /// Describes `frame`, naming service IDs found in `serviceNames`.
    init(_ frame: NANFrame, header: ManagementHeader?, length: Int, serviceNames: [ServiceID: String]) {
        switch frame {
        case .serviceDiscovery(let sdf):
            kind = sdf.isProtected ? "protected SDF" : "SDF"
        case .action(let naf):
            kind = naf.isProtected ? "protected NAF" : "NAF"
            subtype = naf.subtype.description
        }
        self.length = length
        self.header = header.map {
            Header(
                frameControl: Self.hex16($0.frameControl), destination: $0.destination.description,
                source: $0.source.description, bssid: $0.bssid.description,
                sequenceNumber: Int($0.sequenceControl >> 4))
        }
        let suite = frame.attributes.lazy.compactMap { attribute -> NANCipherSuite? in
            if case .cipherSuiteInfo(let csia) = attribute { return csia.entries.first?.suite }
            return nil
        }.first
        let context = AttributeFields.Context(serviceNames: serviceNames, cipherSuite: suite)
        attributes = frame.attributes.map { Self.attribute($0, context) }
    }

    private static func attribute(_ attribute: NANAttribute, _ context: AttributeFields.Context) -> Attribute {
        let serviceNames = context.serviceNames
        var report = Attribute(
            id: Int(attribute.id.rawValue), name: attribute.id.description,
            summary: attribute.description)
        if let fields = AttributeFields.fields(attribute, context) {
            report.fields = fields
            return report
        }
        switch attribute {
        case .serviceDescriptor(let sda):
            report.type = sda.controlType.description
            report.serviceID = sda.serviceID.description
            report.serviceName = serviceNames[sda.serviceID]
            report.instanceID = Int(sda.instanceID.rawValue)
            report.requestorInstanceID = Int(sda.requestorInstanceID.rawValue)
            var control = Int(sda.controlType.rawValue)
            var bits: [String] = []
            func bit(_ on: Bool, _ position: Int, _ name: String) {
                guard on else { return }
                control |= 1 << position
                bits.append(name)
            }
            bit(sda.matchingFilter != nil, 2, "matching filter")
            bit(sda.serviceResponseFilter != nil, 3, "service response filter")
            bit(sda.serviceInfo != nil, 4, "service info")
            bit(sda.discoveryRangeLimited, 5, "discovery range limited")
            bit(sda.bindingBitmap != nil, 6, "binding bitmap")
            bit(sda.serviceIDRandomized, 7, "service ID randomized")
            report.control = control
            report.controlBits = bits
            report.bindingBitmap = sda.bindingBitmap.map(Int.init)
            report.matchingFilter = sda.matchingFilter.map { $0.elements.map { hex($0) } }
            if let srf = sda.serviceResponseFilter {
                switch srf.addressSet {
                case .addresses(let list):
                    report.serviceResponseFilter = ResponseFilter(
                        include: srf.include, addresses: list.map(\.description))
                case .bloomFilter(let bloom):
                    report.serviceResponseFilter = ResponseFilter(
                        include: srf.include, bloomIndex: Int(bloom.index),
                        bloomFilter: hex(bloom.bits))
                }
            }
            if let info = sda.serviceInfo {
                report.serviceInfo = text(info)
                report.serviceInfoHex = hex(info)
            }
        case .serviceDescriptorExtension(let sdea):
            report.instanceID = Int(sdea.instanceID.rawValue)
            report.control = Int(sdea.control.rawValue)
            report.controlBits = extensionBits(sdea.control)
            report.rangeLimit = sdea.rangeLimit.map { [Int($0.ingress), Int($0.egress)] }
            report.serviceUpdateIndicator = sdea.serviceUpdateIndicator.map(Int.init)
            if let info = sdea.serviceInfo {
                report.oui = info.oui.description
                report.protocolType = info.protocolType.description
                report.serviceInfo = text(info.info)
                report.serviceInfoHex = hex(info.info)
            }
        case .unknown(let unknown):
            report.bodyHex = hex(unknown.body)
        default:
            break
        }
        return report
    }

    private static func extensionBits(_ control: ServiceDescriptorExtensionAttribute.Control) -> [String] {
        let names: [(ServiceDescriptorExtensionAttribute.Control, String)] = [
            (.fsdRequired, "FSD required"), (.fsdWithGAS, "FSD with GAS"), (.dataPathRequired, "data path required"),
            (.dataPathMulticast, "multicast data path"), (.multicastType, "multicast type"),
            (.qosRequired, "QoS required"), (.securityRequired, "security required"),
            (.rangingRequired, "ranging required"), (.gtkRequired, "GTK required"),
        ]
        var bits = names.filter { control.contains($0.0) }.map(\.1)
        if control.rawValue & (1 << 8) != 0 { bits.append("range limit") }
        if control.rawValue & (1 << 9) != 0 { bits.append("service update indicator") }
        return bits
    }

    /// `bytes` as text when they are printable UTF-8 (tabs and line breaks allowed), else nil.
    static func text<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        guard !bytes.isEmpty, let string = String(validating: Array(bytes), as: UTF8.self) else { return nil }
        let printable = string.unicodeScalars.allSatisfy {
            $0 == "\t" || $0 == "\n" || $0 == "\r" || $0.value >= 0x20 && $0.value != 0x7F
        }
        return printable ? string : nil
    }

    /// Lower-case hex without separators.
    static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        Hex.string(bytes)
    }

    private static func hex16(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}

extension FrameReport {
    /// The report as indented text lines: a heading, the header's addresses, then one block per attribute.
    var lines: [String] {
        var lines = ["\(kind)\(subtype.map { " \($0)" } ?? ""), \(length) bytes"]
        if let header {
            lines.append(
                "  from \(header.source) to \(header.destination), cluster/BSSID \(header.bssid), "
                    + "frame control \(header.frameControl), sequence \(header.sequenceNumber)")
        }
        for attribute in attributes {
            lines.append("  \(attribute.name)")
            if !attribute.fields.isEmpty {
                lines += ReportField.lines(attribute.fields, indent: "    ")
                continue
            }
            var fields: [(String, String)] = []
            if let type = attribute.type { fields.append(("type", type)) }
            if let id = attribute.serviceID {
                fields.append(("service ID", id + (attribute.serviceName.map { " (\($0))" } ?? "")))
            }
            if let id = attribute.instanceID { fields.append(("instance ID", String(id))) }
            if let id = attribute.requestorInstanceID { fields.append(("requestor instance ID", String(id))) }
            if let control = attribute.control {
                let bits = attribute.controlBits ?? []
                fields.append(
                    (
                        "control",
                        "0x" + String(control, radix: 16) + (bits.isEmpty ? "" : " (\(bits.joined(separator: ", ")))")
                    ))
            }
            if let bitmap = attribute.bindingBitmap {
                fields.append(("binding bitmap", "0x" + String(bitmap, radix: 16)))
            }
            if let filter = attribute.matchingFilter {
                let elements = filter.map { $0.isEmpty ? "*" : ($0.count % 2 == 0 ? Self.quotedOrHex($0) : $0) }
                fields.append(("matching filter", elements.isEmpty ? "(empty)" : elements.joined(separator: " ")))
            }
            if let srf = attribute.serviceResponseFilter {
                let mode = srf.include ? "only these respond" : "these do not respond"
                if let list = srf.addresses {
                    fields.append(("response filter", "\(mode): \(list.joined(separator: ", "))"))
                } else {
                    fields.append(
                        (
                            "response filter",
                            "\(mode): Bloom filter index \(srf.bloomIndex ?? 0) \(srf.bloomFilter ?? "")"
                        ))
                }
            }
            if let limit = attribute.rangeLimit {
                fields.append(("range limit", "ingress \(limit[0]) cm, egress \(limit[1]) cm"))
            }
            if let indicator = attribute.serviceUpdateIndicator {
                fields.append(("service update indicator", String(indicator)))
            }
            if let protocolType = attribute.protocolType {
                fields.append(("protocol", "\(protocolType) (OUI \(attribute.oui ?? ""))"))
            }
            if let hex = attribute.serviceInfoHex {
                fields.append(("service info", attribute.serviceInfo.map { "\"\($0)\" (\(hex))" } ?? hex))
            }
            if attribute.type == nil, attribute.instanceID == nil { fields.append(("summary", attribute.summary)) }
            if let body = attribute.bodyHex { fields.append(("body", body.isEmpty ? "(empty)" : body)) }
            let width = fields.map(\.0.count).max() ?? 0
            for (name, value) in fields {
                lines.append(
                    "    \(name):" + String(repeating: " ", count: width - name.count + 1) + TerminalText.escaped(value)
                )
            }
        }
        return lines
    }

    /// A hex string shown as quoted text when its bytes are printable, else as `0x…`.
    private static func quotedOrHex(_ hexString: String) -> String {
        guard let bytes = Hex.bytes(hexString) else { return "0x" + hexString }
        return text(bytes).map { "\"\($0)\"" } ?? "0x" + hexString
    }
}

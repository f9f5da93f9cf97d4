import NANWire

/// Fields of the Element Container attribute: its map and each IEEE 802.11 element, with the HT and VHT
/// Capabilities elements (what NAN stacks put there) decoded into their subfields.
extension AttributeFields {
    static func elementContainer(_ a: ElementContainerAttribute) -> [ReportField] {
        [
            ReportField(
                key: "mapID", label: "map ID", value: a.mapID.map { .number(Int($0)) } ?? .none,
                text: a.mapID.map(String.init) ?? "none (all maps)"),
            .list("elements", "elements", item: "element", a.elements.map(element)),
        ]
    }

    static func element(_ element: InformationElement) -> [ReportField] {
        var fields: [ReportField] = [
            .number("elementID", "element ID", element.id, text: "\(element.id) (\(element.name))"),
            .string("elementName", "name", element.name).jsonOnlyField,
            .number("length", "length", element.body.count),
        ]
        switch element.id {
        case InformationElement.htCapabilitiesID:
            do { fields += htCapabilities(try HTCapabilities(body: element.body)) } catch {
                fields += undecoded(element, error)
            }
        case InformationElement.vhtCapabilitiesID:
            do { fields += vhtCapabilities(try VHTCapabilities(body: element.body)) } catch {
                fields += undecoded(element, error)
            }
        default:
            fields.append(.hex("body", "body", element.body))
        }
        return fields
    }

    /// The body of an element whose layout did not decode, with why.
    private static func undecoded(_ element: InformationElement, _ error: NANWireError) -> [ReportField] {
        [.string("decodeError", "not decoded", error.description), .hex("body", "body", element.body)]
    }

    static func htCapabilities(_ ht: HTCapabilities) -> [ReportField] {
        [
            .group(
                "htCapabilityInfo", "HT capability info", raw: Int(ht.capabilityInfo), digits: 4,
                [
                    .flag("ldpc", "LDPC", ht.ldpc),
                    .flag("width40MHz", "20/40 MHz", ht.supports40MHz),
                    .string("smPowerSave", "SM power save", ht.smPowerSave),
                    .flag("greenfield", "greenfield", ht.greenfield),
                    .flag("shortGI20", "short GI 20 MHz", ht.shortGI20),
                    .flag("shortGI40", "short GI 40 MHz", ht.shortGI40),
                    .flag("txSTBC", "TX STBC", ht.txSTBC),
                    .number("rxSTBCStreams", "RX STBC streams", ht.rxSTBCStreams),
                    .number(
                        "maxAMSDULength", "max A-MSDU length", ht.maximumAMSDULength,
                        text: "\(ht.maximumAMSDULength) bytes"),
                    .flag("dsssCCK40MHz", "DSSS/CCK in 40 MHz", ht.dsssCCK40MHz),
                    .flag("fortyMHzIntolerant", "40 MHz intolerant", ht.fortyMHzIntolerant),
                    .flag("lsigTXOPProtection", "L-SIG TXOP protection", ht.lsigTXOPProtection),
                ]),
            .group(
                "ampduParameters", "A-MPDU parameters", raw: Int(ht.ampduParameters),
                [
                    .number(
                        "maxAMPDULength", "max A-MPDU length", ht.maximumAMPDULength,
                        text: "\(ht.maximumAMPDULength) bytes"),
                    .string("minMPDUStartSpacing", "min MPDU start spacing", ht.minimumMPDUStartSpacing),
                ]),
            .numbers("rxMCS", "RX MCS", ht.rxMCSIndices),
            .hex("supportedMCSSet", "supported MCS set", ht.supportedMCSSet),
            .number("htExtendedCapabilities", "HT extended capabilities", ht.extendedCapabilities, hexDigits: 4),
            .number("transmitBeamforming", "TX beamforming capabilities", ht.transmitBeamforming, hexDigits: 8),
            .number("aselCapabilities", "ASEL capabilities", ht.aselCapabilities, hexDigits: 2),
        ]
    }

    static func vhtCapabilities(_ vht: VHTCapabilities) -> [ReportField] {
        [
            .group(
                "vhtCapabilityInfo", "VHT capability info", raw: Int(vht.capabilityInfo), digits: 8,
                [
                    ReportField(
                        key: "maxMPDULength", label: "max MPDU length",
                        value: vht.maximumMPDULength.map { .number($0) } ?? .none,
                        text: vht.maximumMPDULength.map { "\($0) bytes" } ?? "reserved"),
                    .string("supportedChannelWidths", "supported channel widths", vht.supportedChannelWidths),
                    .flag("rxLDPC", "RX LDPC", vht.rxLDPC),
                    .flag("shortGI80", "short GI 80 MHz", vht.shortGI80),
                    .flag("shortGI160", "short GI 160 MHz", vht.shortGI160),
                    .flag("txSTBC", "TX STBC", vht.txSTBC),
                    .number("rxSTBCStreams", "RX STBC streams", vht.rxSTBCStreams),
                    .flag("suBeamformer", "SU beamformer", vht.suBeamformer),
                    .flag("suBeamformee", "SU beamformee", vht.suBeamformee),
                    .number("beamformeeSTS", "beamformee STS", vht.beamformeeSTS + 1),
                    .number("soundingDimensions", "sounding dimensions", vht.soundingDimensions + 1),
                    .flag("muBeamformer", "MU beamformer", vht.muBeamformer),
                    .flag("muBeamformee", "MU beamformee", vht.muBeamformee),
                    .flag("txopPowerSave", "TXOP power save", vht.txopPowerSave),
                    .flag("htcVHT", "+HTC-VHT", vht.htcVHT),
                    .number(
                        "maxAMPDULength", "max A-MPDU length", vht.maximumAMPDULength,
                        text: "\(vht.maximumAMPDULength) bytes"),
                    .number("linkAdaptation", "link adaptation", vht.linkAdaptation),
                    .flag(
                        "rxAntennaPatternConsistency", "RX antenna pattern consistency", vht.rxAntennaPatternConsistency
                    ),
                    .flag(
                        "txAntennaPatternConsistency", "TX antenna pattern consistency", vht.txAntennaPatternConsistency
                    ),
                    .number("extendedNSSBandwidth", "extended NSS BW support", vht.extendedNSSBandwidth),
                ]),
            mcsMap("rxMCSMap", "RX MCS map", vht.rxMCSMap),
            .number(
                "rxHighestRate", "RX highest rate", vht.rxHighestRate & 0x1FFF,
                text: "\(vht.rxHighestRate & 0x1FFF) Mb/s"),
            mcsMap("txMCSMap", "TX MCS map", vht.txMCSMap),
            .number(
                "txHighestRate", "TX highest rate", vht.txHighestRate & 0x1FFF,
                text: "\(vht.txHighestRate & 0x1FFF) Mb/s"),
        ]
    }

    /// A VHT-MCS map: per spatial stream, the highest MCS (`1-8 streams: MCS 0-9`).
    private static func mcsMap(_ key: String, _ label: String, _ map: UInt16) -> ReportField {
        let perStream = VHTCapabilities.maximumMCS(perStream: map)
        var runs: [String] = []
        var start = 0
        for index in perStream.indices where index == perStream.count - 1 || perStream[index + 1] != perStream[index] {
            let streams = start == index ? "stream \(start + 1)" : "streams \(start + 1)-\(index + 1)"
            runs.append("\(streams): " + (perStream[index].map { "MCS 0-\($0)" } ?? "not supported"))
            start = index + 1
        }
        return .group(
            key, label, raw: Int(map), digits: 4,
            text: ReportField.hexNumber(Int(map), digits: 4) + " ("
                + (runs.isEmpty ? "none" : runs.joined(separator: "; ")) + ")",
            showsChildren: false,
            [
                ReportField(
                    key: "maxMCSPerStream", label: "max MCS per stream",
                    value: .strings(perStream.map { $0.map { "MCS 0-\($0)" } ?? "not supported" }), text: nil)
            ])
    }
}

import NANWire

/// Fields of the attributes that say when and where a device is available: Device Capability, NAN
/// Availability, NDC, NDL, NDL QoS and Unaligned Schedule, with their time bitmaps and channel entries.
extension AttributeFields {
    static func deviceCapability(_ a: DeviceCapabilityAttribute) -> [ReportField] {
        let dw = a.committedDW
        let operation = a.operation
        let capabilities = a.capabilityFlags
        return [
            .group(
                "mapID", "map ID", raw: Int(a.mapIDField),
                text: (a.appliesToOneMapOnly ? "map \(a.mapID) only" : "all maps")
                    + " (\(ReportField.hexNumber(Int(a.mapIDField), digits: 2)))",
                showsChildren: false,
                [
                    .flag("appliesToOneMapOnly", "applies to one map only", a.appliesToOneMapOnly),
                    .number("mapID", "map ID", a.mapID),
                ]),
            .group(
                "committedDWInfo", "committed DW info", raw: Int(dw.rawValue), digits: 4,
                [
                    wakeInterval("wakeInterval2_4GHz", "2.4 GHz wake interval", dw.wakeInterval2_4GHz),
                    wakeInterval("wakeInterval5GHz", "5 GHz wake interval", dw.wakeInterval5GHz),
                    .number(
                        "overwriteMapID2_4GHz", "2.4 GHz DW overwrite", dw.overwriteMapID2_4GHz,
                        text: "map \(dw.overwriteMapID2_4GHz)"),
                    .number(
                        "overwriteMapID5GHz", "5 GHz DW overwrite", dw.overwriteMapID5GHz,
                        text: "map \(dw.overwriteMapID5GHz)"),
                ]),
            .group(
                "supportedBands", "supported bands", raw: Int(a.supportedBands),
                text:
                    "\(ReportField.hexNumber(Int(a.supportedBands), digits: 2)) (\(a.bands.map(\.description).joined(separator: ", ")))",
                showsChildren: false, [.strings("bands", "bands", a.bands.map(\.description))]),
            .group(
                "operationMode", "operation mode", raw: Int(a.operationMode),
                [
                    .string("phyMode", "PHY mode", operation.phyMode),
                    .flag("width80Plus80", "80+80 MHz", operation.contains(.width80Plus80)),
                    .flag("width160", "160 MHz", operation.contains(.width160)),
                    .flag("pagingNDL", "paging NDL", operation.contains(.pagingNDL)),
                ] + reserved(Int(operation.reservedBits))),
            .group(
                "antennas", "antennas", raw: Int(a.antennas), text: "TX \(a.txAntennas), RX \(a.rxAntennas)",
                showsChildren: false,
                [.number("tx", "TX", a.txAntennas), .number("rx", "RX", a.rxAntennas)]),
            .number(
                "maxChannelSwitchTime", "max channel switch time", a.maxChannelSwitchTime,
                text: "\(a.maxChannelSwitchTime) µs"),
            .group(
                "capabilities", "capabilities", raw: Int(a.capabilities),
                [
                    .flag("dfsMaster", "DFS master", capabilities.contains(.dfsMaster)),
                    .flag("extendedKeyID", "extended key ID", capabilities.contains(.extendedKeyID)),
                    .flag(
                        "simultaneousNDPDataReception", "simultaneous NDP data reception",
                        capabilities.contains(.simultaneousNDPDataReception)),
                    .flag(
                        "ndpeAttributeSupported", "NDPE attribute supported",
                        capabilities.contains(.ndpeAttributeSupported)),
                    .flag("s3Supported", "S3 supported", capabilities.contains(.s3Supported)),
                ] + reserved(Int(capabilities.reservedBits))),
        ]
    }

    /// A DW wake interval code with what it means.
    private static func wakeInterval(_ key: String, _ label: String, _ code: UInt8) -> ReportField {
        let meaning: String
        switch DeviceCapabilityAttribute.CommittedDWInfo.dwsBetweenWakes(code) {
        case 1?: meaning = "every DW"
        case let dws?: meaning = "every \(dws) DWs"
        case nil: meaning = code == 0 ? "no wake" : "reserved"
        }
        return .number(key, label, code, text: "\(code) (\(meaning))")
    }

    /// A `reservedBits` field, only when some are set.
    static func reserved(_ bits: Int) -> [ReportField] {
        bits == 0 ? [] : [.number("reservedBits", "reserved bits", bits, hexDigits: 2)]
    }

    static func availability(_ a: NANAvailabilityAttribute) -> [ReportField] {
        [
            .number("sequenceID", "sequence ID", a.sequenceID),
            .group(
                "attributeControl", "attribute control", raw: Int(a.control), digits: 4,
                [
                    .number("mapID", "map ID", a.mapID),
                    .flag("committedChanged", "committed changed", a.committedChanged),
                    .flag("potentialChanged", "potential changed", a.potentialChanged),
                    .flag(
                        "publicAvailabilityChanged", "public availability attribute changed",
                        a.publicAvailabilityChanged),
                    .flag("ndcChanged", "NDC attribute changed", a.ndcChanged),
                ] + reserved(Int(a.reservedControlBits))),
            .list("entries", "availability entries", item: "entry", a.entries.map(availabilityEntry)),
        ]
    }

    static func availabilityEntry(_ entry: AvailabilityEntry) -> [ReportField] {
        let control = Int(entry.control) | (entry.timeBitmap != nil ? 1 << 12 : 0)
        var fields: [ReportField] = [
            .group(
                "entryControl", "entry control", raw: control, digits: 4,
                [
                    .strings("type", "type", entry.types.names),
                    .number("usagePreference", "usage preference", entry.usagePreference),
                    .number(
                        "utilization", "utilization", entry.utilization,
                        text: "\(entry.utilization) ("
                            + (entry.utilizationPercent.map { "\($0) %" }
                                ?? (entry.utilization == 7 ? "unknown" : "reserved")) + ")"),
                    .number("rxNSS", "RX NSS", entry.rxNSS),
                    .flag("timeBitmapPresent", "time bitmap present", entry.timeBitmap != nil),
                ] + reserved(Int(entry.reservedControlBits)))
        ]
        if let bitmap = entry.timeBitmap { fields.append(timeBitmap(bitmap)) }
        switch entry.bandChannels {
        case nil:
            break
        case .bands(let bands):
            fields.append(.strings("bands", "bands", bands.map { NANBandID(rawValue: $0).description }))
        case .channels(let channels):
            fields.append(.list("channelEntries", "channel entries", item: "channel entry", channels.map(channelEntry)))
        }
        return fields
    }

    /// A time bitmap: its control field's subfields, the bitmap and the slots it marks.
    static func timeBitmap(_ bitmap: TimeBitmap) -> ReportField {
        .group(
            "timeBitmap", "time bitmap", raw: Int(bitmap.control), digits: 4,
            text: "control \(ReportField.hexNumber(Int(bitmap.control), digits: 4))",
            [
                .number(
                    "bitDuration", "bit duration", bitmap.bitDuration,
                    text: bitmap.bitDurationTU.map { "\($0) TU" } ?? "reserved (\(bitmap.bitDuration))"),
                .number(
                    "period", "period", bitmap.period,
                    text: bitmap.periodTU.map { "\($0) TU" } ?? "none (does not repeat)"),
                .number("startOffsetTU", "start offset", bitmap.startOffsetTU, text: "\(bitmap.startOffsetTU) TU"),
                .hex("bitmap", "bitmap", bitmap.bitmap),
                .numbers("slots", "slots", bitmap.slots),
            ])
    }

    /// A channel entry: operating class, the channels its bitmaps name, and the bitmaps.
    static func channelEntry(_ entry: ChannelEntry) -> [ReportField] {
        let opClass = entry.globalOperatingClass
        var fields: [ReportField] = [
            .number(
                "operatingClass", "operating class", entry.operatingClass,
                text: "\(entry.operatingClass)" + (opClass.map { " (\($0))" } ?? " (unknown)")),
            .number("channelBitmap", "channel bitmap", entry.channelBitmap, hexDigits: 4),
        ]
        if let channels = entry.channels, let opClass {
            let what = opClass.channelsAreCentres ? "centre channels" : "channels"
            fields.append(.numbers("channels", what, channels, text: channelList(channels, opClass)))
        } else {
            fields.append(.numbers("channelBitmapBits", "channel bitmap bits", entry.channelBitmapPositions))
        }
        fields.append(
            .number("primaryChannelBitmap", "primary channel bitmap", entry.primaryChannelBitmap, hexDigits: 2))
        if let primary = entry.primaryChannels, !primary.isEmpty, let opClass {
            fields.append(.numbers("primaryChannels", "primary channel", primary, text: channelList(primary, opClass)))
        }
        if let aux = entry.auxiliaryChannelBitmap {
            fields.append(
                .number("auxiliaryChannelBitmap", "auxiliary channel bitmap", aux, hexDigits: 4))
            if let channels = entry.auxiliaryChannels, let opClass {
                fields.append(
                    .numbers(
                        "auxiliaryChannels", "auxiliary centre channels", channels, text: channelList(channels, opClass)
                    ))
            }
        }
        return fields
    }

    /// Channel numbers with their frequencies when there are a few (`36 (5180 MHz)`), else as runs (`1-11`).
    static func channelList(_ channels: [Int], _ opClass: GlobalOperatingClass) -> String {
        guard channels.count <= 4 else { return ReportField.ranges(channels) }
        return channels.map { "\($0) (\(opClass.frequency(ofChannel: $0)) MHz)" }.joined(separator: ", ")
    }

    static func scheduleEntries(_ key: String, _ label: String, _ entries: [ScheduleEntry]) -> ReportField {
        .list(
            key, label, item: "schedule entry",
            entries.map { [.number("mapID", "map ID", $0.mapID), timeBitmap($0.timeBitmap)] })
    }

    static func ndc(_ a: NDCAttribute) -> [ReportField] {
        [
            .string("ndcID", "NDC ID", a.ndcID.description),
            .flag("selected", "selected", a.selected),
            scheduleEntries("schedule", "schedule", a.schedule),
        ]
    }

    static func ndl(_ a: NDLAttribute) -> [ReportField] {
        var fields: [ReportField] = [
            .number("dialogToken", "dialog token", a.dialogToken),
            .number("type", "type", a.type.rawValue, text: "\(a.type.rawValue) (\(a.type))"),
            .number("status", "status", a.status.rawValue, text: "\(a.status.rawValue) (\(a.status))"),
            .number(
                "reasonCode", "reason code", a.reasonCode.rawValue, text: "\(a.reasonCode.rawValue) (\(a.reasonCode))"),
            .group(
                "control", "NDL control",
                [
                    .flag("peerIDPresent", "NDL peer ID present", a.peerID != nil),
                    .flag("immutableSchedulePresent", "immutable schedule present", a.immutableSchedule != nil),
                    .flag("ndcAttributePresent", "NDC attribute present", a.ndcAttributePresent),
                    .flag("qosAttributePresent", "NDL QoS attribute present", a.qosAttributePresent),
                    .flag("maxIdlePeriodPresent", "max idle period present", a.maxIdlePeriod != nil),
                    .number(
                        "ndlType", "NDL type", a.ndlTypeBit ? 1 : 0, text: a.ndlTypeBit ? "1 (P-NDL)" : "0 (S-NDL)"),
                    .number(
                        "setupReason", "NDL setup reason", a.setupReason,
                        text: "\(a.setupReason) ("
                            + (a.setupReason == 0 ? "NDP" : a.setupReason == 1 ? "FSD using GAS" : "reserved") + ")"),
                ]),
        ]
        if let peer = a.peerID { fields.append(.number("peerID", "NDL peer ID", peer)) }
        if let idle = a.maxIdlePeriod { fields.append(.number("maxIdlePeriod", "max idle period", idle)) }
        if let schedule = a.immutableSchedule {
            fields.append(scheduleEntries("immutableSchedule", "immutable schedule", schedule))
        }
        return fields
    }

    static func ndlQoS(_ a: NDLQoSAttribute) -> [ReportField] {
        [
            .number(
                "minimumTimeSlots", "minimum time slots", a.minimumTimeSlots,
                text: a.minimumTimeSlots == 0 ? "0 (no preference)" : String(a.minimumTimeSlots)),
            .number(
                "maximumLatency", "maximum latency", a.maximumLatency,
                text: a.maximumLatency == 0xFFFF ? "65535 (no preference)" : "\(a.maximumLatency) slots"),
        ]
    }

    static func unalignedSchedule(_ a: UnalignedScheduleAttribute) -> [ReportField] {
        var fields: [ReportField] = [
            .group(
                "attributeControl", "attribute control", raw: Int(a.control), digits: 4,
                [
                    .number("scheduleID", "schedule ID", a.scheduleID),
                    .number("sequenceID", "sequence ID", a.sequenceID),
                ]),
            .number("startingTime", "starting time", a.startingTime, text: "\(a.startingTime) µs (TSF)"),
            .number("duration", "duration", a.duration, text: "\(a.duration) µs"),
            .number("period", "period", a.period, text: a.period == 0 ? "0 (once)" : "\(a.period) µs"),
            .number(
                "countDown", "count down", a.countDown,
                text: a.countDown == 255 ? "255 (until changed)" : String(a.countDown)),
            .group(
                "ulwOverwrite", "ULW overwrite", raw: Int(a.overwrite),
                [
                    .flag("allMaps", "all maps", a.overwritesAllMaps),
                    .number("mapID", "map ID", a.overwriteMapID),
                ]),
        ]
        if let ulw = a.ulwControl {
            var children: [ReportField] = [
                .flag("channelAvailable", "channel available", ulw.channelAvailable),
                .number("rxNSS", "RX NSS", ulw.rxNSS),
            ]
            switch ulw.target {
            case .band(let band):
                children.append(.number("band", "band", band, text: "\(band) (\(NANBandID(rawValue: band)))"))
            case .channel(let entry): children.append(.group("channelEntry", "channel entry", channelEntry(entry)))
            }
            fields.append(.group("ulwControl", "ULW control", children))
        }
        return fields
    }
}

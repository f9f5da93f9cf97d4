@testable import NANWire

/// A small deterministic PRNG (SplitMix64) so generated values are the same on every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Generates valid random attribute values and frames for round-trip tests and the seed corpus.
struct ValueGenerator {
    var rng: SeededRandom
    init(seed: UInt64) { rng = SeededRandom(seed: seed) }

    mutating func u8() -> UInt8 { UInt8.random(in: 0...255, using: &rng) }
    mutating func u16() -> UInt16 { UInt16.random(in: 0...UInt16.max, using: &rng) }
    mutating func u32() -> UInt32 { UInt32.random(in: 0...UInt32.max, using: &rng) }
    mutating func u64() -> UInt64 { rng.next() }
    mutating func bool() -> Bool { Bool.random(using: &rng) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func bytes(_ range: ClosedRange<Int>) -> ArraySlice<UInt8> { (0..<int(range)).map { _ in u8() }[...] }
    mutating func maybe<T>(_ make: (inout ValueGenerator) -> T) -> T? { bool() ? make(&self) : nil }
    mutating func list<T>(_ range: ClosedRange<Int>, _ make: (inout ValueGenerator) -> T) -> [T] {
        (0..<int(range)).map { _ in make(&self) }
    }
    mutating func mac() -> MACAddress { MACAddress(u8(), u8(), u8(), u8(), u8(), u8()) }
    mutating func serviceID() -> ServiceID { ServiceID(u8(), u8(), u8(), u8(), u8(), u8()) }

    mutating func matchingFilter() -> MatchingFilter {
        // Elements of 0...8 bytes, at most 20 of them: always under 255 bytes.
        try! MatchingFilter(elements: list(0...20) { g in Array(g.bytes(0...8)) })
    }

    mutating func srf() -> ServiceResponseFilter {
        if bool() {
            return ServiceResponseFilter(include: bool(), addressSet: .addresses(list(0...10) { $0.mac() }))
        }
        let filter = try! BloomFilter(
            index: UInt8(int(0...3)), length: int(1...32), addresses: list(0...6) { $0.mac() })
        return ServiceResponseFilter(include: bool(), addressSet: .bloomFilter(filter))
    }

    mutating func sda() -> ServiceDescriptorAttribute {
        ServiceDescriptorAttribute(
            serviceID: serviceID(), instanceID: InstanceID(u8()), requestorInstanceID: InstanceID(u8()),
            controlType: ServiceDescriptorAttribute.ControlType(rawValue: UInt8(int(0...2)))!,
            discoveryRangeLimited: bool(), serviceIDRandomized: bool(), bindingBitmap: maybe { $0.u16() },
            matchingFilter: maybe { $0.matchingFilter() }, serviceResponseFilter: maybe { $0.srf() },
            serviceInfo: maybe { $0.bytes(0...255) })
    }

    mutating func sdea() -> ServiceDescriptorExtensionAttribute {
        let control = ServiceDescriptorExtensionAttribute.Control(rawValue: u16() & ~0x0300)
        return ServiceDescriptorExtensionAttribute(
            instanceID: InstanceID(u8()), control: control,
            rangeLimit: maybe { g in .init(ingress: g.u16(), egress: g.u16()) },
            serviceUpdateIndicator: maybe { $0.u8() },
            serviceInfo: maybe { g in
                .init(
                    oui: OUI(rawValue: g.u32()), protocolType: ServiceProtocolType(rawValue: g.u8()),
                    info: g.bytes(0...300))
            })
    }

    mutating func timeBitmap() -> TimeBitmap { TimeBitmap(control: u16(), bitmap: bytes(0...64)) }
    mutating func channel(aux: Bool) -> ChannelEntry {
        ChannelEntry(
            operatingClass: u8(), channelBitmap: u16(), primaryChannelBitmap: u8(),
            auxiliaryChannelBitmap: aux ? u16() : nil)
    }
    mutating func schedule() -> [ScheduleEntry] {
        list(0...4) { g in ScheduleEntry(mapID: UInt8(g.int(0...15)), timeBitmap: g.timeBitmap()) }
    }

    mutating func availabilityEntry() -> AvailabilityEntry {
        let list: AvailabilityEntry.BandChannelList?
        switch int(0...2) {
        case 0: list = nil
        case 1: list = .bands(self.list(0...15) { $0.u8() })
        default:
            let aux = bool()
            list = .channels(self.list(0...15) { $0.channel(aux: aux) })
        }
        return AvailabilityEntry(control: u16(), timeBitmap: maybe { $0.timeBitmap() }, bandChannels: list)
    }

    mutating func ndpType() -> NDPMessageType { NDPMessageType(rawValue: u8()) }
    mutating func ndpStatus() -> NDPStatus { NDPStatus(rawValue: u8()) }

    mutating func ndp() -> NDPAttribute {
        NDPAttribute(
            dialogToken: u8(), type: ndpType(), status: ndpStatus(), reasonCode: NANReasonCode(rawValue: u8()),
            initiatorNDI: mac(), ndpID: u8(), confirmRequired: bool(), securityPresent: bool(),
            publishID: maybe { InstanceID($0.u8()) }, responderNDI: maybe { $0.mac() },
            specificInfo: maybe { $0.bytes(0...40) })
    }

    mutating func ndpe() -> NDPExtensionAttribute {
        NDPExtensionAttribute(
            dialogToken: u8(), type: ndpType(), status: ndpStatus(), reasonCode: NANReasonCode(rawValue: u8()),
            initiatorNDI: mac(), ndpID: u8(), confirmRequired: bool(), securityPresent: bool(), gtkRequired: bool(),
            publishID: maybe { InstanceID($0.u8()) }, responderNDI: maybe { $0.mac() },
            tlvs: list(0...4) { g in NDPETLV(type: g.u8(), value: g.bytes(0...20)) })
    }

    mutating func ndl() -> NDLAttribute {
        NDLAttribute(
            dialogToken: u8(), type: ndpType(), status: ndpStatus(), reasonCode: NANReasonCode(rawValue: u8()),
            ndcAttributePresent: bool(), qosAttributePresent: bool(), ndlTypeBit: bool(),
            setupReason: UInt8(int(0...3)),
            peerID: maybe { $0.u8() }, maxIdlePeriod: maybe { $0.u16() }, immutableSchedule: maybe { $0.schedule() })
    }

    mutating func unaligned() -> UnalignedScheduleAttribute {
        UnalignedScheduleAttribute(
            control: u16(), startingTime: u32(), duration: u32(), period: u32(), countDown: u8(), overwrite: u8(),
            ulwControl: maybe { g in
                .init(
                    channelAvailable: g.bool(), rxNSS: UInt8(g.int(0...15)),
                    target: g.bool() ? .band(g.u8()) : .channel(g.channel(aux: g.bool())))
            })
    }

    mutating func npba() -> PairingBootstrappingAttribute {
        let type = PairingBootstrappingAttribute.BootstrappingType(rawValue: u8())
        let status = PairingBootstrappingAttribute.Status(rawValue: bool() ? 2 : u8())
        let comeback =
            status == .comeback
            ? PairingBootstrappingAttribute.Comeback(after: type == .response ? u16() : nil, cookie: bytes(0...16))
            : nil
        return PairingBootstrappingAttribute(
            dialogToken: u8(), type: type, status: status, reasonCode: NANReasonCode(rawValue: u8()),
            comeback: comeback, methods: .init(rawValue: u16()))
    }

    /// Any attribute kind, including unknown and vendor ones.
    mutating func attribute() -> NANAttribute {
        switch int(0...22) {
        case 0: return .masterIndication(.init(masterPreference: u8(), randomFactor: u8()))
        case 1:
            return .cluster(.init(anchorMasterRank: u64(), hopCount: u8(), anchorMasterBeaconTransmissionTime: u32()))
        case 2: return .serviceIDList(.init(serviceIDs: list(0...5) { $0.serviceID() }))
        case 3: return .serviceDescriptor(sda())
        case 4: return .serviceDescriptorExtension(sdea())
        case 5:
            return .deviceCapability(
                .init(
                    mapIDField: u8(), committedDWInfo: u16(), supportedBands: u8(), operationMode: u8(),
                    antennas: u8(), maxChannelSwitchTime: u16(), capabilities: u8()))
        case 6: return .ndp(ndp())
        case 7:
            return .availability(
                .init(sequenceID: u8(), control: u16(), entries: list(0...4) { $0.availabilityEntry() }))
        case 8: return .ndc(.init(ndcID: mac(), selected: bool(), schedule: schedule()))
        case 9: return .ndl(ndl())
        case 10: return .ndlQoS(.init(minimumTimeSlots: u8(), maximumLatency: u16()))
        case 11: return .unalignedSchedule(unaligned())
        case 12:
            return .elementContainer(
                .init(
                    mapIDField: u8(),
                    elements: list(0...5) { g in InformationElement(id: g.u8(), body: g.bytes(0...40)) }))
        case 13:
            return .cipherSuiteInfo(
                .init(
                    capabilities: u8(),
                    entries: list(0...6) { g in
                        .init(suite: NANCipherSuite(rawValue: g.u8()), publishID: InstanceID(g.u8()))
                    }))
        case 14:
            return .securityContextInfo(
                .init(
                    entries: list(0...3) { g in
                        .init(type: g.u8(), publishID: InstanceID(g.u8()), identifier: g.bytes(0...32))
                    }))
        case 15: return .sharedKeyDescriptor(.init(publishID: InstanceID(u8()), keyDescriptor: bytes(0...120)))
        case 16: return .subscribeServiceIDList(.init(serviceIDs: list(0...5) { $0.serviceID() }))
        case 17: return .ndpExtension(ndpe())
        case 18: return .identityResolution(.init(nonce: bytes(8...8), tag: bytes(8...8)))
        case 19: return .pairingBootstrapping(npba())
        case 20: return .vendorSpecific(.init(oui: OUI(rawValue: u32()), body: bytes(0...50)))
        case 21: return .deviceCapabilityExtension(.init(capabilityInfo: u16(), moreCapabilityInfo: bytes(0...4)))
        default:
            // An ID no typed decoder claims.
            let unused: [UInt8] = [0x04, 0x05, 0x06, 0x0c, 0x11, 0x16, 0x1a, 0x2d, 0x30, 0x7f, 0xfe]
            return .unknown(.init(id: NANAttributeID(unused[int(0...unused.count - 1)]), body: bytes(0...60)))
        }
    }

    mutating func sdf() -> ServiceDiscoveryFrame {
        ServiceDiscoveryFrame(isProtected: bool(), attributes: list(0...6) { $0.attribute() })
    }

    mutating func naf() -> NANActionFrame {
        NANActionFrame(
            isProtected: bool(), subtype: NANActionSubtype(rawValue: u8()), attributes: list(0...6) { $0.attribute() })
    }

    mutating func managementFrame() -> NANManagementFrame {
        let header = ManagementHeader(
            frameControl: bool() ? 0x00D0 : 0x08E0, duration: u16(), destination: mac(), source: mac(),
            bssid: mac(), sequenceControl: u16())
        return NANManagementFrame(header: header, body: bool() ? .serviceDiscovery(sdf()) : .action(naf()))
    }
}

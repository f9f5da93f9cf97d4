import Testing
@testable import NANWire

/// Checks bytes -> value and value -> bytes, both for the concrete type and through `NANAttribute`.
func expectVector<A: NANAttributeBody>(
    _ bytes: [UInt8], _ value: A, wrap: (A) -> NANAttribute,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(try A(decoding: bytes) == value, sourceLocation: sourceLocation)
    #expect(try value.encoded() == bytes, sourceLocation: sourceLocation)
    #expect(try decodeAttribute(bytes) == wrap(value), sourceLocation: sourceLocation)
    #expect(try encodeAttribute(wrap(value)) == bytes, sourceLocation: sourceLocation)
}

/// Checks that decoding `bytes` as an `A` fails with `kind` (at `offset`, when one is given).
func expectError<A: NANAttributeBody>(
    _ type: A.Type, _ bytes: [UInt8], _ kind: NANWireError.Kind, at offset: Int? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectError(kind, at: offset, sourceLocation: sourceLocation) { _ = try A(decoding: bytes) }
}

/// Checks that `body` throws a ``NANWireError`` of `kind` (at `offset`, when one is given).
func expectError(
    _ kind: NANWireError.Kind, at offset: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(kind) error", sourceLocation: sourceLocation)
    } catch let error as NANWireError {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        if let offset { #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation) }
    } catch {
        Issue.record("expected a NANWireError, got \(error)", sourceLocation: sourceLocation)
    }
}

let ndi1 = mac("02:00:00:00:01:01")
let ndi2 = mac("02:00:00:00:02:01")
let slotBitmap = TimeBitmap(control: 0x0018, bitmap: [0x0e, 0, 0, 0][...])

@Suite struct DiscoveryAttributeVectorTests {
    @Test func masterIndication() throws {
        try expectVector(
            hex("00 02 00 80 11"), MasterIndicationAttribute(masterPreference: 0x80, randomFactor: 0x11),
            wrap: NANAttribute.masterIndication)
        expectError(MasterIndicationAttribute.self, hex("00 01 00 80"), .truncated, at: 4)
    }

    @Test func cluster() throws {
        try expectVector(
            hex("01 0d 00 | 00 01 00 00 00 02 11 80 | 02 | 78 56 34 12"),
            ClusterAttribute(
                anchorMasterRank: 0x8011_0200_0000_0100, hopCount: 2, anchorMasterBeaconTransmissionTime: 0x1234_5678),
            wrap: NANAttribute.cluster)
        expectError(ClusterAttribute.self, hex("01 0e 00 00 01 00 00 00 02 11 80 02 78 56 34 12 00"), .overlong, at: 16)
    }

    @Test func serviceIDLists() throws {
        let ids = [ServiceID(hex: "c57ed9d5d167")!, ServiceID(1, 2, 3, 4, 5, 6)]
        try expectVector(
            hex("02 0c 00 c5 7e d9 d5 d1 67 01 02 03 04 05 06"), ServiceIDListAttribute(serviceIDs: ids),
            wrap: NANAttribute.serviceIDList)
        try expectVector(
            hex("28 06 00 01 02 03 04 05 06"), SubscribeServiceIDListAttribute(serviceIDs: [ids[1]]),
            wrap: NANAttribute.subscribeServiceIDList)
        expectError(ServiceIDListAttribute.self, hex("02 07 00 01 02 03 04 05 06 07"), .malformed, at: 3)
    }

    @Test func vendorSpecific() throws {
        try expectVector(
            hex("dd 05 00 00 10 18 01 02"), VendorSpecificAttribute(oui: OUI(rawValue: 0x001018), body: [1, 2][...]),
            wrap: NANAttribute.vendorSpecific)
        expectError(VendorSpecificAttribute.self, hex("dd 02 00 00 10"), .truncated, at: 3)
    }

    @Test func unknownAttributeRoundTripsUntouched() throws {
        let bytes = hex("1a 03 00 03 00 09")  // Ranging Information: not typed
        #expect(
            try decodeAttribute(bytes) == .unknown(UnknownAttribute(id: NANAttributeID(0x1a), body: [3, 0, 9][...])))
        #expect(try encodeAttribute(decodeAttribute(bytes)) == bytes)
    }

    @Test func deviceCapabilityExtension() throws {
        let value = DeviceCapabilityExtensionAttribute(capabilityInfo: 0x0303)
        try expectVector(hex("2a 02 00 03 03"), value, wrap: NANAttribute.deviceCapabilityExtension)
        #expect(value.pairingSetupSupported && value.npkNIKCachingSupported && value.regulatoryInfo == 1)
        try expectVector(
            hex("2a 03 00 00 01 07"),
            DeviceCapabilityExtensionAttribute(capabilityInfo: 0x0100, moreCapabilityInfo: [7][...]),
            wrap: NANAttribute.deviceCapabilityExtension)
        expectError(DeviceCapabilityExtensionAttribute.self, hex("2a 01 00 03"), .truncated, at: 3)
    }
}

@Suite struct DataPathAttributeVectorTests {
    @Test func deviceCapability() throws {
        try expectVector(
            hex("0f 09 00 | 00 | 12 00 | 14 | 01 | 22 | 00 04 | 08"),
            DeviceCapabilityAttribute(
                committedDWInfo: 0x0012, supportedBands: 0x14, operationMode: 1, antennas: 0x22,
                maxChannelSwitchTime: 1024, capabilities: 0x08),
            wrap: NANAttribute.deviceCapability)
        expectError(DeviceCapabilityAttribute.self, hex("0f 08 00 00 12 00 14 01 22 00 04"), .truncated, at: 11)
    }

    @Test func ndpRequestWithPublishID() throws {
        try expectVector(
            hex("10 0c 00 | 01 | 00 | 00 | 02 00 00 00 01 01 | 01 | 0c | 05"),
            NDPAttribute(
                dialogToken: 1, type: .request, initiatorNDI: ndi1, ndpID: 1, securityPresent: true, publishID: 5),
            wrap: NANAttribute.ndp)
    }

    @Test func ndpResponseWithResponderNDIAndSpecificInfo() throws {
        try expectVector(
            hex("10 13 00 | 01 | 11 | 00 | 02 00 00 00 01 01 | 01 | 31 | 02 00 00 00 02 01 | aa bb"),
            NDPAttribute(
                dialogToken: 1, type: .response, status: .accepted, initiatorNDI: ndi1, ndpID: 1,
                confirmRequired: true, responderNDI: ndi2, specificInfo: [0xaa, 0xbb][...]),
            wrap: NANAttribute.ndp)
        expectError(NDPAttribute.self, hex("10 0c 00 01 00 00 02 00 00 00 01 01 01 18 05"), .truncated, at: 15)
    }

    @Test func ndpTerminateRejected() throws {
        try expectVector(
            hex("10 0b 00 | 09 | 24 | 0a | 02 00 00 00 01 01 | 03 | 00"),
            NDPAttribute(
                dialogToken: 9, type: .terminate, status: .rejected, reasonCode: .ndpRejected, initiatorNDI: ndi1,
                ndpID: 3),
            wrap: NANAttribute.ndp)
    }

    @Test func ndpExtensionWithTLVs() throws {
        let iid: [UInt8] = [0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55]
        try expectVector(
            hex(
                "29 1d 00 | 01 | 00 | 00 | 02 00 00 00 01 01 | 01 | 28 | 05 | 00 08 00 02 11 22 ff fe 33 44 55 | 01 03 00 aa bb cc"
            ),
            NDPExtensionAttribute(
                dialogToken: 1, type: .request, initiatorNDI: ndi1, ndpID: 1, gtkRequired: true, publishID: 5,
                tlvs: [
                    NDPETLV(type: NDPETLV.ipv6LinkLocal, value: iid[...]),
                    NDPETLV(type: NDPETLV.serviceInfo, value: [0xaa, 0xbb, 0xcc][...]),
                ]),
            wrap: NANAttribute.ndpExtension)
        expectError(
            NDPExtensionAttribute.self, hex("29 0f 00 01 00 00 02 00 00 00 01 01 01 00 00 08 00 02"), .truncated, at: 17
        )
    }

    @Test func availabilityWithTimeBitmapChannelsAndBands() throws {
        let bytes = hex(
            """
            12 1a 00 | 01 | 11 00
            | 0e 00 | 01 12 | 18 00 04 0e 00 00 00 | 11 51 20 00 00
            | 05 00 | 02 00 | 20 02 04
            """)
        let value = NANAvailabilityAttribute(
            sequenceID: 1, control: 0x0011,
            entries: [
                AvailabilityEntry(
                    control: 0x0201, timeBitmap: slotBitmap,
                    bandChannels: .channels([
                        ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0)
                    ])),
                AvailabilityEntry(control: 0x0002, bandChannels: .bands([2, 4])),
            ])
        try expectVector(bytes, value, wrap: NANAttribute.availability)
        #expect(value.mapID == 1)
        #expect(value.entries[0].rxNSS == 2 && value.entries[0].availabilityType == 1)
        #expect(slotBitmap.period == 3 && slotBitmap.bitDuration == 0 && slotBitmap.startOffset == 0)
    }

    @Test func availabilityNonContiguousChannelsCarryAuxiliaryBitmaps() throws {
        let bytes = hex("12 0e 00 | 02 | 00 00 | 09 00 | 01 00 | 13 80 01 00 01 04 00")
        let value = NANAvailabilityAttribute(
            sequenceID: 2, control: 0,
            entries: [
                AvailabilityEntry(
                    control: 1,
                    bandChannels: .channels([
                        ChannelEntry(
                            operatingClass: 0x80, channelBitmap: 1, primaryChannelBitmap: 1, auxiliaryChannelBitmap: 4)
                    ]))
            ])
        try expectVector(bytes, value, wrap: NANAttribute.availability)
    }

    @Test func availabilityRejectsBadEntries() {
        // Band list announces 2 bands but carries 3 bytes.
        expectError(
            NANAvailabilityAttribute.self, hex("12 0b 00 01 00 00 | 06 00 02 00 20 02 04 07"), .malformed, at: 10)
        // Entry length shorter than its control field.
        expectError(NANAvailabilityAttribute.self, hex("12 05 00 01 00 00 01 00"), .outOfRange, at: 6)
        // Entry length past the attribute.
        expectError(NANAvailabilityAttribute.self, hex("12 07 00 01 00 00 09 00 01 00"), .overlong, at: 6)
        // Channel list announces one entry, holds half of one.
        expectError(NANAvailabilityAttribute.self, hex("12 0a 00 01 00 00 05 00 01 00 11 51 20"), .truncated)
    }

    @Test func ndc() throws {
        try expectVector(
            hex("13 0f 00 | 50 6f 9a 01 00 00 | 01 | 01 18 00 04 0e 00 00 00"),
            NDCAttribute(
                ndcID: mac("50:6f:9a:01:00:00"), selected: true,
                schedule: [ScheduleEntry(mapID: 1, timeBitmap: slotBitmap)]),
            wrap: NANAttribute.ndc)
        expectError(NDCAttribute.self, hex("13 0b 00 50 6f 9a 01 00 00 01 01 18 00 04"), .truncated, at: 14)
    }

    @Test func ndlWithPeerIDIdlePeriodAndImmutableSchedule() throws {
        try expectVector(
            hex("14 0f 00 | 01 | 00 | 00 | 13 | 07 | 2c 01 | 01 18 00 04 0e 00 00 00"),
            NDLAttribute(
                dialogToken: 1, type: .request, peerID: 7, maxIdlePeriod: 300,
                immutableSchedule: [ScheduleEntry(mapID: 1, timeBitmap: slotBitmap)]),
            wrap: NANAttribute.ndl)
        try expectVector(
            hex("14 04 00 | 02 | 11 | 00 | 6c"),
            NDLAttribute(
                dialogToken: 2, type: .response, status: .accepted, ndcAttributePresent: true,
                qosAttributePresent: true, ndlTypeBit: true, setupReason: 1),
            wrap: NANAttribute.ndl)
        expectError(NDLAttribute.self, hex("14 05 00 01 00 00 10 2c"), .truncated, at: 7)
    }

    @Test func ndlQoS() throws {
        try expectVector(
            hex("15 03 00 04 ff ff"), NDLQoSAttribute(minimumTimeSlots: 4, maximumLatency: 0xffff),
            wrap: NANAttribute.ndlQoS)
        expectError(NDLQoSAttribute.self, hex("15 02 00 04 ff"), .truncated, at: 4)
    }

    @Test func unalignedScheduleWithChannelAndBand() throws {
        let head = hex("01 03 | 00 10 00 00 | 00 04 00 00 | 00 00 08 00 | ff | 01")
        let base = UnalignedScheduleAttribute(
            control: 0x0301, startingTime: 0x1000, duration: 0x400, period: 0x80000, countDown: 255, overwrite: 1)
        var withChannel = base
        withChannel.ulwControl = .init(
            channelAvailable: true, rxNSS: 2,
            target: .channel(ChannelEntry(operatingClass: 115, channelBitmap: 1, primaryChannelBitmap: 0)))
        try expectVector(
            hex("17 15 00") + head + hex("15 73 01 00 00"), withChannel, wrap: NANAttribute.unalignedSchedule)
        var withBand = base
        withBand.ulwControl = .init(channelAvailable: true, rxNSS: 0, target: .band(2))
        try expectVector(hex("17 12 00") + head + hex("04 02"), withBand, wrap: NANAttribute.unalignedSchedule)
        try expectVector(hex("17 10 00") + head, base, wrap: NANAttribute.unalignedSchedule)
        expectError(UnalignedScheduleAttribute.self, hex("17 12 00") + head + hex("03 02"), .outOfRange, at: 19)
        expectError(UnalignedScheduleAttribute.self, hex("17 0f 00") + head.dropLast(), .truncated, at: 18)
    }

    @Test func elementContainer() throws {
        try expectVector(
            hex("1d 07 00 | 00 | 2d 02 aa bb | dd 00"),
            ElementContainerAttribute(elements: [
                InformationElement(id: 0x2d, body: [0xaa, 0xbb][...]), InformationElement(id: 0xdd, body: [][...]),
            ]),
            wrap: NANAttribute.elementContainer)
        expectError(ElementContainerAttribute.self, hex("1d 04 00 00 2d 05 aa"), .truncated, at: 6)
    }
}

@Suite struct SecurityAttributeVectorTests {
    @Test func cipherSuiteInfo() throws {
        try expectVector(
            hex("22 05 00 | 00 | 01 05 | 02 05"),
            CipherSuiteInfoAttribute(
                capabilities: 0,
                entries: [.init(suite: .skCCM128, publishID: 5), .init(suite: .skGCM256, publishID: 5)]),
            wrap: NANAttribute.cipherSuiteInfo)
        expectError(CipherSuiteInfoAttribute.self, hex("22 02 00 00 01"), .malformed, at: 4)
    }

    @Test func securityContextInfo() throws {
        let pmkid = [UInt8](0..<16)
        try expectVector(
            hex("23 14 00 | 10 00 | 01 | 05 | 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f"),
            SecurityContextInfoAttribute(entries: [
                .init(type: SecurityContextInfoAttribute.Entry.ndPMKID, publishID: 5, identifier: pmkid[...])
            ]),
            wrap: NANAttribute.securityContextInfo)
        expectError(SecurityContextInfoAttribute.self, hex("23 06 00 10 00 01 05 00 01"), .truncated, at: 7)
    }

    @Test func sharedKeyDescriptor() throws {
        try expectVector(
            hex("24 04 00 05 02 01 02"), SharedKeyDescriptorAttribute(publishID: 5, keyDescriptor: [2, 1, 2][...]),
            wrap: NANAttribute.sharedKeyDescriptor)
        expectError(SharedKeyDescriptorAttribute.self, hex("24 00 00"), .truncated, at: 3)
    }

    @Test func identityResolution() throws {
        let nonce = [UInt8](1...8), tag = [UInt8](9...16)
        try expectVector(
            hex("2b 11 00 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10"),
            IdentityResolutionAttribute(nonce: nonce[...], tag: tag[...]), wrap: NANAttribute.identityResolution)
        expectError(
            IdentityResolutionAttribute.self, hex("2b 11 00 01 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10"),
            .outOfRange, at: 3)
        expectError(IdentityResolutionAttribute.self, hex("2b 09 00 00 01 02 03 04 05 06 07 08"), .truncated, at: 12)
    }

    @Test func pairingBootstrappingAdvertise() throws {
        try expectVector(
            hex("2c 05 00 00 00 00 03 00"),
            PairingBootstrappingAttribute(dialogToken: 0, type: .advertise, methods: [.opportunistic, .pinDisplay]),
            wrap: NANAttribute.pairingBootstrapping)
    }

    @Test func pairingBootstrappingComebackResponseAndRequest() throws {
        try expectVector(
            hex("2c 0c 00 | 07 | 22 | 00 | e8 03 | 04 de ad be ef | 00 00"),
            PairingBootstrappingAttribute(
                dialogToken: 7, type: .response, status: .comeback,
                comeback: .init(after: 1000, cookie: [0xde, 0xad, 0xbe, 0xef][...]), methods: []),
            wrap: NANAttribute.pairingBootstrapping)
        try expectVector(
            hex("2c 0a 00 | 07 | 21 | 00 | 04 de ad be ef | 20 00"),
            PairingBootstrappingAttribute(
                dialogToken: 7, type: .request, status: .comeback,
                comeback: .init(after: nil, cookie: [0xde, 0xad, 0xbe, 0xef][...]), methods: .pinKeypad),
            wrap: NANAttribute.pairingBootstrapping)
        expectError(PairingBootstrappingAttribute.self, hex("2c 06 00 07 22 00 e8 03 09"), .truncated, at: 9)
    }

    @Test func pairingBootstrappingRefusesInconsistentComeback() {
        let bad = PairingBootstrappingAttribute(
            dialogToken: 1, type: .request, status: .accepted,
            comeback: .init(after: nil, cookie: [][...]), methods: [])
        #expect(throws: NANWireError.self) { _ = try bad.encoded() }
    }
}

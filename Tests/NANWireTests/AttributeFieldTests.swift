import Testing
@testable import NANWire

/// The typed accessors that split attribute fields into their subfields, checked on hand-made values whose
/// bits are worked out in the comments, and the decoders of nested layouts on malformed input (a typed
/// error, never a trap).
@Suite struct AttributeFieldTests {
    // MARK: Device Capability

    @Test func deviceCapabilitySplitsMapIDCommittedDWOperationModeAntennasAndCapabilities() throws {
        // Map ID 0x07: bit 0 set, map 3. Committed DW 0x0c8a: 2.4 GHz code 2, 5 GHz code 1, overwrite maps 2 and 3.
        // Bands 0x94: 2.4, 5 and 6 GHz. Operation mode 0x0d: VHT, 160, paging. Antennas 0x31: TX 1, RX 3.
        let a = try DeviceCapabilityAttribute(decoding: hex("0f 0900 07 8a0c 94 0d 31 e803 15"))
        #expect(a.appliesToOneMapOnly)
        #expect(a.mapID == 3)
        #expect(a.committedDW.wakeInterval2_4GHz == 2)
        #expect(a.committedDW.wakeInterval5GHz == 1)
        #expect(a.committedDW.overwriteMapID2_4GHz == 2)
        #expect(a.committedDW.overwriteMapID5GHz == 3)
        #expect(a.bands == [.band2_4GHz, .band5GHz, .band6GHz])
        #expect(a.operation == [.vht, .width160, .pagingNDL])
        #expect(a.operation.phyMode == "VHT")
        #expect(a.txAntennas == 1 && a.rxAntennas == 3)
        #expect(a.maxChannelSwitchTime == 1000)
        #expect(a.capabilityFlags == [.dfsMaster, .simultaneousNDPDataReception, .s3Supported])
    }

    @Test func dwWakeIntervalCodesOneToFiveMeanEveryPowerOfTwoDWs() {
        typealias Info = DeviceCapabilityAttribute.CommittedDWInfo
        #expect((0...7).map { Info.dwsBetweenWakes(UInt8($0)) } == [nil, 1, 2, 4, 8, 16, nil, nil])
    }

    @Test func phyModeIsHEWithBit4EvenWithoutTheVHTBit() {
        #expect(DeviceCapabilityAttribute.OperationMode(rawValue: 0x10).phyMode == "HE")
        #expect(DeviceCapabilityAttribute.OperationMode(rawValue: 0x00).phyMode == "HT")
    }

    // MARK: NAN Availability

    @Test func availabilityControlAndEntryControlSplitIntoNamedSubfields() throws {
        // Control 0x00a2: map 2, potential changed, NDC changed. Entry control 0x0365: committed and
        // conditional, usage preference 0, utilization 3, RX NSS 3, no time bitmap; bands 2.4 and 5 GHz.
        let a = try NANAvailabilityAttribute(decoding: hex("12 0a00 05 a200 0500 6503 20 02 04"))
        #expect(a.mapID == 2)
        #expect(!a.committedChanged && a.potentialChanged && !a.publicAvailabilityChanged && a.ndcChanged)
        let entry = try #require(a.entries.first)
        #expect(entry.types == [.committed, .conditional])
        #expect(entry.types.names == ["committed", "conditional"])
        #expect(entry.usagePreference == 0)
        #expect(entry.utilization == 3)
        #expect(entry.utilizationPercent == 60)
        #expect(entry.rxNSS == 3)
        #expect(entry.bandChannels == .bands([2, 4]))
    }

    @Test func unknownUtilizationHasNoPercentage() {
        #expect(AvailabilityEntry(control: 7 << 5).utilizationPercent == nil)
    }

    @Test func timeBitmapGivesDurationPeriodOffsetAndTheSlotNumbers() {
        // Control 0x00d1: duration code 1 (32 TU), period code 2 (256 TU), start offset 3 (48 TU).
        let bitmap = TimeBitmap(control: 0x00d1, bitmap: [0x81, 0x00, 0x02][...])
        #expect(bitmap.bitDurationTU == 32)
        #expect(bitmap.periodTU == 256)
        #expect(bitmap.startOffsetTU == 48)
        #expect(bitmap.slots == [0, 7, 17])
        #expect(TimeBitmap(control: 0, bitmap: [][...]).periodTU == nil, "period 0: the bitmap does not repeat")
    }

    // MARK: channel entries

    @Test func channelBitmapNamesTheChannelsOfItsOperatingClass() {
        #expect(ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0).channels == [6])
        #expect(
            ChannelEntry(operatingClass: 115, channelBitmap: 0x000f, primaryChannelBitmap: 0).channels == [
                36, 40, 44, 48,
            ])
        #expect(ChannelEntry(operatingClass: 125, channelBitmap: 0x0010, primaryChannelBitmap: 0).channels == [165])
    }

    @Test func primaryBitmapPicksThe20MHzChannelInsideAWideBlock() {
        // 80 MHz block centred on 42 (36-48): bit 0 is 36, bit 2 is 44. 160 MHz block on 50 (36-64): bit 7 is 64.
        #expect(
            ChannelEntry(operatingClass: 128, channelBitmap: 0x0001, primaryChannelBitmap: 0x01).primaryChannels == [36]
        )
        #expect(
            ChannelEntry(operatingClass: 128, channelBitmap: 0x0001, primaryChannelBitmap: 0x04).primaryChannels == [44]
        )
        #expect(
            ChannelEntry(operatingClass: 129, channelBitmap: 0x0001, primaryChannelBitmap: 0x80).primaryChannels == [64]
        )
        #expect(ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0).primaryChannels == [])
    }

    @Test func channelBitsPastTheClassOrAnUnknownClassNameNoChannels() {
        #expect(ChannelEntry(operatingClass: 115, channelBitmap: 0x0010, primaryChannelBitmap: 0).channels == nil)
        let unknown = ChannelEntry(operatingClass: 200, channelBitmap: 0x0009, primaryChannelBitmap: 0)
        #expect(unknown.channels == nil)
        #expect(unknown.channelBitmapPositions == [0, 3])
    }

    @Test func channelFrequenciesFollowTheBand() throws {
        #expect(try #require(GlobalOperatingClass(81)).frequency(ofChannel: 6) == 2437)
        #expect(try #require(GlobalOperatingClass(82)).frequency(ofChannel: 14) == 2484)
        #expect(try #require(GlobalOperatingClass(128)).frequency(ofChannel: 42) == 5210)
        #expect(try #require(GlobalOperatingClass(133)).frequency(ofChannel: 7) == 5985)
        #expect(GlobalOperatingClass(128)?.description == "5 GHz, 80 MHz")
        #expect(GlobalOperatingClass(130)?.description == "5 GHz, 80+80 MHz")
    }

    @Test func auxiliaryBitmapNamesTheSecond80MHzBlock() {
        let entry = ChannelEntry(
            operatingClass: 130, channelBitmap: 0x0001, primaryChannelBitmap: 0x02, auxiliaryChannelBitmap: 0x0020)
        #expect(entry.channels == [42])
        #expect(entry.primaryChannels == [40])
        #expect(entry.auxiliaryChannels == [155])
    }

    // MARK: security

    @Test func cipherSuitesHaveTheirSpecificationNames() {
        #expect(
            (1...8).map { NANCipherSuite(rawValue: UInt8($0)).description } == [
                "NCS-SK-128", "NCS-SK-256", "NCS-PK-2WDH-128", "NCS-PK-2WDH-256",
                "NCS-GTK-CCMP-128", "NCS-GTK-GCMP-256", "NCS-PK-PASN-128", "NCS-PK-PASN-256",
            ])
        #expect(NANCipherSuite(rawValue: 9).description == "cipher suite 9")
    }

    @Test func cipherSuiteCapabilitiesSplitIntoReplayCountersGTKSupportAndBIPCipher() {
        // 0x1b: 16 ND-TKSA counters, GTK support 1, 16 GTKSA counters, BIP-GMAC-256.
        let c = CipherSuiteInfoAttribute.Capabilities(rawValue: 0x1b)
        #expect(c.ndTKSAReplayCounters == 16)
        #expect(c.gtkSupport == 1)
        #expect(c.gtkSupportDescription == "GTK and IGTK")
        #expect(c.gtksaReplayCounters == 16)
        #expect(c.usesBIPGMAC256)
        let none = CipherSuiteInfoAttribute.Capabilities(rawValue: 0)
        #expect(none.ndTKSAReplayCounters == 4 && none.gtkSupportDescription == "none" && !none.usesBIPGMAC256)
    }

    @Test func deviceCapabilityExtensionNamesTheRegulatoryInfoAndPairingBits() throws {
        // 0x0305: regulatory info present, value 2 (very low power AP); pairing setup and NPK/NIK caching.
        let a = try DeviceCapabilityExtensionAttribute(decoding: hex("2a 0200 05 03"))
        #expect(a.regulatoryInfoPresent)
        #expect(a.regulatoryInfo == 2)
        #expect(DeviceCapabilityExtensionAttribute.regulatoryInfoName(2) == "very low power AP")
        #expect(a.pairingSetupSupported && a.npkNIKCachingSupported)
        #expect(a.unnamedCapabilityBits == 0)
    }

    @Test func keyDescriptorMICLengthFollowsTheSuiteOrTheBytes() throws {
        let descriptor = RSNKeyDescriptor(
            keyInformation: [.pairwise, .mic], replayCounter: 2, nonce: Array(repeating: 7, count: 32),
            micLength: 24, keyData: [1, 2, 3])
        let attribute = try SharedKeyDescriptorAttribute(publishID: 1, descriptor: descriptor)
        #expect(try attribute.decodedKeyDescriptor(suite: nil).mic.count == 24, "only 24 lines the key data length up")
        #expect(try attribute.decodedKeyDescriptor(suite: .skGCM256) == descriptor)
        #expect(throws: NANWireError.self) { try attribute.decodedKeyDescriptor(suite: .skCCM128) }
        #expect(NANCipherSuite.gtkCCMP128.keyDescriptorMICLength == nil)
    }

    // MARK: data path

    @Test func ndpeTLVsGiveTheInterfaceIdentifierAndServiceInfo() {
        let iid = NDPETLV(type: NDPETLV.ipv6LinkLocal, value: [0, 1, 2, 3, 4, 5, 6, 7][...])
        #expect(iid.interfaceIdentifier.map(Array.init) == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(iid.serviceInfoValue == nil)
        let info = NDPETLV(type: NDPETLV.serviceInfo, value: [0x50, 0x6f, 0x9a, 0x02, 0xaa][...])
        #expect(info.serviceInfoValue?.oui == .wifiAlliance)
        #expect(info.serviceInfoValue?.protocolType == .generic)
        #expect(info.serviceInfoValue.map { Array($0.info) } == [0xaa])
        #expect(
            NDPETLV(type: NDPETLV.serviceInfo, value: [0x50, 0x6f][...]).serviceInfoValue == nil,
            "shorter than OUI and type")
    }

    @Test func ndpTypeStatusAndReasonHaveNames() {
        #expect(NDPMessageType.securityInstall.description == "security install")
        #expect(NDPStatus.rejected.description == "rejected")
        #expect(NANReasonCode.invalidAvailability.description == "invalid availability")
        #expect(NANReasonCode(rawValue: 99).description == "reason 99")
    }

    // MARK: elements

    @Test func htAndVHTCapabilitiesOfTheWrongLengthAreTypedErrors() {
        #expect(throws: NANWireError.self) { try HTCapabilities(body: [0x72, 0x10][...]) }
        #expect(throws: NANWireError.self) { try VHTCapabilities(body: [UInt8](repeating: 0, count: 13)[...]) }
    }

    @Test func vhtMCSMapGivesTheHighestMCSPerStreamUpToTheLastSupported() {
        // Streams 1-2 MCS 0-9 (2), stream 3 MCS 0-7 (0), the rest not supported (3): 0xffc0 | 0b00_10_10 → 0xffca.
        #expect(VHTCapabilities.maximumMCS(perStream: 0xffca) == [9, 9, 7])
        #expect(VHTCapabilities.maximumMCS(perStream: 0xffff) == [])
    }

    @Test func elementContainerMapIDIsNilWithoutBit0() {
        #expect(ElementContainerAttribute(mapIDField: 0x00, elements: []).mapID == nil)
        #expect(ElementContainerAttribute(mapIDField: 0x05, elements: []).mapID == 2)
    }
}

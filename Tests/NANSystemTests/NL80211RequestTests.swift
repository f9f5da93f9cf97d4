import NANWire
@testable import NANSystem
import Testing

private func attributes(_ request: NL80211Request) throws -> NetlinkAttributes {
    try NetlinkAttributes(parsing: request.attributes)
}

private let peer = MACAddress(bytes: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55])!
private let wdev = WirelessDeviceID(rawValue: 0x1_0000_0002)

@Suite struct NL80211RequestTests {
    @Test func startNANWithDefaultsSendsPreferenceAndNotifyDW() throws {
        let request = try NL80211Request.startNAN(wdev, NANConfiguration(masterPreference: 10))
        #expect(request.command == .startNan)
        #expect(request.callName == "NL80211_CMD_START_NAN")
        // WDEV u64, MASTER_PREF u8, NAN_CONFIG { NOTIFY_DW }.
        #expect(
            request.attributes == [
                12, 0, 153, 0, 2, 0, 0, 0, 1, 0, 0, 0,
                5, 0, 238, 0, 10, 0, 0, 0,
                8, 0, 0x56, 0x81, 4, 0, 8, 0,
            ])
    }

    @Test func startNANCarriesClusterBandsAndBandConfigurations() throws {
        let cluster = try #require(MACAddress(bytes: [0x50, 0x6f, 0x9a, 0x01, 0xab, 0xcd]))
        let configuration = NANConfiguration(
            masterPreference: 50, bands: [.band2GHz, .band5GHz], clusterID: cluster,
            bandConfigurations: [
                NANBandConfiguration(band: .band2GHz, rssiClose: -55, wakeDiscoveryWindowInterval: 1),
                NANBandConfiguration(band: .band5GHz, frequency: .nan5GHzHigh, disableScan: true),
            ],
            scanPeriodSeconds: 10, scanDwellTimeTU: 100, discoveryBeaconIntervalTU: 100, notifyDiscoveryWindows: false)
        let parsed = try attributes(try .startNAN(wdev, configuration))
        #expect(try parsed.integer(NL80211Attribute.bands, as: UInt32.self) == 0b11)
        let config = try #require(try parsed.nested(NL80211Attribute.nanConfig))
        #expect(config.bytes(NL80211NANConfigAttribute.clusterId) == cluster.bytes)
        #expect(!config.has(NL80211NANConfigAttribute.notifyDw))
        #expect(try config.integer(NL80211NANConfigAttribute.scanPeriod, as: UInt16.self) == 10)
        #expect(try config.integer(NL80211NANConfigAttribute.scanDwellTime, as: UInt16.self) == 100)
        #expect(try config.integer(NL80211NANConfigAttribute.discoveryBeaconInterval, as: UInt8.self) == 100)
        let bands = try #require(config.first(NL80211NANConfigAttribute.bandConfigs)).nestedArray()
        #expect(bands.count == 2)
        #expect(try bands[0].integer(NL80211NANBandConfigAttribute.band, as: UInt8.self) == 0)
        #expect(try bands[0].integer(NL80211NANBandConfigAttribute.rssiClose, as: Int8.self) == -55)
        #expect(try bands[0].integer(NL80211NANBandConfigAttribute.wakeDw, as: UInt8.self) == 1)
        #expect(try bands[1].integer(NL80211NANBandConfigAttribute.freq, as: UInt16.self) == 5745)
        #expect(bands[1].has(NL80211NANBandConfigAttribute.disableScan))
    }

    @Test func changeNANConfigurationLeavesOutTheClusterID() throws {
        let cluster = try #require(MACAddress(bytes: [0x50, 0x6f, 0x9a, 0x01, 0, 1]))
        let request = try NL80211Request.changeNANConfiguration(wdev, NANConfiguration(clusterID: cluster))
        #expect(request.command == .changeNanConfig)
        let config = try #require(try attributes(request).nested(NL80211Attribute.nanConfig))
        #expect(!config.has(NL80211NANConfigAttribute.clusterId))
    }

    @Test func newNANInterfaceIsOwnedBySocketWithNameTypeAndAddress() throws {
        let request = try NL80211Request.newInterface(
            wiphy: WiphyIndex(rawValue: 1), name: "nan0", type: .nan,
            address: peer, ownedBySession: true)
        let parsed = try attributes(request)
        #expect(try parsed.integer(NL80211Attribute.wiphy, as: UInt32.self) == 1)
        #expect(parsed.string(NL80211Attribute.ifname) == "nan0")
        #expect(try parsed.integer(NL80211Attribute.iftype, as: UInt32.self) == 12)
        #expect(parsed.bytes(NL80211Attribute.mac) == peer.bytes)
        #expect(parsed.has(NL80211Attribute.socketOwner))
    }

    @Test func wiphyDumpAsksForTheSplitFormat() throws {
        let request = try NL80211Request.getWiphyDump()
        #expect(request.dump)
        #expect(try attributes(request).has(NL80211Attribute.splitWiphyDump))
    }

    @Test func frameRegistrationAndTransmissionCarryTheirAttributes() throws {
        let registration = try attributes(
            try .registerFrame(wdev, type: .action, prefix: NANFramePrefix.serviceDiscovery))
        #expect(try registration.integer(NL80211Attribute.frameType, as: UInt16.self) == 0x00d0)
        #expect(registration.bytes(NL80211Attribute.frameMatch) == [0x04, 0x09, 0x50, 0x6f, 0x9a, 0x13])

        let noAck = try attributes(
            try .sendFrame(
                [1, 2, 3], wdev: wdev, frequency: .nan2GHz,
                options: FrameSendOptions(waitForAck: false)))
        #expect(noAck.has(NL80211Attribute.dontWaitForAck))
        #expect(!noAck.has(NL80211Attribute.offchannelTxOk))
        #expect(try noAck.integer(NL80211Attribute.wiphyFreq, as: UInt32.self) == 2437)
        #expect(noAck.bytes(NL80211Attribute.frame) == [1, 2, 3])

        let offChannel = try attributes(
            try .sendFrame(
                [1], wdev: wdev, frequency: nil,
                options: FrameSendOptions(
                    allowOffChannel: true, offChannelDurationMilliseconds: 50)))
        #expect(!offChannel.has(NL80211Attribute.dontWaitForAck))
        #expect(offChannel.has(NL80211Attribute.offchannelTxOk))
        #expect(try offChannel.integer(NL80211Attribute.duration, as: UInt32.self) == 50)
        #expect(!offChannel.has(NL80211Attribute.wiphyFreq))
    }

    @Test func hwsimNewRadioAsksForNANAndDestroyOnClose() throws {
        let request = try HWSimRequest.newRadio(HWSimRadioConfiguration(name: "phyX", destroyOnClose: true))
        let parsed = try NetlinkAttributes(parsing: request.attributes)
        #expect(parsed.has(HWSimAttribute.supportNanDevice))
        #expect(parsed.has(HWSimAttribute.destroyRadioOnClose))
        #expect(try parsed.integer(HWSimAttribute.channels, as: UInt32.self) == 3)
        #expect(parsed.string(HWSimAttribute.radioName) == "phyX")
        #expect(HWSimAttribute.supportNanDevice.rawValue == 30)
        #expect(HWSimAttribute.channels.rawValue == 9)
        #expect(HWSimAttribute.radioName.rawValue == 17)
        #expect(HWSimAttribute.destroyRadioOnClose.rawValue == 16)
    }
}

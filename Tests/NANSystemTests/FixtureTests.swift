import NANWire
import Glibc
@testable import NANSystem
import Testing

/// Loads a fixture captured from Linux 7.2 in the VM bench (with `WAWARE_NL_RECORD`): the messages
/// of one reply, dump or event, back to back, headers included.
func fixture(_ name: String, filePath: String = #filePath) throws -> [NetlinkMessage] {
    let directory = filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    let path = "\(directory)/Fixtures/\(name)"
    guard let bytes = fileContents(atPath: path) else { throw FixtureMissing(path: path) }
    return try NetlinkMessage.split(datagram: bytes)
}

struct FixtureMissing: Error { var path: String }

/// The data messages of a fixture (the final DONE or ack left out).
func dataMessages(_ name: String) throws -> [GenericNetlinkMessage] {
    try fixture(name).filter { $0.type >= 0x10 }.map { try GenericNetlinkMessage($0) }
}

@Suite struct FixtureTests {
    @Test func hwsimNANRadioDumpBuildsANANCapableAdapter() throws {
        let adapters = try Adapter.build(
            wiphyMessages: try dataMessages("get-wiphy-dump-hwsim-nan.nlmsgs"),
            interfaceMessages: try dataMessages("get-interface-dump.nlmsgs"),
            system: .none)
        #expect(adapters.count == 1)
        let adapter = try #require(adapters.first)
        #expect(adapter.name == "wwlive0")
        #expect(adapter.supportedInterfaceTypes.contains(.nan))
        #expect(adapter.supportedInterfaceTypes.contains(.nanData))
        #expect(adapter.supportedInterfaceTypes.contains(.station))
        let nan = adapter.nan
        #expect(nan.isSupported)
        #expect(nan.unsupportedReason == nil)
        #expect(nan.managementInterface)
        #expect(nan.dataInterface)
        #expect(nan.bands == [.band2GHz, .band5GHz])
        let capabilities = try #require(nan.capabilities)
        #expect(capabilities.userSpaceDiscoveryEngine)
        #expect(capabilities.configurableSynchronization)
        #expect(capabilities.hasPHYCapabilities)
        #expect(nan.maxManagementInterfaces == 1)
        #expect(adapter.interfaces.count == 1)
        #expect(adapter.interfaces.first?.type == .station)
        #expect(adapter.interfaces.first?.index != nil)
    }

    @Test func newInterfaceReplyDescribesTheNANInterface() throws {
        let messages = try fixture("new-interface-nan-reply.nlmsgs")
        #expect(messages.count == 2)
        #expect(try NetlinkAck(messages[1]).error == 0)
        let interface = try WirelessInterface(decoding: try GenericNetlinkMessage(messages[0]).attributes)
        #expect(interface.type == .nan)
        #expect(interface.index == nil)
        // The kernel's reply for an interface without a netdev carries no name.
        #expect(interface.name == nil)
        #expect(interface.address != nil)
        #expect(interface.wdev.wiphy == interface.wiphy)
    }

    @Test func clusterJoinedEventGivesClusterIDAndNewFlag() throws {
        let event = NL80211Event.decode(try dataMessages("nan-cluster-joined-event.nlmsgs")[0])
        #expect(
            event
                == .clusterJoined(
                    wdev: WirelessDeviceID(rawValue: 0x1_0000_0002),
                    clusterID: MACAddress(bytes: [0x50, 0x6f, 0x9a, 0x01, 0xa6, 0x1d])!, isNew: true))
    }

    @Test func nextDiscoveryWindowEventGivesTheFrequency() throws {
        let event = NL80211Event.decode(try dataMessages("nan-next-dw-event.nlmsgs")[0])
        guard case .nextDiscoveryWindow(let wdev, let frequency) = event else {
            Issue.record("got \(event)")
            return
        }
        #expect(wdev == WirelessDeviceID(rawValue: 0x1_0000_0002))
        #expect(frequency == .nan2GHz || frequency == .nan5GHzHigh)
    }

    @Test func receivedSDFEventCarriesFrameFrequencyAndSignal() throws {
        let event = NL80211Event.decode(try dataMessages("frame-received-sdf-event.nlmsgs")[0])
        guard case .frameReceived(let wdev, let frequency, let signal, let bytes) = event else {
            Issue.record("got \(event)")
            return
        }
        #expect(wdev != nil)
        #expect(frequency == .nan2GHz || frequency == .nan5GHzHigh)
        #expect(signal.map { $0 < 0 && $0 > -100 } == true)
        #expect(Array(bytes.prefix(2)) == [0xd0, 0x00])
        #expect(Array(bytes[24..<30]) == NANFramePrefix.serviceDiscovery)
    }

    @Test func frameSendReplyHasACookieMatchingATxStatus() throws {
        let reply = try dataMessages("frame-send-reply.nlmsgs")
        let cookie = try #require(try reply.first?.attributes.integer(NL80211Attribute.cookie, as: UInt64.self))
        let status = NL80211Event.decode(try dataMessages("frame-tx-status-event.nlmsgs")[0])
        guard case .frameTxStatus(let statusCookie, _, _) = status else {
            Issue.record("got \(status)")
            return
        }
        #expect(statusCookie == FrameCookie(rawValue: cookie))
    }

    @Test func startingNANTwiceIsRefusedWithEEXIST() throws {
        let messages = try fixture("start-nan-already-running.nlmsgs")
        let ack = try NetlinkAck(messages[0])
        #expect(ack.error == -EEXIST)
        let error = NL80211Session.startNANRefusal(
            NetlinkError.kernel(
                errno: Errno(rawValue: -ack.error), kernelMessage: ack.kernelMessage, call: "NL80211_CMD_START_NAN"))
        #expect(error.code == .alreadyRunning)
    }

    @Test func hwsimAckCarriesTheNewRadioID() throws {
        #expect(try NetlinkAck(try fixture("hwsim-new-radio-ack.nlmsgs")[0]).error == 3)
    }

    @Test func hwsimRadioDumpListsTheRadio() throws {
        let radios = try dataMessages("hwsim-get-radio-dump.nlmsgs").map { try HWSimRadio(decoding: $0.attributes) }
        #expect(radios == [HWSimRadio(id: HWSimRadioID(rawValue: 0), name: "wwlive0", channels: 3, supportsNAN: true)])
    }

    @Test func configGroupEventsReportInterfacesComingAndGoing() throws {
        let added = NL80211Event.decode(try dataMessages("interface-added-event.nlmsgs")[0])
        guard case .interfaceAdded(let interface) = added else {
            Issue.record("got \(added)")
            return
        }
        let removed = NL80211Event.decode(try dataMessages("interface-removed-event.nlmsgs")[0])
        guard case .interfaceRemoved(let wiphy, let wdev, _) = removed else {
            Issue.record("got \(removed)")
            return
        }
        #expect(wiphy != nil)
        #expect(wdev != nil)
        #expect(interface.wiphy.rawValue < 16)
    }
}

@Suite struct KernelRefusalFixtureTests {
    private func error(_ name: String, call: String) throws -> NetlinkError {
        let ack = try NetlinkAck(try fixture(name)[0])
        return NetlinkError.kernel(errno: Errno(rawValue: -ack.error), kernelMessage: ack.kernelMessage, call: call)
    }

    @Test func changingConfigurationAfterStopIsNotRunning() throws {
        let refusal = try error("change-nan-config-not-running.nlmsgs", call: "NL80211_CMD_CHANGE_NAN_CONFIG")
        #expect(refusal.errno == .networkDown)
        #expect(refusal.code == .notRunning)
    }

    @Test func refusalCarriesTheKernelsExtendedAckTextAndOffset() throws {
        let ack = try NetlinkAck(try fixture("set-local-schedule-short-blob.nlmsgs")[0])
        #expect(ack.error == -EINVAL)
        #expect(ack.kernelMessage == "NAN Availability: Too short (need at least 3 bytes, have 1)")
    }

    @Test func stoppingADeletedInterfaceIsNoSuchDevice() throws {
        let refusal = try error("stop-nan-no-such-device.nlmsgs", call: "NL80211_CMD_STOP_NAN")
        #expect(refusal.errno == .noSuchDevice)
        #expect(refusal.code == .noSuchDevice)
    }
}

@Suite struct StationFixtureTests {
    @Test func nmiStationDumpFromTheKernelDecodes() throws {
        let messages = try dataMessages("get-station-dump-nmi.nlmsgs")
        #expect(messages.count == 1)
        let station = try StationInfo(decoding: try #require(messages.first).attributes)
        #expect(station.peer == MACAddress(bytes: [0x02, 0x00, 0x00, 0x00, 0x33, 0x01]))
        // A NAN station lives on a wdev, not a netdev.
        #expect(station.interface == nil)
        #expect(station.wdev == WirelessDeviceID(rawValue: 2))
        #expect(station.receivedPackets == 0)
        #expect(station.transmittedPackets == 0)
        #expect(station.connectedSeconds != nil)
    }
}

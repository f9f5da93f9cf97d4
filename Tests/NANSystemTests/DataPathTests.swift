import NANWire
@testable import NANSystem
import Testing

private let peer = MACAddress(bytes: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55])!
private let nmi = MACAddress(bytes: [0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee])!
private let wdev = WirelessDeviceID(rawValue: 0x2)
private let service = ServiceID(bytes: [1, 2, 3, 4, 5, 6])!

/// Wraps attribute bytes as a received nl80211 message, as the reader would deliver it.
private func message(
    _ command: NL80211Command, _ build: (inout NetlinkAttributeWriter) throws(NetlinkError) -> Void
) throws -> GenericNetlinkMessage {
    var writer = NetlinkAttributeWriter()
    try build(&writer)
    let raw = NetlinkMessage(
        type: 0x25, flags: 0, sequence: 0, portID: 0, payload: [command.rawValue, 1, 0, 0] + writer.bytes)
    return try GenericNetlinkMessage(bytes: raw.encoded)
}

@Suite struct DataPathTests {
    @Test func publishFunctionNestsEveryField() throws {
        let function = NANFunction(
            type: .publish, serviceID: service, publishType: [.solicited, .unsolicited], publishBroadcast: true,
            closeRange: true, timeToLive: 30, serviceInfo: [9, 9],
            serviceResponseFilter: NANServiceResponseFilter(include: true, content: .addresses([peer, nmi])),
            receiveMatchFilter: [[1], []], transmitMatchFilter: [[2, 3]])
        let request = try NL80211Request.addNANFunction(wdev, function)
        #expect(request.command == .addNanFunction)
        let top = try NetlinkAttributes(parsing: request.attributes)
        #expect(try top.integer(NL80211Attribute.wdev, as: UInt64.self) == 2)
        let f = try #require(try top.nested(NL80211Attribute.nanFunc))
        typealias F = NL80211NANFunctionAttribute
        #expect(try f.integer(F.type, as: UInt8.self) == 0)
        #expect(f.bytes(F.serviceId) == [1, 2, 3, 4, 5, 6])
        #expect(try f.integer(F.publishType, as: UInt8.self) == 3)
        #expect(f.has(F.publishBcast))
        #expect(f.has(F.closeRange))
        #expect(try f.integer(F.ttl, as: UInt32.self) == 30)
        #expect(f.bytes(F.serviceInfo) == [9, 9])
        let srf = try #require(try f.nested(F.srf))
        #expect(srf.has(NL80211NANSRFAttribute.include))
        let addresses = try #require(try srf.nested(NL80211NANSRFAttribute.macAddrs)).all.map(\.payload)
        #expect(addresses == [peer.bytes, nmi.bytes])
        #expect(try #require(try f.nested(F.rxMatchFilter)).all.map(\.payload) == [[1], []])
        #expect(try #require(try f.nested(F.txMatchFilter)).all.map(\.payload) == [[2, 3]])
    }

    @Test func followUpWithoutDestinationIsRefusedBeforeSending() {
        #expect {
            try NL80211Request.addNANFunction(wdev, NANFunction(type: .followUp, serviceID: service))
        } throws: { ($0 as? NetlinkError)?.code == .invalidRequest }
    }

    @Test func subscribeWithBloomFilterCarriesFilterAndIndex() throws {
        let function = NANFunction(
            type: .subscribe, serviceID: service, subscribeActive: true,
            serviceResponseFilter: NANServiceResponseFilter(
                include: false, content: .bloomFilter([0xff, 0x0f], index: 2)))
        let f = try #require(
            try NetlinkAttributes(parsing: try NL80211Request.addNANFunction(wdev, function).attributes)
                .nested(NL80211Attribute.nanFunc))
        #expect(f.has(NL80211NANFunctionAttribute.subscribeActive))
        #expect(!f.has(NL80211NANFunctionAttribute.publishType))
        let srf = try #require(try f.nested(NL80211NANFunctionAttribute.srf))
        #expect(!srf.has(NL80211NANSRFAttribute.include))
        #expect(srf.bytes(NL80211NANSRFAttribute.bf) == [0xff, 0x0f])
        #expect(try srf.integer(NL80211NANSRFAttribute.bfIdx, as: UInt8.self) == 2)
    }

    @Test func addFunctionReplyGivesCookieAndInstanceID() throws {
        let reply = try message(.addNanFunction) { (w) throws(NetlinkError) in
            try w.put(NL80211Attribute.cookie, UInt64(0xabc))
            try w.nest(NL80211Attribute.nanFunc) { (n) throws(NetlinkError) in
                try n.put(NL80211NANFunctionAttribute.instanceId, UInt8(7))
            }
        }
        let handle = try NANFunctionHandle(decoding: reply.attributes)
        #expect(handle.cookie == NANFunctionCookie(rawValue: 0xabc))
        #expect(handle.instanceID == InstanceID(rawValue: 7))
    }

    @Test func matchEventDecodesLocalAndPeerFunctions() throws {
        let event = NL80211Event.decode(
            try message(.nanMatch) { (w) throws(NetlinkError) in
                try w.put(NL80211Attribute.wdev, UInt64(2))
                try w.put(NL80211Attribute.cookie, UInt64(5))
                try w.put(NL80211Attribute.mac, bytes: peer.bytes)
                try w.nest(NL80211Attribute.nanMatch) { (m) throws(NetlinkError) in
                    try m.nest(NL80211NANMatchAttribute.funcLocal) { (l) throws(NetlinkError) in
                        try l.put(NL80211NANFunctionAttribute.instanceId, UInt8(1))
                    }
                    try m.nest(NL80211NANMatchAttribute.funcPeer) { (p) throws(NetlinkError) in
                        try p.put(NL80211NANFunctionAttribute.type, UInt8(0))
                        try p.put(NL80211NANFunctionAttribute.instanceId, UInt8(9))
                        try p.put(NL80211NANFunctionAttribute.serviceInfo, bytes: [0x42])
                    }
                }
            })
        #expect(
            event
                == .nanMatch(
                    NANMatch(
                        wdev: wdev, cookie: NANFunctionCookie(rawValue: 5), peer: peer,
                        localInstance: InstanceID(rawValue: 1), peerInstance: InstanceID(rawValue: 9),
                        peerType: .publish, serviceInfo: [0x42])))
    }

    @Test func terminationEventDecodesInstanceAndReason() throws {
        let event = NL80211Event.decode(
            try message(.delNanFunction) { (w) throws(NetlinkError) in
                try w.put(NL80211Attribute.cookie, UInt64(5))
                try w.nest(NL80211Attribute.nanFunc) { (n) throws(NetlinkError) in
                    try n.put(NL80211NANFunctionAttribute.instanceId, UInt8(3))
                    try n.put(NL80211NANFunctionAttribute.termReason, UInt8(1))
                }
            })
        #expect(
            event
                == .nanFunctionTerminated(
                    cookie: NANFunctionCookie(rawValue: 5), instance: InstanceID(rawValue: 3),
                    reason: .ttlExpired))
    }

    @Test func eventWithBrokenAttributeBecomesMalformedNotACrash() throws {
        let event = NL80211Event.decode(
            try message(.nanClusterJoined) { (w) throws(NetlinkError) in
                try w.put(NL80211Attribute.wdev, UInt32(2))  // wrong size: u64 expected
            })
        guard case .malformed(let command, _) = event else {
            Issue.record("expected .malformed, got \(event)")
            return
        }
        #expect(command == NL80211Command.nanClusterJoined.rawValue)
    }

    @Test func unknownCommandIsReportedAsUnknown() throws {
        #expect(NL80211Event.decode(try message(.getStation) { _ in }) == .unknown(command: 17))
    }

    @Test func ndiStationNamesItsNMIAndFlags() throws {
        let request = try NL80211Request.newStation(
            NANStationParameters(
                scope: .dataInterface(InterfaceIndex(rawValue: 7), peerManagementAddress: nmi), peer: peer,
                flagMask: [.authorized, .authenticated, .associated],
                flagSet: [.authorized, .authenticated, .associated]))
        #expect(request.command == .newStation)
        let parsed = try NetlinkAttributes(parsing: request.attributes)
        #expect(try parsed.integer(NL80211Attribute.ifindex, as: UInt32.self) == 7)
        #expect(parsed.bytes(NL80211Attribute.nanNmiMac) == nmi.bytes)
        #expect(parsed.bytes(NL80211Attribute.mac) == peer.bytes)
        // struct nl80211_sta_flag_update { mask, set }: authorized is bit 1, authenticated bit 5, associated bit 7.
        #expect(parsed.bytes(NL80211Attribute.staFlags2) == [0xa2, 0, 0, 0, 0xa2, 0, 0, 0])
        #expect(!parsed.has(NL80211Attribute.wdev))
        // Linux 7.2 refuses supported rates and capabilities on an NDI station.
        #expect(!parsed.has(NL80211Attribute.staSupportedRates))
        #expect(!parsed.has(NL80211Attribute.htCapability))
    }

    @Test func nmiStationIsAddedByWdevAuthenticatedAndAssociatedWithoutCapabilities() throws {
        let parsed = try NetlinkAttributes(
            parsing: try NL80211Request.newStation(
                NANStationParameters(scope: .managementInterface(wdev), peer: peer)
            ).attributes)
        #expect(try parsed.integer(NL80211Attribute.wdev, as: UInt64.self) == 2)
        // Authenticated is bit 5, associated bit 7.
        #expect(parsed.bytes(NL80211Attribute.staFlags2) == [0xa0, 0, 0, 0, 0xa0, 0, 0, 0])
        // NEW_STATION would drop them (no WME on a NAN station): they go with SET_STATION.
        #expect(!parsed.has(NL80211Attribute.htCapability))
        #expect(!parsed.has(NL80211Attribute.staSupportedRates))
        #expect(!parsed.has(NL80211Attribute.nanNmiMac))
    }

    @Test func nmiStationGetsThePeersHTCapabilitiesWhenAuthorized() throws {
        let ht = [UInt8](repeating: 0, count: 25) + [7]
        let vht = [UInt8](repeating: 1, count: 12)
        let capabilities = try #require(NANPeerCapabilities(ht: ht, vht: vht))
        let request = try NL80211Request.updateStation(
            .authorize(.managementInterface(wdev), peer: peer, capabilities: capabilities))
        #expect(request.command == .setStation)
        let parsed = try NetlinkAttributes(parsing: request.attributes)
        #expect(try parsed.integer(NL80211Attribute.wdev, as: UInt64.self) == 2)
        #expect(parsed.bytes(NL80211Attribute.mac) == peer.bytes)
        #expect(parsed.bytes(NL80211Attribute.staFlags2) == [0x02, 0, 0, 0, 0x02, 0, 0, 0])
        #expect(parsed.bytes(NL80211Attribute.htCapability) == ht)
        #expect(parsed.bytes(NL80211Attribute.vhtCapability) == vht)
    }

    @Test func peerCapabilitiesRefuseBodiesOfTheWrongLength() {
        #expect(NANPeerCapabilities(ht: [1, 2]) == nil)
        #expect(NANPeerCapabilities(ht: [UInt8](repeating: 0, count: 26), vht: [1]) == nil)
        #expect(NANPeerCapabilities(ht: [UInt8](repeating: 0, count: 26)) != nil)
    }

    @Test func ndiStationAuthorizationNamesNoNMIAndNoCapabilities() throws {
        let scope = StationScope.dataInterface(InterfaceIndex(rawValue: 7), peerManagementAddress: nmi)
        let parsed = try NetlinkAttributes(
            parsing: try NL80211Request.updateStation(.authorize(scope, peer: peer)).attributes)
        #expect(try parsed.integer(NL80211Attribute.ifindex, as: UInt32.self) == 7)
        #expect(!parsed.has(NL80211Attribute.nanNmiMac))
        #expect(parsed.bytes(NL80211Attribute.staFlags2) == [0x02, 0, 0, 0, 0x02, 0, 0, 0])
        let capabilities = try #require(NANPeerCapabilities(ht: [UInt8](repeating: 0, count: 26)))
        #expect {
            try NL80211Request.updateStation(.authorize(scope, peer: peer, capabilities: capabilities))
        } throws: { ($0 as? NetlinkError)?.code == .invalidRequest }
    }

    @Test func stationBreakingTheKernelsNANRulesIsRefusedBeforeSending() {
        let ndi = StationScope.dataInterface(InterfaceIndex(rawValue: 7), peerManagementAddress: nmi)
        func refused(_ build: () throws -> NL80211Request) -> Bool {
            do { _ = try build(); return false } catch { return (error as? NetlinkError)?.code == .invalidRequest }
        }
        // Neither authenticated nor associated.
        #expect(
            refused {
                try NL80211Request.newStation(
                    NANStationParameters(
                        scope: .managementInterface(wdev), peer: peer,
                        flagMask: [], flagSet: []))
            })
        // WME is the kernel's on NAN stations.
        #expect(
            refused {
                try NL80211Request.newStation(
                    NANStationParameters(
                        scope: ndi, peer: peer,
                        flagMask: [.associated, .wme], flagSet: [.associated, .wme]))
            })
        // SET_STATION on a NAN station changes only authorized and MFP.
        #expect(refused { try NL80211Request.setStation(ndi, peer: peer, mask: .associated, set: []) })
        #expect(
            refused { try NL80211Request.newStation(NANStationParameters(scope: ndi, peer: peer, associationID: 0)) })
    }

    @Test func stationDumpEntryDecodesCountersSignalAndRates() throws {
        typealias S = NL80211StationInfoAttribute
        typealias R = NL80211RateInfoAttribute
        let entry = try message(.newStation) { (w) throws(NetlinkError) in
            try w.put(NL80211Attribute.ifindex, UInt32(7))
            try w.put(NL80211Attribute.mac, bytes: peer.bytes)
            try w.nest(NL80211Attribute.staInfo) { (s) throws(NetlinkError) in
                try s.put(S.inactiveTime, UInt32(12))
                try s.put(S.rxBytes, UInt32(100))
                try s.put(S.rxBytes64, UInt64(5_000_000_000))
                try s.put(S.txBytes, UInt32(200))
                try s.put(S.rxPackets, UInt32(10))
                try s.put(S.txPackets, UInt32(20))
                try s.put(S.txRetries, UInt32(3))
                try s.put(S.txFailed, UInt32(1))
                try s.put(S.signal, Int8(-50))
                try s.put(S.signalAvg, Int8(-51))
                try s.nest(S.txBitrate) { (r) throws(NetlinkError) in
                    try r.put(R.bitrate, UInt16(650))
                    try r.put(R.bitrate32, UInt32(650))
                    try r.put(R.mcs, UInt8(7))
                    try r.putFlag(R._40MhzWidth)
                }
                try s.nest(S.rxBitrate) { (r) throws(NetlinkError) in
                    try r.put(R.bitrate32, UInt32(8667))
                    try r.put(R.vhtMcs, UInt8(9))
                    try r.put(R.vhtNss, UInt8(2))
                    try r.putFlag(R._80MhzWidth)
                }
            }
        }
        let info = try StationInfo(decoding: entry.attributes)
        #expect(info.peer == peer)
        #expect(info.interface == InterfaceIndex(rawValue: 7))
        #expect(info.inactiveMilliseconds == 12)
        #expect(info.receivedBytes == 5_000_000_000)
        #expect(info.transmittedBytes == 200)
        #expect(info.receivedPackets == 10)
        #expect(info.transmittedPackets == 20)
        #expect(info.transmitRetries == 3)
        #expect(info.transmitFailures == 1)
        #expect(info.signalDBM == -50)
        #expect(info.averageSignalDBM == -51)
        #expect(
            info.transmitRate
                == BitRate(hundredKilobitsPerSecond: 650, mcs: 7, spatialStreams: nil, width: .mhz40, modulation: .ht))
        #expect(info.transmitRate?.megabitsPerSecond == 65)
        #expect(
            info.receiveRate
                == BitRate(hundredKilobitsPerSecond: 8667, mcs: 9, spatialStreams: 2, width: .mhz80, modulation: .vht))
    }

    @Test func pairwiseKeyNestsDataIndexCipherAndType() throws {
        let request = try NL80211Request.newKey(
            NANKey(
                scope: .dataInterface(InterfaceIndex(rawValue: 7), peerManagementAddress: nmi), peer: peer,
                cipher: .ccmp128, index: 0, data: [UInt8](repeating: 0x11, count: 16)))
        #expect(request.command == .newKey)
        let parsed = try NetlinkAttributes(parsing: request.attributes)
        #expect(parsed.bytes(NL80211Attribute.mac) == peer.bytes)
        let key = try #require(try parsed.nested(NL80211Attribute.key))
        #expect(key.bytes(NL80211KeyAttribute.data)?.count == 16)
        #expect(try key.integer(NL80211KeyAttribute.idx, as: UInt8.self) == 0)
        #expect(try key.integer(NL80211KeyAttribute.cipher, as: UInt32.self) == 0x000F_AC04)
        #expect(try key.integer(NL80211KeyAttribute.type, as: UInt32.self) == 1)
        #expect(CipherSuite.ccmp128.description == "00-0f-ac:4")
    }

    @Test func keyOfTheWrongLengthForItsCipherIsRefusedBeforeSending() throws {
        let index = InterfaceIndex(rawValue: 7)
        #expect(throws: NetlinkError.self) {
            try NL80211Request.newKey(
                .pairwise([UInt8](repeating: 1, count: 16), cipher: .gcmp256, peerNDI: peer, ofPeer: nmi, on: index))
        }
        let parsed = try NetlinkAttributes(
            parsing: try NL80211Request.newKey(
                .pairwise([UInt8](repeating: 1, count: 32), cipher: .gcmp256, peerNDI: peer, ofPeer: nmi, on: index)
            ).attributes)
        #expect(try parsed.integer(NL80211Attribute.ifindex, as: UInt32.self) == 7)
        let key = try #require(try parsed.nested(NL80211Attribute.key))
        #expect(try key.integer(NL80211KeyAttribute.cipher, as: UInt32.self) == 0x000F_AC09)
    }

    @Test func localScheduleCarriesChannelsSlotsAndBlob() throws {
        var slots = [UInt8](repeating: NANLocalSchedule.unavailableSlot, count: 32)
        slots[8] = 0
        slots[9] = 0
        let channel = NANScheduleChannel(
            frequency: Frequency(rawValue: 5745), width: .mhz80,
            centerFrequency1: Frequency(rawValue: 5775), channelEntry: [1, 2, 3, 4, 5, 6], receiveSpatialStreams: 2)
        let request = try NL80211Request.setLocalSchedule(
            wdev,
            NANLocalSchedule(
                channels: [channel], timeSlots: slots, availabilityAttribute: [0x12, 0x00], deferred: true))
        let parsed = try NetlinkAttributes(parsing: request.attributes)
        let channels = parsed.every(NL80211Attribute.nanChannel)
        #expect(channels.count == 1)
        let c = try channels[0].nested()
        #expect(try c.integer(NL80211Attribute.wiphyFreq, as: UInt32.self) == 5745)
        #expect(try c.integer(NL80211Attribute.channelWidth, as: UInt32.self) == 3)
        #expect(try c.integer(NL80211Attribute.centerFreq1, as: UInt32.self) == 5775)
        #expect(c.bytes(NL80211Attribute.nanChannelEntry) == [1, 2, 3, 4, 5, 6])
        #expect(try c.integer(NL80211Attribute.nanRxNss, as: UInt8.self) == 2)
        #expect(parsed.bytes(NL80211Attribute.nanTimeSlots) == slots)
        #expect(parsed.bytes(NL80211Attribute.nanAvailBlob) == [0x12, 0x00])
        #expect(parsed.has(NL80211Attribute.nanSchedDeferred))
    }

    @Test func scheduleSlotNamingAMissingChannelIsRefused() {
        var slots = [UInt8](repeating: 0xff, count: 32)
        slots[0] = 1
        #expect {
            try NL80211Request.setLocalSchedule(
                wdev, NANLocalSchedule(channels: [], timeSlots: slots, availabilityAttribute: []))
        } throws: { ($0 as? NetlinkError)?.code == .invalidRequest }
    }

    @Test func clearingScheduleHasNoChannelsAndAnEmptyBlob() throws {
        let parsed = try NetlinkAttributes(parsing: try NL80211Request.setLocalSchedule(wdev, .cleared).attributes)
        #expect(parsed.every(NL80211Attribute.nanChannel).isEmpty)
        #expect(parsed.bytes(NL80211Attribute.nanTimeSlots) == [UInt8](repeating: 0xff, count: 32))
        #expect(!parsed.has(NL80211Attribute.nanAvailBlob))
        // Linux 7.2: "NAN Availability blob must be empty if all time slots are unavailable".
        #expect {
            try NL80211Request.setLocalSchedule(
                wdev,
                NANLocalSchedule(
                    channels: [], timeSlots: [UInt8](repeating: 0xff, count: 32), availabilityAttribute: [0x12, 0, 0]))
        } throws: { ($0 as? NetlinkError)?.code == .invalidRequest }
    }

    @Test func peerScheduleNeedsSequenceChannelsAndMapsTogether() throws {
        let channel = NANScheduleChannel(frequency: .nan2GHz, channelEntry: [0, 0, 0, 0, 0, 0])
        #expect {
            try NL80211Request.setPeerSchedule(
                wdev,
                NANPeerSchedule(
                    peer: peer, committedDiscoveryWindows: 1,
                    sequenceID: 1, channels: [channel]))
        } throws: { ($0 as? NetlinkError)?.code == .invalidRequest }

        let map = NANPeerMap(mapID: 1, timeSlots: [UInt8](repeating: 0, count: 32))
        let request = try NL80211Request.setPeerSchedule(
            wdev,
            NANPeerSchedule(
                peer: peer, committedDiscoveryWindows: 0x0201, sequenceID: 4, channels: [channel], maps: [map],
                unalignedSchedule: [7]))
        let parsed = try NetlinkAttributes(parsing: request.attributes)
        #expect(parsed.bytes(NL80211Attribute.mac) == peer.bytes)
        #expect(try parsed.integer(NL80211Attribute.nanCommittedDw, as: UInt16.self) == 0x0201)
        #expect(try parsed.integer(NL80211Attribute.nanSeqId, as: UInt8.self) == 4)
        let maps = try #require(parsed.first(NL80211Attribute.nanPeerMaps)).nestedArray()
        #expect(try maps.first?.integer(NL80211NANPeerMapAttribute.mapId, as: UInt8.self) == 1)
        #expect(maps.first?.bytes(NL80211NANPeerMapAttribute.timeSlots)?.count == 32)
        #expect(parsed.bytes(NL80211Attribute.nanUlw) == [7])
    }
}

import NANWire
@testable import NANSystem
import Testing

// The passive half of `waware perf`: a GET_STATION reply with per-TID counters, air time, drops and the
// rate details, decoded from handmade netlink bytes; a malformed reply is a typed error, never a trap.

private let peer = MACAddress(bytes: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55])!

private func reply(_ build: (inout NetlinkAttributeWriter) throws(NetlinkError) -> Void) throws -> GenericNetlinkMessage
{
    var writer = NetlinkAttributeWriter()
    try writer.put(NL80211Attribute.ifindex, UInt32(9))
    try writer.put(NL80211Attribute.mac, bytes: peer.bytes)
    try writer.nest(NL80211Attribute.staInfo) { (s) throws(NetlinkError) in try build(&s) }
    let raw = NetlinkMessage(
        type: 0x25, flags: 0, sequence: 0, portID: 0,
        payload: [NL80211Command.newStation.rawValue, 1, 0, 0] + writer.bytes)
    return try GenericNetlinkMessage(bytes: raw.encoded)
}

@Suite struct StationStatisticsTests {
    typealias S = NL80211StationInfoAttribute
    typealias R = NL80211RateInfoAttribute
    typealias T = NL80211TIDStatsAttribute

    @Test func stationReplyDecodesTIDCountersAirtimeAndDrops() throws {
        let message = try reply { (s) throws(NetlinkError) in
            try s.put(S.rxDropMisc, UInt64(4))
            try s.put(S.rxDuration, UInt64(120_000))
            try s.put(S.txDuration, UInt64(340_000))
            try s.put(S.ackSignalAvg, Int8(-48))
            try s.put(S.expectedThroughput, UInt32(52_000))
            try s.nest(S.tidStats) { (tids) throws(NetlinkError) in
                // TID 0 (attribute 1), TID 6 (attribute 7), non-QoS (attribute 17).
                try tids.nest(type: 1) { (t) throws(NetlinkError) in
                    try t.put(T.rxMsdu, UInt64(10))
                    try t.put(T.txMsdu, UInt64(20))
                    try t.put(T.txMsduRetries, UInt64(2))
                    try t.put(T.txMsduFailed, UInt64(1))
                }
                try tids.nest(type: 7) { (t) throws(NetlinkError) in try t.put(T.txMsdu, UInt64(5)) }
                try tids.nest(type: 17) { (t) throws(NetlinkError) in try t.put(T.rxMsdu, UInt64(0)) }
                // Unknown numbers are skipped.
                try tids.nest(type: 40) { (t) throws(NetlinkError) in try t.put(T.rxMsdu, UInt64(99)) }
            }
        }
        let info = try StationInfo(decoding: message.attributes)
        #expect(info.receiveDropped == 4)
        #expect(info.receiveAirtimeMicroseconds == 120_000)
        #expect(info.transmitAirtimeMicroseconds == 340_000)
        #expect(info.ackSignalAverageDBM == -48)
        #expect(info.expectedThroughputKbps == 52_000)
        #expect(info.tidStatistics.map(\.tid) == [0, 6, 16])
        #expect(
            info.tidStatistics[0]
                == StationTIDStatistics(
                    tid: 0, receivedMSDUs: 10, transmittedMSDUs: 20, transmitRetries: 2, transmitFailures: 1))
        #expect(info.tidStatistics[1].transmittedMSDUs == 5)
        #expect(info.tidStatistics.filter(\.isActive).map(\.tid) == [0, 6])
    }

    @Test func htRateCarriesItsStreamsInTheMCSAndVHTInItsOwnAttribute() throws {
        let message = try reply { (s) throws(NetlinkError) in
            try s.nest(S.txBitrate) { (r) throws(NetlinkError) in
                try r.put(R.bitrate32, UInt32(1300))
                try r.put(R.mcs, UInt8(15))
                try r.putFlag(R.shortGi)
            }
            try s.nest(S.rxBitrate) { (r) throws(NetlinkError) in
                try r.put(R.vhtMcs, UInt8(9))
                try r.put(R.vhtNss, UInt8(2))
                try r.putFlag(R._80MhzWidth)
            }
        }
        let info = try StationInfo(decoding: message.attributes)
        let tx = try #require(info.transmitRate)
        #expect(tx.modulation == .ht)
        #expect(tx.streams == 2)
        #expect(tx.shortGuardInterval)
        #expect(tx.widthMHz == 20)
        #expect(tx.megabitsPerSecond == 130)
        let rx = try #require(info.receiveRate)
        #expect(rx.modulation == .vht)
        #expect(rx.streams == 2)
        #expect(rx.widthMHz == 80)
        #expect(rx.megabitsPerSecond == nil)
        #expect(BitRate(hundredKilobitsPerSecond: 540, mcs: nil, spatialStreams: nil, width: .mhz20NoHT).streams == 1)
    }

    @Test func malformedTIDCounterIsATypedError() throws {
        let message = try reply { (s) throws(NetlinkError) in
            try s.nest(S.tidStats) { (tids) throws(NetlinkError) in
                try tids.nest(type: 1) { (t) throws(NetlinkError) in try t.put(T.rxMsdu, UInt32(3)) }
            }
        }
        #expect(throws: NetlinkError.self) { try StationInfo(decoding: message.attributes) }
        // A TID entry whose inner attribute claims more bytes than there are.
        let flat = try reply { (s) throws(NetlinkError) in
            try s.nest(S.tidStats) { (tids) throws(NetlinkError) in
                try tids.putRaw(type: 1, payload: [12, 0, 1, 0, 1, 2])
            }
        }
        #expect(throws: NetlinkError.self) { try StationInfo(decoding: flat.attributes) }
    }
}

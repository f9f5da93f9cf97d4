import NANWire
@testable import NANSystem
import Testing

private let wdev = WirelessDeviceID(rawValue: 0x1_0000_0002)

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

@Suite struct OffChannelTests {
    @Test func remainOnChannelCarriesFrequencyAndDurationInMilliseconds() throws {
        let request = try NL80211Request.remainOnChannel(
            wdev, frequency: Frequency(rawValue: 2437), duration: .milliseconds(1500))
        #expect(request.callName == "NL80211_CMD_REMAIN_ON_CHANNEL")
        let parsed = try NetlinkAttributes(parsing: request.attributes)
        #expect(try parsed.integer(NL80211Attribute.wdev, as: UInt64.self) == wdev.rawValue)
        #expect(try parsed.integer(NL80211Attribute.wiphyFreq, as: UInt32.self) == 2437)
        #expect(try parsed.integer(NL80211Attribute.duration, as: UInt32.self) == 1500)
    }

    @Test func cancelRemainOnChannelNamesTheCookie() throws {
        let request = try NL80211Request.cancelRemainOnChannel(wdev, cookie: RemainOnChannelCookie(rawValue: 77))
        #expect(request.callName == "NL80211_CMD_CANCEL_REMAIN_ON_CHANNEL")
        let parsed = try NetlinkAttributes(parsing: request.attributes)
        #expect(try parsed.integer(NL80211Attribute.cookie, as: UInt64.self) == 77)
    }

    @Test func remainOnChannelEventsDecodeAsStartedAndEnded() throws {
        func period(_ command: NL80211Command) throws -> NL80211Event {
            NL80211Event.decode(
                try message(command) { (w) throws(NetlinkError) in
                    try w.put(NL80211Attribute.wdev, wdev.rawValue)
                    try w.put(NL80211Attribute.cookie, UInt64(9))
                    try w.put(NL80211Attribute.wiphyFreq, UInt32(2437))
                })
        }
        let cookie = RemainOnChannelCookie(rawValue: 9)
        #expect(
            try period(.remainOnChannel)
                == .remainOnChannel(
                    RemainOnChannelEvent(wdev: wdev, cookie: cookie, frequency: Frequency(rawValue: 2437), ended: false)
                ))
        #expect(
            try period(.cancelRemainOnChannel)
                == .remainOnChannel(
                    RemainOnChannelEvent(wdev: wdev, cookie: cookie, frequency: Frequency(rawValue: 2437), ended: true))
        )
    }

    @Test func usdSupportNeedsStationRemainOnChannelAndFrameCommand() throws {
        func support(_ commands: [NL80211Command], types: [InterfaceType] = [.station]) throws -> USDSupport {
            var writer = NetlinkAttributeWriter()
            try writer.nest(NL80211Attribute.supportedCommands) { (n) throws(NetlinkError) in
                for (index, command) in commands.enumerated() {
                    try n.putRaw(
                        type: UInt16(index + 1),
                        payload: withUnsafeBytes(of: UInt32(command.rawValue).littleEndian, Array.init))
                }
            }
            try writer.put(NL80211Attribute.maxRemainOnChannelDuration, UInt32(5000))
            return try USDSupport(decoding: try NetlinkAttributes(parsing: writer.bytes), types: types)
        }
        // REGISTER_FRAME is never in the list: cfg80211 offers it on every radio.
        let full = try support([.frame, .remainOnChannel, .cancelRemainOnChannel])
        #expect(full.isSupported)
        #expect(full.maximumRemainOnChannel == .seconds(5))
        #expect(try support([.frame]).unsupportedReason?.contains("REMAIN_ON_CHANNEL") == true)
        #expect(try support([.remainOnChannel]).unsupportedReason?.contains("FRAME") == true)
        #expect(try !support([.frame, .remainOnChannel], types: [.nan]).isSupported)
    }
}

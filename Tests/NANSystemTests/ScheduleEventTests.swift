import NANWire
@testable import NANSystem
import Testing

/// A received nl80211 event: netlink header, generic netlink header (`command`, version 1), then the
/// attribute bytes exactly as given.
private func event(_ command: UInt8, attributes: [UInt8]) throws -> NL80211Event {
    let raw = NetlinkMessage(type: 0x25, flags: 0, sequence: 0, portID: 0, payload: [command, 1, 0, 0] + attributes)
    return NL80211Event.decode(try GenericNetlinkMessage(bytes: raw.encoded))
}

// NL80211_ATTR_WIPHY (1) = 1 and NL80211_ATTR_WDEV (153) = 0x100000002.
private let wiphyAndWdev: [UInt8] = [
    8, 0, 1, 0, 1, 0, 0, 0,
    12, 0, 0x99, 0, 2, 0, 0, 0, 1, 0, 0, 0,
]

@Suite struct ScheduleEventTests {
    @Test func ulwUpdateCarriesTheBlobAndTheDevice() throws {
        // NL80211_ATTR_NAN_ULW (359 = 0x167): 5 bytes, padded to 8.
        let ulw: [UInt8] = [9, 0, 0x67, 0x01, 0x0e, 0x02, 0x00, 0xaa, 0xbb, 0, 0, 0]
        let decoded = try event(164, attributes: wiphyAndWdev + ulw)
        #expect(
            decoded
                == .unalignedScheduleUpdated(
                    wiphy: WiphyIndex(rawValue: 1), wdev: WirelessDeviceID(rawValue: 0x1_0000_0002),
                    schedule: [0x0e, 0x02, 0x00, 0xaa, 0xbb]))
    }

    @Test func ulwUpdateWithoutTheBlobIsMalformed() throws {
        let decoded = try event(164, attributes: wiphyAndWdev)
        guard case .malformed(let command, _) = decoded else {
            Issue.record("expected .malformed, got \(decoded)")
            return
        }
        #expect(command == 164)
    }

    @Test func channelEvacuationListsEveryNestedChannel() throws {
        // Two nested NL80211_ATTR_NAN_CHANNEL (351 = 0x15f, NLA_F_NESTED set): 5745 MHz at 80 MHz centred
        // on 5775 with its channel entry and 2 rx streams, then 2437 MHz with only a frequency.
        let full: [UInt8] = [
            48, 0, 0x5f, 0x81,
            8, 0, 0x26, 0, 0x71, 0x16, 0, 0,  // WIPHY_FREQ 5745
            8, 0, 0x9f, 0, 3, 0, 0, 0,  // CHANNEL_WIDTH 80
            8, 0, 0xa0, 0, 0x8f, 0x16, 0, 0,  // CENTER_FREQ1 5775
            10, 0, 0x60, 0x01, 0x51, 0x20, 0, 0, 0, 0, 0, 0,  // NAN_CHANNEL_ENTRY
            5, 0, 0x62, 0x01, 2, 0, 0, 0,
        ]  // NAN_RX_NSS 2
        let bare: [UInt8] = [12, 0, 0x5f, 0x81, 8, 0, 0x26, 0, 0x85, 0x09, 0, 0]
        let decoded = try event(165, attributes: wiphyAndWdev + full + bare)
        #expect(
            decoded
                == .channelsEvacuated(
                    wiphy: WiphyIndex(rawValue: 1), wdev: WirelessDeviceID(rawValue: 0x1_0000_0002),
                    channels: [
                        NANEvacuatedChannel(
                            frequency: Frequency(rawValue: 5745), width: .mhz80,
                            centerFrequency1: Frequency(rawValue: 5775),
                            channelEntry: [0x51, 0x20, 0, 0, 0, 0], receiveSpatialStreams: 2),
                        NANEvacuatedChannel(frequency: .nan2GHz),
                    ]))
    }

    @Test func evacuatedChannelWithAShortEntryIsMalformed() throws {
        let shortEntry: [UInt8] = [
            20, 0, 0x5f, 0x81,
            8, 0, 0x26, 0, 0x85, 0x09, 0, 0,
            7, 0, 0x60, 0x01, 0x51, 0x20, 0, 0,
        ]
        let decoded = try event(165, attributes: wiphyAndWdev + shortEntry)
        guard case .malformed(_, let error) = decoded else {
            Issue.record("expected .malformed, got \(decoded)")
            return
        }
        #expect(error.description.contains("expected 6"))
    }

    @Test func evacuationWithoutChannelsOrFrequencyIsMalformed() throws {
        let noFrequency: [UInt8] = [12, 0, 0x5f, 0x81, 5, 0, 0x62, 0x01, 1, 0, 0, 0]
        for attributes in [wiphyAndWdev, wiphyAndWdev + noFrequency] {
            let decoded = try event(165, attributes: attributes)
            guard case .malformed(let command, _) = decoded else {
                Issue.record("expected .malformed, got \(decoded)")
                continue
            }
            #expect(command == 165)
        }
    }
}

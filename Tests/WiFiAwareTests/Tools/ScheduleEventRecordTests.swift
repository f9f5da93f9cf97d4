import NANSystem
import Testing

@testable import WiFiAware

@Test func ulwUpdateRecordShowsTheBlobAsHex() throws {
    let event = NL80211Event.unalignedScheduleUpdated(
        wiphy: WiphyIndex(rawValue: 0), wdev: WirelessDeviceID(rawValue: 2), schedule: [0x0e, 0x02, 0x00, 0xaa])
    var record = EventRecord(event, phyNames: [0: "phy0"])
    #expect(record.text == "unaligned schedule updated on phy0 wdev 0x2: 4 bytes 0e0200aa")
    record.phy = nil
    #expect(
        try AdapterFixtures.json(record)
            == #"{"blob":"0e0200aa","event":"unalignedScheduleUpdated","wdev":"0x2","wiphy":0}"#)
    #expect(EventRecord.wiphy(of: event) == WiphyIndex(rawValue: 0))
}

@Test func channelEvacuationRecordListsEachChannelWithWhatWasReported() throws {
    let event = NL80211Event.channelsEvacuated(
        wiphy: nil, wdev: WirelessDeviceID(rawValue: 0x1_0000_0002),
        channels: [
            NANEvacuatedChannel(
                frequency: Frequency(rawValue: 5745), width: .mhz80,
                centerFrequency1: Frequency(rawValue: 5775),
                channelEntry: [0x51, 0x20, 0, 0, 0, 0], receiveSpatialStreams: 2),
            NANEvacuatedChannel(frequency: .nan2GHz),
        ])
    let record = EventRecord(event)
    #expect(
        record.text == "NAN channels evacuated on phy#1 wdev 0x100000002: "
            + "5745 MHz (80 MHz, centre 5775 MHz, entry 512000000000, 2 rx streams), 2437 MHz")
    #expect(
        try AdapterFixtures.json(record) == #"{"channels":[{"centerFrequency1":5775,"channelEntry":"512000000000","#
            + #""frequency":5745,"rxNss":2,"width":"80 MHz"},{"frequency":2437}],"#
            + #""event":"channelsEvacuated","wdev":"0x100000002","wiphy":1}"#)
    #expect(EventRecord.wiphy(of: event) == WiphyIndex(rawValue: 1))
}

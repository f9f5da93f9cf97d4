import Testing

@testable import WiFiAware

@Test func clusterJoinedSaysWhichClusterAndWhetherItIsNew() {
    var record = EventRecord("clusterJoined")
    record.phy = "phy0"
    record.interface = "nan0"
    record.clusterID = "50:6f:9a:01:12:34"
    record.newCluster = true
    record.elapsedSeconds = 1.3249
    #expect(record.line == "+1.32s cluster 50:6f:9a:01:12:34: created a new cluster on phy0 nan0")
    record.newCluster = false
    record.elapsedSeconds = 0.05
    #expect(record.line == "+0.05s cluster 50:6f:9a:01:12:34: joined an existing cluster on phy0 nan0")
}

@Test func eventJSONCarriesOnlyTheFieldsThatApply() throws {
    var record = EventRecord("discoveryWindow")
    record.wiphy = 1
    record.wdev = "0x100000002"
    record.frequency = 2437
    #expect(
        try AdapterFixtures.json(record)
            == #"{"event":"discoveryWindow","frequency":2437,"wdev":"0x100000002","wiphy":1}"#)
    #expect(record.text == "discovery window on phy#1 wdev 0x100000002 at 2437 MHz")
}

@Test func startedLineNamesInterfaceAndSettings() {
    var record = EventRecord("started")
    record.phy = "phy0"
    record.interface = "nan0"
    record.wdev = "0x2"
    record.address = "02:00:00:00:00:01"
    record.masterPreference = 2
    record.bands = []
    #expect(
        record.text == "NAN started on phy0 nan0 (wdev 0x2, address 02:00:00:00:00:01, master preference 2, "
            + "bands chosen by the driver); waiting for a cluster...")
}

@Test func wallClockTimeIsShownWhenThereIsNoElapsedTime() {
    var record = EventRecord("adapterRemoved")
    record.wiphy = 3
    record.time = "2026-11-30T07:00:00.000Z"
    #expect(record.line == "2026-11-30T07:00:00.000Z adapter removed on phy#3")
}

import Foundation
import Testing

@_spi(Tools) @testable import WiFiAware
@testable import waware

@Test func listShowsOneAlignedLinePerAdapterWithAClearNANVerdict() {
    let lines = AdapterText.list([AdapterFixtures.hwsim(), AdapterFixtures.plain()])
    #expect(
        lines == [
            "phy0  mac80211_hwsim  02:00:00:00:00:00  NAN: yes (user-space discovery engine, 2.4+5 GHz, data path)",
            "phy1  iwlwifi         a0:b1:c2:d3:e4:f5  NAN: no (driver has no NAN interface type)",
        ])
}

@Test func listSaysSoWhenDriverOrAddressIsUnknown() {
    var adapter = AdapterFixtures.plain()
    adapter.driver = nil
    adapter.address = nil
    #expect(
        AdapterText.list([adapter]) == ["phy1  unknown driver  no address  NAN: no (driver has no NAN interface type)"])
}

@Test func nanSummaryNamesDiscoveryEngineBandsAndExtras() {
    #expect(
        NANReport.supportedSummary(userspaceDiscovery: false, bands: ["2.4GHz"], dataPath: false, secure: true)
            == "discovery engine in the driver, 2.4 GHz, secure")
    #expect(
        NANReport.supportedSummary(userspaceDiscovery: true, bands: [], dataPath: true, secure: false)
            == "user-space discovery engine, bands not reported, data path")
}

@Test func infoShowsNANDetailsCombinationsAndInterfaces() {
    let text = AdapterText.info(AdapterFixtures.hwsim()).joined(separator: "\n")
    #expect(text.hasPrefix("phy0 (wiphy 0)\n  driver:                 mac80211_hwsim\n"))
    #expect(text.contains("    discovery engine:     in user space (USERSPACE_DE)"))
    #expect(text.contains("    antennas:             TX 2, RX 2"))
    #expect(text.contains("    max channel switch:   5000 µs"))
    #expect(text.contains("#1: at most 3 interfaces on 1 channel: 1 × NAN, 2 × NAN_DATA"))
    #expect(text.contains("    wlan0  managed  wdev 0x1  ifindex 3  02:00:00:00:00:00"))
    #expect(text.contains("    nan0   NAN      wdev 0x2  no netdev  02:00:00:00:00:01"))
}

@Test func infoOfAnAdapterWithoutNANSkipsTheNANDetails() {
    let text = AdapterText.info(AdapterFixtures.plain()).joined(separator: "\n")
    #expect(text.contains("  NAN:                    no (driver has no NAN interface type)"))
    #expect(!text.contains("discovery engine"))
    #expect(text.contains("NAN interface combinations:\n    none reported"))
}

@Test func adapterJSONHasSortedStableFieldNames() throws {
    let json = try Output.json(AdapterFixtures.plain())
    #expect(json.hasPrefix(#"{"address":"a0:b1:c2:d3:e4:f5","driver":"iwlwifi","interfaceCombinations":[],"#))
    #expect(json.contains(#""nan":{"bands":[],"configurableSync":false,"dataPath":false,"#))
    #expect(json.contains(#""phy":"phy1""#))
    #expect(!json.contains("\n"))
}

@Test func adapterJSONRoundTrips() throws {
    let original = AdapterList(adapters: [AdapterFixtures.hwsim(), AdapterFixtures.plain()])
    let decoded = try JSONDecoder().decode(AdapterList.self, from: Data(try Output.json(original).utf8))
    #expect(decoded == original)
}

@Test func probeLinesDescribeNANForUdev() {
    #expect(
        ProbeProperties.lines(of: AdapterFixtures.hwsim()) == [
            "WAWARE_PHY=phy0", "WAWARE_WIPHY=0", "WAWARE_NAN=1", "WAWARE_NAN_USERSPACE_DE=1",
            "WAWARE_NAN_CONFIGURABLE_SYNC=1", "WAWARE_NAN_BANDS=2.4GHz,5GHz", "WAWARE_NAN_DATA=1",
            "WAWARE_NAN_SECURE=0",
        ])
    #expect(
        ProbeProperties.lines(of: AdapterFixtures.plain()) == ["WAWARE_PHY=phy1", "WAWARE_WIPHY=1", "WAWARE_NAN=0"])
}

@Test func probeValuesCannotBreakUdevParsing() {
    var adapter = AdapterFixtures.plain()
    adapter.phy = "odd name\"x"
    #expect(ProbeProperties.lines(of: adapter).first == "WAWARE_PHY=odd_name_x")
}

@Test func failureMessagesAreFoldedOntoOneLine() {
    #expect(Output.oneLine("first\n  second\r\nthird\n") == "first; second; third")
}

@Test func operationModeBitsAreNamedAsTheSpecificationDoes() {
    // mac80211_hwsim reports NAN_OP_MODE_PHY_MODE_MASK | 80P80MHZ | 160MHZ.
    #expect(NANCapabilityNames.operationModes(0x17) == ["VHT", "HE", "80+80 MHz", "160 MHz"])
    #expect(NANCapabilityNames.operationModes(0) == [])
    #expect(NANCapabilityNames.operationModes(0x80) == ["bit 7"])
}

@Test func deviceCapabilityBitsAreNamedAsTheSpecificationDoes() {
    // mac80211_hwsim reports EXT_KEY_ID | NDPE.
    #expect(NANCapabilityNames.deviceCapabilities(0x0a) == ["extended key ID", "NDPE"])
    #expect(NANCapabilityNames.deviceCapabilities(0x31) == ["DFS master", "S3", "bit 5"])
}

@Test func interfaceWithoutANameIsShownByItsWdev() {
    // The kernel reports no name for interfaces without a netdev, such as a NAN interface made by iw.
    let interface = InterfaceReport(name: nil, type: "NAN", wdev: "0x400000002", ifindex: nil, address: nil)
    #expect(interface.label == "wdev 0x400000002")
    #expect(AdapterText.interfaceRow(interface) == ["-", "NAN", "wdev 0x400000002", "no netdev", ""])
}

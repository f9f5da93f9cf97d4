import NANEngine
import NANSystem
import NANWire
import Testing

@_spi(Tools) @testable import WiFiAware

private func hwsimAdapter(nan: Bool = true) -> Adapter { AdapterFixtures.library(nan: nan) }

@Test func libraryAdapterBecomesTheReportTheToolShows() {
    let report = AdapterReport(hwsimAdapter())
    #expect(report.nan.summary == "user-space discovery engine, 2.4+5 GHz, data path, secure")
    #expect(report.nan.bands == ["2.4GHz", "5GHz"])
    #expect(report.nan.operationModes == ["VHT", "HE", "80+80 MHz", "160 MHz"])
    #expect(report.nan.deviceCapabilities == ["extended key ID", "NDPE"])
    #expect(report.nan.maxChannelSwitchTimeMicroseconds == 0)
    #expect(
        report.interfaceCombinations == [
            CombinationReport(
                maxInterfaces: 3, channels: 3,
                limits: [.init(max: 1, types: ["NAN"]), .init(max: 2, types: ["NAN_DATA"])])
        ])
    #expect(report.interfaces.first?.ifindex == 3)
    #expect(report.interfaceTypes == ["managed", "AP", "NAN", "NAN_DATA"])
}

@Test func adapterWithoutNANInterfaceTypeSaysSo() {
    let report = AdapterReport(hwsimAdapter(nan: false))
    #expect(!report.nan.supported)
    #expect(report.nan.summary == "driver has no NAN interface type")
    #expect(report.nan.transmitAntennas == nil)
}

@Test func zeroAntennaCountMeansNotReported() {
    var adapter = hwsimAdapter()
    adapter.nan.capabilities?.transmitAntennas = 0
    #expect(AdapterReport(adapter).nan.transmitAntennas == nil)
    #expect(AdapterReport(adapter).nan.receiveAntennas == 2)
}

@Test func bandsTheAdapterLacksAreRefusedBeforeAskingTheKernel() throws {
    do {
        _ = try ClusterSession.startOptions(
            masterPreference: 2, bands: [.ghz2_4, .ghz6], clusterID: nil, notifyDW: false,
            adapter: AdapterReport(hwsimAdapter()))
        Issue.record("expected a failure")
    } catch {
        #expect(error.code == .wifiAwareUnsupported)
        #expect(error.message == "phy0 cannot do NAN on 6GHz (its NAN bands: 2.4GHz, 5GHz)")
    }
}

@Test func clusterStartSettingsReachTheLibraryConfiguration() throws {
    let options = try ClusterSession.startOptions(
        masterPreference: 77, bands: [.ghz2_4, .ghz5], clusterID: [0x50, 0x6f, 0x9a, 0x01, 0xab, 0xcd], notifyDW: true,
        adapter: AdapterReport(hwsimAdapter()))
    let configuration = try #require(options.configurations(for: hwsimAdapter()).first)
    #expect(configuration.masterPreference == 77)
    #expect(configuration.bands == [.band2GHz, .band5GHz])
    #expect(configuration.clusterID == MACAddress("50:6f:9a:01:ab:cd"))
    #expect(configuration.notifyDiscoveryWindows)
}

@Test func withoutAClusterIDARandomValidOneIsChosen() throws {
    let options = try ClusterSession.startOptions(
        masterPreference: 2, bands: nil, clusterID: nil, notifyDW: false, adapter: AdapterReport(hwsimAdapter()))
    let configuration = try #require(options.configurations(for: hwsimAdapter()).first)
    let bytes = try #require(configuration.clusterID?.bytes)
    #expect(Array(bytes.prefix(4)) == [0x50, 0x6f, 0x9a, 0x01])
    #expect(!configuration.notifyDiscoveryWindows)
    #expect(configuration.bands == nil)
}

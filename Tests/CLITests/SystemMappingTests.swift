import NANEngine
import NANSystem
import NANWire
import Testing

@testable import waware

/// A library adapter shaped like a mac80211_hwsim NAN radio on Linux 7.2, as the VM reports it.
private func hwsimAdapter(nan: Bool = true) -> Adapter {
    let types: [InterfaceType] = nan ? [.station, .accessPoint, .nan, .nanData] : [.station, .accessPoint]
    return Adapter(
        wiphy: WiphyIndex(rawValue: 0), name: "phy0", permanentAddress: MACAddress("02:00:00:00:00:00"),
        driver: "mac80211_hwsim",
        interfaces: [
            WirelessInterface(
                wiphy: WiphyIndex(rawValue: 0), wdev: WirelessDeviceID(rawValue: 1),
                index: InterfaceIndex(rawValue: 3), name: "wlan0", type: .station,
                address: MACAddress("02:00:00:00:00:00"))
        ],
        supportedInterfaceTypes: types,
        nan: NANSupport(
            managementInterface: nan, dataInterface: nan,
            capabilities: nan
                ? NANCapabilities(
                    configurableSynchronization: true, userSpaceDiscoveryEngine: true, operationModes: 0x17,
                    transmitAntennas: 2, receiveAntennas: 2, maxChannelSwitchTimeMicroseconds: 0, capabilities: 0x0a)
                : nil,
            bands: nan ? [.band2GHz, .band5GHz] : [], secure: nan,
            combinations: nan
                ? [
                    InterfaceCombination(
                        limits: [InterfaceLimit(max: 1, types: [.nan]), InterfaceLimit(max: 2, types: [.nanData])],
                        maxInterfaces: 3, channels: 3)
                ]
                : []))
}

@Test func libraryAdapterBecomesTheReportListAndProbeShow() {
    let report = AdapterReport(hwsimAdapter())
    #expect(
        AdapterText.list([report]) == [
            "phy0  mac80211_hwsim  02:00:00:00:00:00  NAN: yes (user-space discovery engine, 2.4+5 GHz, data path, secure)"
        ])
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
    let start = try #require(
        try CommandLineParser.parse(["cluster", "start", "--bands", "2.4,6"], root: Waware.self).command
            as? ClusterStartCommand)
    #expect(throws: CommandFailure("phy0 cannot do NAN on 6GHz (its NAN bands: 2.4GHz, 5GHz)", code: .nanUnsupported)) {
        try ClusterSession.startOptions(for: start, adapter: AdapterReport(hwsimAdapter()))
    }
}

@Test func clusterStartSettingsReachTheLibraryConfiguration() throws {
    let start = try #require(
        try CommandLineParser.parse(
            ["cluster", "start", "--master-pref", "77", "--bands", "2.4,5", "--cluster-id", "ab:cd", "-v"],
            root: Waware.self
        ).command as? ClusterStartCommand)
    let options = try ClusterSession.startOptions(for: start, adapter: AdapterReport(hwsimAdapter()))
    let configuration = try #require(options.configurations(for: hwsimAdapter()).first)
    #expect(configuration.masterPreference == 77)
    #expect(configuration.bands == [.band2GHz, .band5GHz])
    #expect(configuration.clusterID == MACAddress("50:6f:9a:01:ab:cd"))
    #expect(configuration.notifyDiscoveryWindows)
}

@Test func withoutAClusterIDARandomValidOneIsChosen() throws {
    let start = try #require(
        try CommandLineParser.parse(["cluster", "start"], root: Waware.self).command as? ClusterStartCommand)
    let options = try ClusterSession.startOptions(for: start, adapter: AdapterReport(hwsimAdapter()))
    let configuration = try #require(options.configurations(for: hwsimAdapter()).first)
    let bytes = try #require(configuration.clusterID?.bytes)
    #expect(Array(bytes.prefix(4)) == [0x50, 0x6f, 0x9a, 0x01])
    #expect(!configuration.notifyDiscoveryWindows)
    #expect(configuration.bands == nil)
}

extension Invocation {
    /// The command a `.run` invocation carries.
    fileprivate var command: (any Command)? {
        if case .run(let command, _) = self { return command }
        return nil
    }
}

@_spi(Tools) @testable import WiFiAware
@testable import waware

/// Adapter reports built by hand, shaped like what the library reports for a hwsim NAN radio and for an
/// ordinary adapter without NAN.
enum AdapterFixtures {
    /// A mac80211_hwsim radio created with NAN support, with a managed interface and a NAN interface.
    static func hwsim(phy: String = "phy0", wiphy: UInt32 = 0) -> AdapterReport {
        let bands = ["2.4GHz", "5GHz"]
        return AdapterReport(
            phy: phy, wiphy: wiphy, driver: "mac80211_hwsim", address: "02:00:00:00:00:00",
            interfaceTypes: ["managed", "AP", "monitor", "NAN", "NAN_DATA"],
            nan: NANReport(
                supported: true,
                summary: NANReport.supportedSummary(
                    userspaceDiscovery: true, bands: bands, dataPath: true, secure: false),
                userspaceDiscovery: true, configurableSync: true, bands: bands, dataPath: true, secure: false,
                operationModes: ["VHT", "HE", "80+80 MHz", "160 MHz"], transmitAntennas: 2, receiveAntennas: 2,
                maxChannelSwitchTimeMicroseconds: 5000, deviceCapabilities: ["extended key ID", "NDPE"]),
            interfaceCombinations: [
                CombinationReport(
                    maxInterfaces: 3, channels: 1,
                    limits: [.init(max: 1, types: ["NAN"]), .init(max: 2, types: ["NAN_DATA"])])
            ],
            interfaces: [
                InterfaceReport(name: "wlan0", type: "managed", wdev: "0x1", ifindex: 3, address: "02:00:00:00:00:00"),
                InterfaceReport(name: "nan0", type: "NAN", wdev: "0x2", ifindex: nil, address: "02:00:00:00:00:01"),
            ])
    }

    /// An adapter whose driver has no NAN interface type.
    static func plain(phy: String = "phy1", wiphy: UInt32 = 1) -> AdapterReport {
        AdapterReport(
            phy: phy, wiphy: wiphy, driver: "iwlwifi", address: "a0:b1:c2:d3:e4:f5",
            interfaceTypes: ["managed", "AP", "monitor"],
            nan: .unsupported(NANReport.noInterfaceTypeSummary),
            interfaceCombinations: [],
            interfaces: [
                InterfaceReport(name: "wlp2s0", type: "managed", wdev: "0x100000001", ifindex: 4, address: nil)
            ])
    }
}

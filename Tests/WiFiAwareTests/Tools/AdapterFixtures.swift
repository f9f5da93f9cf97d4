import FoundationEssentials
import NANSystem
import NANWire

@_spi(Tools) @testable import WiFiAware

/// Adapter reports built by hand, shaped like what the library reports for a hwsim NAN radio and for an
/// ordinary adapter without NAN; and library adapters for the mapping into reports.
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

    /// A library adapter shaped like a mac80211_hwsim NAN radio on Linux 7.2, as the VM reports it.
    static func library(
        phy: String = "phy0", wiphy: UInt32 = 0, nan: Bool = true, interface: String = "wlan0"
    ) -> Adapter {
        let types: [InterfaceType] = nan ? [.station, .accessPoint, .nan, .nanData] : [.station, .accessPoint]
        return Adapter(
            wiphy: WiphyIndex(rawValue: wiphy), name: phy, permanentAddress: MACAddress("02:00:00:00:00:00"),
            driver: "mac80211_hwsim",
            interfaces: [
                WirelessInterface(
                    wiphy: WiphyIndex(rawValue: wiphy), wdev: WirelessDeviceID(rawValue: 1),
                    index: InterfaceIndex(rawValue: 3), name: interface, type: .station,
                    address: MACAddress("02:00:00:00:00:00"))
            ],
            supportedInterfaceTypes: types,
            nan: NANSupport(
                managementInterface: nan, dataInterface: nan,
                capabilities: nan
                    ? NANCapabilities(
                        configurableSynchronization: true, userSpaceDiscoveryEngine: true, operationModes: 0x17,
                        transmitAntennas: 2, receiveAntennas: 2, maxChannelSwitchTimeMicroseconds: 0, capabilities: 0x0a
                    )
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

    /// `value` as the tool prints it: one line of JSON, keys sorted, slashes unescaped.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

@testable import NANSystem
import Testing

/// A GET_WIPHY message for radio `index` named `name` supporting `types`.
private func wiphyMessage(
    index: UInt32, name: String, types: [InterfaceType], bands: NANBands? = nil
) throws -> GenericNetlinkMessage {
    var writer = NetlinkAttributeWriter()
    try writer.put(NL80211Attribute.wiphy, index)
    try writer.put(NL80211Attribute.wiphyName, string: name)
    try writer.nest(NL80211Attribute.supportedIftypes) { (list) throws(NetlinkError) in
        for type in types { try list.putRaw(type: UInt16(type.rawValue), payload: []) }
    }
    if let bands { try writer.put(NL80211Attribute.bands, bands.rawValue) }
    let raw = NetlinkMessage(type: 0x25, flags: 2, sequence: 1, portID: 1, payload: [3, 1, 0, 0] + writer.bytes)
    return try GenericNetlinkMessage(raw)
}

@Suite struct ValueTests {
    @Test func radioWithoutNANInterfacesSaysWhy() throws {
        let adapters = try Adapter.build(
            wiphyMessages: [try wiphyMessage(index: 0, name: "phy0", types: [.station, .accessPoint])],
            interfaceMessages: [], system: .none)
        let nan = try #require(adapters.first).nan
        #expect(!nan.isSupported)
        #expect(nan.unsupportedReason?.contains("NAN") == true)
        #expect(nan.capabilities == nil)
        #expect(nan.maxManagementInterfaces == nil)
    }

    @Test func nanWithout2GHzIsNotUsable() throws {
        let adapters = try Adapter.build(
            wiphyMessages: [try wiphyMessage(index: 0, name: "phy0", types: [.nan], bands: .band5GHz)],
            interfaceMessages: [], system: .none)
        #expect(adapters.first?.nan.unsupportedReason?.contains("2.4 GHz") == true)
    }

    @Test func splitDumpMessagesOfOneRadioMergeAndRadiosKeepTheirOrder() throws {
        let adapters = try Adapter.build(
            wiphyMessages: [
                try wiphyMessage(index: 3, name: "phy3", types: []),
                try wiphyMessage(index: 1, name: "phy1", types: [.nan]),
                try wiphyMessage(index: 3, name: "phy3", types: [.nan, .nanData]),
            ],
            interfaceMessages: [], system: AdapterSystemInfo(driver: { _ in "drv" }, permanentAddress: { _ in nil }))
        #expect(adapters.map(\.name) == ["phy3", "phy1"])
        #expect(adapters.first?.driver == "drv")
        // The first SUPPORTED_IFTYPES seen wins; a split dump sends each attribute once.
        #expect(adapters.first?.supportedInterfaceTypes == [])
    }

    @Test func wirelessDeviceIDParsesHexAndKnowsItsWiphy() {
        let wdev = WirelessDeviceID("0x300000002")
        #expect(wdev?.rawValue == 0x3_0000_0002)
        #expect(wdev?.wiphy == WiphyIndex(rawValue: 3))
        #expect(wdev?.description == "0x300000002")
        #expect(WirelessDeviceID("12") == WirelessDeviceID(rawValue: 12))
        #expect(WirelessDeviceID("0xzz") == nil)
        #expect(WirelessDeviceID("+12") == nil)
        #expect(WirelessDeviceID("0x+3") == nil)
    }

    @Test func bandsAndTypesPrintAsIWDoes() {
        #expect(NANBands([.band2GHz, .band5GHz]).description == "2.4 GHz + 5 GHz")
        #expect(NANBands().description == "none")
        #expect(InterfaceType.nan.description == "NAN")
        #expect(InterfaceType.station.description == "managed")
        #expect(InterfaceType(rawValue: 99).description == "type 99")
        #expect(FrameType.action.description == "0x00d0")
    }
}

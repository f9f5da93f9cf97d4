import Testing

@_spi(Tools) @testable import WiFiAware

private let radios = [
    SimRadioReport(id: 0, name: "phy0", nan: true, channels: 3),
    SimRadioReport(id: 1, name: "nanA", nan: false, channels: 1),
]

@Test func simListShowsIdNameNANAndChannels() {
    #expect(
        SimRadioReport.lines(radios) == [
            "radio 0  phy0  NAN: yes  3 channels",
            "radio 1  nanA  NAN: no   1 channel",
        ])
}

@Test func simRadioIsFoundByNameBeforeId() throws {
    let named = [
        SimRadioReport(id: 0, name: "1", nan: true, channels: 3),
        SimRadioReport(id: 1, name: "phy1", nan: true, channels: 3),
    ]
    #expect(try Simulator.select("1", from: named).id == 0)
    #expect(try Simulator.select("phy1", from: named).id == 1)
}

@Test func noRadioHereSaysRadiosInOtherNamespacesAreNotVisible() {
    do {
        _ = try Simulator.select("phy3", from: [])
        Issue.record("expected a failure")
    } catch {
        #expect(error.code == .adapterNotFound)
        #expect(error.message.contains("in this network namespace"))
        #expect(error.message.contains("other network namespaces are not visible"))
    }
}

@Test func unknownSimRadioIsAdapterNotFoundListingTheRadios() {
    do {
        _ = try Simulator.select("7", from: radios)
        Issue.record("expected a failure")
    } catch {
        #expect(error.code == .adapterNotFound)
        #expect(error.message == "no simulated radio '7' (radios: 0 phy0, 1 nanA)")
    }
}

@Test func simJSONHasStableFieldNames() throws {
    #expect(
        try AdapterFixtures.json(SimRadioList(radios: [radios[0]]))
            == #"{"radios":[{"channels":3,"id":0,"name":"phy0","nan":true}]}"#)
}

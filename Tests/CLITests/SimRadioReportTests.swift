import Testing

@testable import waware

private let radios = [
    SimRadioReport(id: 0, name: "phy0", nan: true, channels: 3, temporary: false),
    SimRadioReport(id: 1, name: "nanA", nan: nil, channels: 1, temporary: true),
]

@Test func simListShowsIdNameNANAndLifetime() {
    #expect(SimRadioReport.lines(radios) == [
        "radio 0  phy0  NAN: yes" + String(repeating: " ", count: 42) + "3 channels",
        "radio 1  nanA  NAN: unknown (phy not in this network namespace)  1 channel   temporary",
    ])
}

@Test func simRadioIsFoundByNameBeforeId() throws {
    let named = [SimRadioReport(id: 0, name: "1", nan: true, channels: 3, temporary: false),
                 SimRadioReport(id: 1, name: "phy1", nan: true, channels: 3, temporary: false)]
    #expect(try Simulator.select("1", from: named).id == 0)
    #expect(try Simulator.select("phy1", from: named).id == 1)
}

@Test func unknownSimRadioIsAdapterNotFoundListingTheRadios() {
    do {
        _ = try Simulator.select("7", from: radios)
        Issue.record("expected a failure")
    } catch let error as CommandFailure {
        #expect(error.code == .adapterNotFound)
        #expect(error.message == "no simulated radio '7' (radios: 0 phy0, 1 nanA)")
    } catch {
        Issue.record("unexpected \(error)")
    }
}

@Test func simJSONHasStableFieldNames() throws {
    #expect(try Output.json(SimRadioList(radios: [radios[0]]))
        == #"{"radios":[{"channels":3,"id":0,"name":"phy0","nan":true,"temporary":false}]}"#)
}

import Testing

@testable import waware

private let both = [AdapterFixtures.hwsim(), AdapterFixtures.plain()]

/// The failure `select` throws, if any.
private func failure(_ reference: String?, _ adapters: [AdapterReport]) -> CommandFailure? {
    do {
        _ = try AdapterSelection.select(reference, from: adapters)
        return nil
    } catch {
        return error as? CommandFailure
    }
}

@Test func adapterIsFoundByPhyNameIndexInterfaceOrSysfsPath() throws {
    #expect(try AdapterSelection.select("phy1", from: both).phy == "phy1")
    #expect(try AdapterSelection.select("0", from: both).phy == "phy0")
    #expect(try AdapterSelection.select("nan0", from: both).phy == "phy0")
    #expect(try AdapterSelection.select("wlp2s0", from: both).phy == "phy1")
    #expect(try AdapterSelection.select("/sys/class/ieee80211/phy1/", from: both).phy == "phy1")
}

@Test func phyNameWinsOverAnIndexThatLooksTheSame() throws {
    // A phy renamed "1" must be found by name even though wiphy 1 also exists.
    let renamed = AdapterFixtures.hwsim(phy: "1", wiphy: 5)
    #expect(try AdapterSelection.select("1", from: [AdapterFixtures.plain(), renamed]).wiphy == 5)
}

@Test func unknownAdapterFailsWithItsOwnCodeAndListsTheAdapters() throws {
    let error = try #require(failure("phy9", both))
    #expect(error.code == .adapterNotFound)
    #expect(error.message.contains("phy0, phy1"))
}

@Test func defaultIsTheOnlyAdapterEvenWithoutNAN() throws {
    #expect(try AdapterSelection.select(nil, from: [AdapterFixtures.plain()]).phy == "phy1")
}

@Test func defaultIsTheOnlyNANAdapterAmongSeveral() throws {
    #expect(try AdapterSelection.select(nil, from: both).phy == "phy0")
}

@Test func severalNANAdaptersMakeTheDefaultAUsageErrorListingThem() throws {
    let error = try #require(failure(nil, [AdapterFixtures.hwsim(), AdapterFixtures.hwsim(phy: "phy2", wiphy: 2)]))
    #expect(error.code == .usage)
    #expect(error.message.contains("phy0, phy2"))
    #expect(error.message.contains("--adapter"))
}

@Test func noNANAdapterAmongSeveralIsNANUnsupported() throws {
    let error = try #require(failure(nil, [AdapterFixtures.plain(), AdapterFixtures.plain(phy: "phy3", wiphy: 3)]))
    #expect(error.code == .nanUnsupported)
}

@Test func noAdaptersAtAllIsAdapterNotFound() throws {
    #expect(failure(nil, [])?.code == .adapterNotFound)
}

@Test func requiringNANOnAPlainAdapterGivesTheReason() throws {
    do {
        try AdapterSelection.requireNAN(AdapterFixtures.plain())
        Issue.record("expected a failure")
    } catch let error as CommandFailure {
        #expect(error.code == .nanUnsupported)
        #expect(error.message == "phy1 has no NAN: driver has no NAN interface type")
    }
}

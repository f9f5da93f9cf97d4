import NANSystem
import Testing

@testable import WiFiAware

private let both = [
    AdapterFixtures.library(phy: "phy0", wiphy: 0, interface: "nan0"),
    AdapterFixtures.library(phy: "phy1", wiphy: 1, nan: false, interface: "wlp2s0"),
]

/// The failure `select` throws, if any.
private func failure(_ reference: String?, _ adapters: [Adapter]) -> WAError? {
    do {
        _ = try AdapterSelection.select(reference, from: adapters)
        return nil
    } catch {
        return error
    }
}

@Test func adapterIsFoundByPhyNameIndexInterfaceOrSysfsPath() throws {
    #expect(try AdapterSelection.select("phy1", from: both).name == "phy1")
    #expect(try AdapterSelection.select("0", from: both).name == "phy0")
    #expect(try AdapterSelection.select("nan0", from: both).name == "phy0")
    #expect(try AdapterSelection.select("wlp2s0", from: both).name == "phy1")
    #expect(try AdapterSelection.select("/sys/class/ieee80211/phy1/", from: both).name == "phy1")
}

@Test func phyNameWinsOverAnIndexThatLooksTheSame() throws {
    // A phy renamed "1" must be found by name even though wiphy 1 also exists.
    let renamed = AdapterFixtures.library(phy: "1", wiphy: 5)
    #expect(try AdapterSelection.select("1", from: [both[1], renamed]).wiphy.rawValue == 5)
}

@Test func unknownAdapterFailsWithItsOwnCodeAndListsTheAdapters() throws {
    let error = try #require(failure("phy9", both))
    #expect(error.code == .adapterNotFound)
    #expect(error.message.contains("phy0, phy1"))
}

@Test func defaultIsTheOnlyAdapterEvenWithoutNAN() throws {
    #expect(try AdapterSelection.select(nil, from: [both[1]]).name == "phy1")
}

@Test func defaultIsTheOnlyNANAdapterAmongSeveral() throws {
    #expect(try AdapterSelection.select(nil, from: both).name == "phy0")
}

@Test func severalNANAdaptersMakeTheDefaultAmbiguousListingThem() throws {
    let error = try #require(failure(nil, [both[0], AdapterFixtures.library(phy: "phy2", wiphy: 2)]))
    #expect(error.code == .ambiguousAdapter)
    #expect(error.message.contains("phy0, phy2"))
    #expect(error.message.contains("--adapter"))
}

@Test func noNANAdapterAmongSeveralIsWiFiAwareUnsupported() throws {
    let error = try #require(failure(nil, [both[1], AdapterFixtures.library(phy: "phy3", wiphy: 3, nan: false)]))
    #expect(error.code == .wifiAwareUnsupported)
}

@Test func noAdaptersAtAllIsAdapterNotFound() throws {
    #expect(failure(nil, [])?.code == .adapterNotFound)
}

@Test func requiringNANOnAPlainAdapterGivesTheReason() throws {
    do {
        try AdapterSelection.requireNAN(both[1])
        Issue.record("expected a failure")
    } catch {
        #expect(error.code == .wifiAwareUnsupported)
        #expect(
            error.message
                == "phy1 has no NAN: the driver does not offer NAN interfaces (no NAN in the supported interface types)"
        )
    }
}

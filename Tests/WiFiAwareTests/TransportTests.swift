import NANSystem
import Testing

@testable import WiFiAware

/// How ``WATransport`` picks synchronized NAN or USD for an adapter, and the failures USD has words for.
@Suite struct TransportTests {
    private static let usd = USDSupport(stationInterface: true, remainOnChannel: true, actionFrames: true)

    private func adapter(nan: Bool, usd: USDSupport = TransportTests.usd) -> Adapter {
        var adapter = AdapterFixtures.library(nan: nan)
        adapter.usd = usd
        return adapter
    }

    @Test func automaticIsSynchronizedWithNANAndUnsynchronizedWithout() throws {
        #expect(try WATransport.automatic.resolved(for: adapter(nan: true)) == .synchronized)
        #expect(try WATransport.automatic.resolved(for: adapter(nan: false)) == .unsynchronized)
        #expect(try WATransport.unsynchronized.resolved(for: adapter(nan: true)) == .unsynchronized)
    }

    @Test func anAdapterThatCanDoNeitherIsRefusedWithBothReasons() {
        let neither = adapter(nan: false, usd: .none)
        #expect(throws: WAError.self) { try WATransport.automatic.resolved(for: neither) }
        do {
            _ = try WATransport.automatic.resolved(for: neither)
        } catch {
            #expect(error.code == .wifiAwareUnsupported)
            #expect(error.message.contains("neither NAN"))
        }
        #expect(throws: WAError.self) { try WATransport.synchronized.resolved(for: adapter(nan: false)) }
        #expect(throws: WAError.self) { try WATransport.unsynchronized.resolved(for: neither) }
    }

    @Test func eachUSDStartFailureHasItsOwnMessage() {
        func message(_ errno: Errno, _ call: String) -> String {
            WAError.usdStart(NetlinkError(code: .kernel, errno: errno, call: call), on: "phy0").message
        }
        #expect(message(.radioBlocked, "SIOCSIFFLAGS").contains("rfkill unblock wifi"))
        #expect(message(.alreadyInProgress, "NL80211_CMD_REGISTER_FRAME").contains("another program"))
        #expect(message(.busy, "NL80211_CMD_REMAIN_ON_CHANNEL").contains("busy"))
        #expect(message(.invalidArgument, "NL80211_CMD_REMAIN_ON_CHANNEL").contains("regulatory domain"))
        #expect(
            WAError.usdStart(
                NetlinkError(code: .permissionDenied, errno: .notPermitted, call: "NL80211_CMD_REGISTER_FRAME"),
                on: "phy0"
            ).code == .permissionDenied)
    }
}

@Test func aStationConnectedOnAnotherChannelIsWarnedAbout() {
    let warning = WASystem.offChannelWarning(interface: "wlan0", connectedOn: 5180, usd: 2437)
    #expect(warning?.contains("wlan0 is connected on 5180 MHz") == true)
    #expect(WASystem.offChannelWarning(interface: "wlan0", connectedOn: 2437, usd: 2437) == nil)
    #expect(WASystem.offChannelWarning(interface: "wlan0", connectedOn: nil, usd: 2437) == nil)
}

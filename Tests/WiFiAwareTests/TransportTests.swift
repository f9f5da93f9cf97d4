import NANEngine
import NANSystem
import NANWire
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
        let busy = NetlinkError(code: .kernel, errno: .busy, call: "NL80211_CMD_REMAIN_ON_CHANNEL")
        let connected = WAError.usdStart(busy, on: "phy0", station: ("wlan0", 5180))
        #expect(connected.message.contains("wlan0 is connected to an access point on 5180 MHz"))
        #expect(connected.code == .noRadioResources)
        // Connected on USD's own channel, a refusal is the radio being busy (a scan), not the connection.
        #expect(WAError.usdStart(busy, on: "phy0", station: ("wlan0", 2437)).message.contains("a scan"))
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

/// A publisher or subscriber asking for a transport runs on a system that runs it, or on any with `.automatic`.
@Suite struct SessionTransportTests {
    let publish = try! WAPublishableService(name: WAServiceName("_chat._tcp"))
    let subscribe = try! WASubscribableService(name: WAServiceName("_chat._tcp"))

    @Test func automaticAndTheSystemsOwnTransportAreAdmitted() throws {
        try WATransport.automatic.admitSession("publisher", on: .unsynchronized, adapter: "phy0")
        try WATransport.unsynchronized.admitSession("publisher", on: .unsynchronized, adapter: "phy0")
        try WATransport.synchronized.admitSession("subscriber", on: .synchronized, adapter: "phy0")
    }

    @Test func theOtherTransportIsRefusedNamingBoth() {
        do {
            try WATransport.unsynchronized.admitSession("subscriber", on: .synchronized, adapter: "phy1")
            Issue.record("expected a refusal")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("asks for the unsynchronized transport"))
            #expect(error.message.contains("phy1 runs synchronized"))
            #expect(error.message.contains("WASystemOptions.transport = .unsynchronized"))
        }
    }

    @Test func aPublisherAskingForNANOnAUSDSystemThrowsAndStartsNothing() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder, transport: .unsynchronized) { system, backend in
                var parameters = WAPublisherParameters()
                parameters.transport = .synchronized
                var events = system.publish(publish, to: .anyDevice, parameters: parameters).makeAsyncIterator()
                do {
                    _ = try await events.next()
                    Issue.record("expected the publisher to throw")
                } catch let error as WAError {
                    #expect(error.code == .invalidArgument)
                }
                #expect(backend.started.isEmpty)
            }
        }
    }

    @Test func aSubscriberWithTheSystemsTransportStarts() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder, transport: .unsynchronized) { system, _ in
                var parameters = WASubscriberParameters()
                parameters.transport = .unsynchronized
                var events = system.subscribe(to: subscribe, from: .anyDevice, parameters: parameters)
                    .makeAsyncIterator()
                let first = try await events.next()
                #expect(first == .started(InstanceID(1)))
            }
        }
    }
}

@Test func aRefusedUSDListenIsOneLineSayingWhatIsMissed() {
    let refused = WASystem.line(
        for: .refused(frequency: 2437, reason: "NL80211_CMD_REMAIN_ON_CHANNEL: busy (EBUSY)"), period: 100)
    #expect(refused.contains("stopped listening for USD on 2437 MHz"))
    #expect(refused.contains("(NL80211_CMD_REMAIN_ON_CHANNEL: busy (EBUSY))"))
    #expect(refused.contains("every 100 ms"))
    #expect(!refused.contains("\n"))
    #expect(WASystem.line(for: .resumed(frequency: 2437), period: 100) == "the radio listens for USD on 2437 MHz again")
}

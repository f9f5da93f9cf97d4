import NANSystem
import NANWire
import Testing
@testable import NANEngine

/// The runtime's router: events fan out by kind and by frame prefix, overruns are reported, exchanges and
/// cluster waits get what they wait for.
@Suite struct RuntimeRoutingTests {
    let wiphy = WiphyIndex(rawValue: 3)
    var nmi: WirelessDeviceID { WirelessDeviceID(rawValue: UInt64(3) << 32 | 1) }
    var otherRadio: WirelessDeviceID { WirelessDeviceID(rawValue: UInt64(4) << 32 | 1) }

    func frame(body: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 24) + body + [0xAA] }
    let sdf = NANFramePrefix.serviceDiscovery
    let naf = NANFramePrefix.nanAction

    /// Reads the events a stream holds right now (the router yields synchronously).
    func drain(_ stream: AsyncThrowingStream<NL80211Event, any Error>, count: Int) async throws -> [NL80211Event] {
        var events: [NL80211Event] = []
        var iterator = stream.makeAsyncIterator()
        while events.count < count, let event = try await iterator.next() { events.append(event) }
        return events
    }

    @Test func framesGoOnlyToTheClientsOfTheirPrefix() async throws {
        let router = NANEventRouter(wiphy: wiphy, managementInterface: nmi)
        let discovery = router.register(NANEventInterest(framePrefixes: [sdf]))
        let dataPath = router.register(NANEventInterest(framePrefixes: [naf]))
        let sdfFrame = frame(body: sdf)
        let nafFrame = frame(body: naf)
        router.route(.frameReceived(wdev: nmi, frequency: Frequency(megahertz: 2437), signalDBM: -40, bytes: sdfFrame))
        router.route(.frameReceived(wdev: nmi, frequency: Frequency(megahertz: 2437), signalDBM: -40, bytes: nafFrame))
        router.route(
            .frameReceived(wdev: otherRadio, frequency: Frequency(megahertz: 2437), signalDBM: nil, bytes: nafFrame))
        // A frame on another interface of this radio (the NDI, where the data path registers protected NAFs).
        let ndi = WirelessDeviceID(rawValue: nmi.rawValue + 1)
        router.route(.frameReceived(wdev: ndi, frequency: Frequency(megahertz: 2437), signalDBM: nil, bytes: nafFrame))
        router.finish()
        let heardByDiscovery = try await drain(discovery, count: 10)
        let heardByDataPath = try await drain(dataPath, count: 10)
        #expect(
            heardByDiscovery == [
                .frameReceived(wdev: nmi, frequency: Frequency(megahertz: 2437), signalDBM: -40, bytes: sdfFrame)
            ])
        #expect(
            heardByDataPath == [
                .frameReceived(wdev: nmi, frequency: Frequency(megahertz: 2437), signalDBM: -40, bytes: nafFrame),
                .frameReceived(wdev: ndi, frequency: Frequency(megahertz: 2437), signalDBM: nil, bytes: nafFrame),
            ])
    }

    @Test func eventsGoByKindAndOnlyForThisRadio() async throws {
        let router = NANEventRouter(wiphy: wiphy, managementInterface: nmi)
        let discovery = router.register(NANEventInterest(kinds: [.cluster, .discoveryWindow]))
        let dataPath = router.register(NANEventInterest(kinds: [.schedule, .channelEvacuation]))
        let cluster = MACAddress(0x50, 0x6f, 0x9a, 0x01, 0, 1)
        router.route(.clusterJoined(wdev: nmi, clusterID: cluster, isNew: true))
        router.route(.nextDiscoveryWindow(wdev: otherRadio, frequency: Frequency(megahertz: 2437)))
        router.route(.scheduleUpdateDone(wdev: nmi, success: true))
        router.route(.wiphyRemoved(wiphy))
        router.finish()
        #expect(
            try await drain(discovery, count: 10) == [
                .clusterJoined(wdev: nmi, clusterID: cluster, isNew: true), .wiphyRemoved(wiphy),
            ])
        #expect(
            try await drain(dataPath, count: 10) == [
                .scheduleUpdateDone(wdev: nmi, success: true), .wiphyRemoved(wiphy),
            ])
        #expect(router.cluster == cluster)
    }

    @Test func aFullClientIsToldHowManyEventsItLost() async throws {
        let router = NANEventRouter(wiphy: wiphy, managementInterface: nmi)
        let slow = router.register(NANEventInterest(kinds: [.discoveryWindow], bufferSize: 2))
        for megahertz in [2412, 2437, 2462, 5745, 5180] as [UInt32] {
            router.route(.nextDiscoveryWindow(wdev: nmi, frequency: Frequency(megahertz: megahertz)))
        }
        var iterator = slow.makeAsyncIterator()
        _ = try await iterator.next()
        _ = try await iterator.next()
        // Room again: the next event is preceded by the report of the three lost.
        router.route(.nextDiscoveryWindow(wdev: nmi, frequency: Frequency(megahertz: 2484)))
        router.finish()
        #expect(try await iterator.next() == .overrun(droppedEvents: 3))
        #expect(try await iterator.next() == .nextDiscoveryWindow(wdev: nmi, frequency: Frequency(megahertz: 2484)))
    }

    @Test func aStatusGoesToItsWaitAndToTheClientsThatAskForStatuses() async throws {
        let router = NANEventRouter(wiphy: wiphy, managementInterface: nmi)
        let watcher = router.register(NANEventInterest(kinds: [.transmitStatus]))
        let cookie = FrameCookie(rawValue: 9)
        async let acknowledged = router.statuses.acknowledgement(of: 9, within: .seconds(60))
        try await Task.sleep(for: .milliseconds(20))
        router.route(.frameTxStatus(cookie: cookie, acked: true))
        #expect(await acknowledged == true)
        router.finish()
        #expect(try await drain(watcher, count: 10) == [.frameTxStatus(cookie: cookie, acked: true)])
    }

    @Test func aStatusThatCameBeforeTheWaitStillCountsOnce() async {
        let router = NANEventRouter(wiphy: wiphy, managementInterface: nmi)
        router.route(.frameTxStatus(cookie: FrameCookie(rawValue: 5), acked: false))
        #expect(await router.statuses.acknowledgement(of: 5, within: .seconds(60)) == false)
        #expect(await router.statuses.acknowledgement(of: 5, within: .milliseconds(10)) == nil)
    }

    @Test func aWaitWithNoStatusEndsAtItsTimeoutOrWhenItsTaskIsCancelled() async {
        let router = NANEventRouter(wiphy: wiphy, managementInterface: nmi)
        #expect(await router.statuses.acknowledgement(of: 1, within: .milliseconds(10)) == nil)
        let wait = Task { await router.statuses.acknowledgement(of: 2, within: .seconds(600)) }
        wait.cancel()
        #expect(await wait.value == nil)
    }

    @Test func aClusterWaitEndsAtTheJoinOrAtOnceWhenAlreadyJoined() async throws {
        let router = NANEventRouter(wiphy: wiphy, managementInterface: nmi)
        let cluster = MACAddress(0x50, 0x6f, 0x9a, 0x01, 2, 3)
        async let before = router.waitForCluster(timeout: .seconds(60))
        try await Task.sleep(for: .milliseconds(20))
        router.route(.clusterJoined(wdev: nmi, clusterID: cluster, isNew: false))
        let after = await router.waitForCluster(timeout: .seconds(60))
        for outcome in [await before, after] {
            guard case .cluster(let id) = outcome else {
                Issue.record("no cluster")
                continue
            }
            #expect(id == cluster)
        }
    }

    @Test func theEndOfTheSessionEndsEveryClientAndWait() async throws {
        let router = NANEventRouter(wiphy: wiphy, managementInterface: nmi)
        let client = router.register(NANEventInterest(kinds: [.cluster]))
        async let status = router.statuses.acknowledgement(of: 3, within: .seconds(600))
        async let cluster = router.waitForCluster(timeout: .seconds(600))
        try await Task.sleep(for: .milliseconds(20))
        router.finish()
        #expect(try await drain(client, count: 1).isEmpty)
        #expect(await status == nil)
        guard case .ended = await cluster else {
            Issue.record("cluster wait not ended")
            return
        }
        #expect(await router.statuses.acknowledgement(of: 4, within: .seconds(600)) == nil)
    }
}

/// The one start policy.
@Suite struct StartPolicyTests {
    func adapter(bands: NANBands, configurable: Bool = true, userSpace: Bool = true) -> Adapter {
        Adapter(
            wiphy: WiphyIndex(rawValue: 0), name: "phy0", permanentAddress: nil, driver: nil, interfaces: [],
            supportedInterfaceTypes: [.nan],
            nan: NANSupport(
                managementInterface: true, dataInterface: false,
                capabilities: NANCapabilities(
                    configurableSynchronization: configurable, userSpaceDiscoveryEngine: userSpace),
                bands: bands, secure: false, combinations: []))
    }

    @Test func dualBandFallsBackToTheKernelsChoice() {
        let attempts = NANStartOptions().configurations(for: adapter(bands: [.band2GHz, .band5GHz]))
        #expect(attempts.map(\.bands) == [[.band2GHz, .band5GHz], nil])
        #expect(attempts.allSatisfy { $0.notifyDiscoveryWindows && $0.clusterID == nil && $0.masterPreference == 2 })
    }

    @Test func aSingleBandAdapterTriesOnce() {
        #expect(NANStartOptions().configurations(for: adapter(bands: [.band2GHz])).map(\.bands) == [nil])
    }

    @Test func exactBandsHaveNoFallback() {
        var options = NANStartOptions()
        options.bands = .exactly([.band5GHz])
        #expect(options.configurations(for: adapter(bands: [.band2GHz, .band5GHz])).map(\.bands) == [[.band5GHz]])
    }

    @Test func aRandomClusterIDOnlyWhenTheAdapterTakesOne() {
        var options = NANStartOptions()
        options.clusterID = .randomIfConfigurable
        let chosen = options.configurations(for: adapter(bands: [.band2GHz]))[0].clusterID
        #expect(chosen.map { Array($0.bytes.prefix(4)) } == [0x50, 0x6f, 0x9a, 0x01])
        #expect(options.configurations(for: adapter(bands: [.band2GHz], configurable: false))[0].clusterID == nil)
    }

    @Test func discoveryWindowNotificationsFollowUserSpaceDiscovery() {
        #expect(
            NANStartOptions().configurations(for: adapter(bands: [.band2GHz], userSpace: false))[0]
                .notifyDiscoveryWindows == false)
    }
}

import NANWire
import Testing
@_spi(Benchmark) @testable import NANEngine

/// The engine under hostile or changing air: every table fed by frames stays bounded, peers that go quiet
/// are lost and found again, frames of another cluster are ignored, and an overrun is noticed.
@Suite struct EngineBoundsTests {
    static let ourCluster = MACAddress(0x50, 0x6f, 0x9a, 0x01, 0x12, 0x34)

    /// A publish SDF from `source` for `serviceID`, as a spoofing sender would make it.
    static func publishFrame(
        from source: MACAddress, service serviceID: ServiceID, instance: UInt8 = 1, info: [UInt8] = [],
        cluster: MACAddress = ourCluster
    ) throws -> [UInt8] {
        let item = ServiceAnnouncement(
            kind: .publish, serviceID: serviceID, instanceID: InstanceID(rawValue: instance),
            requestorInstanceID: InstanceID(rawValue: 0), serviceInfo: info)
        return try WireCodec().encode(
            OutgoingDiscoveryFrame(destination: .broadcast, announcements: [item]), source: source, cluster: cluster)
    }

    static func spoofed(_ n: Int) -> MACAddress {
        MACAddress(bytes: [
            0x06, 0x00, UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8),
            UInt8(truncatingIfNeeded: n), 0x01,
        ])!
    }

    @Test func aStormOfSpoofedPublishersKeepsThePeerTableAndReportedMapsWithinTheirBounds() async throws {
        var options = DiscoveryEngine.Options()
        options.peerLimit = 64
        options.reportedLimit = 32
        let bench = await Bench(radios: 1, options: options)
        let core = bench.engines[0].core
        let subscriber = try await bench.engines[0].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        for n in 0..<2000 {
            // Half for our service, half for one nobody here subscribes to.
            let frame = try Self.publishFrame(from: Self.spoofed(n), service: service(n % 2 == 0 ? "chat" : "other"))
            await core.handle(.frameReceived(bytes: frame, frequency: 2437, signal: -40))
        }
        #expect(await core.peers.count <= 64)
        #expect(await core.reportedCount(subscriber.instanceID) <= 32)
        #expect(await core.statistics.reportedEvicted > 0)
    }

    @Test func aPeerTableThatIsFullDropsPeersNoFunctionReportedFirst() {
        var table = PeerTable(limit: 4, maximumAge: 100)
        let now = ContinuousClock.now
        let kept = Self.spoofed(1)
        for n in 1...4 { table.heard(Self.spoofed(n), frequency: nil, signal: nil, window: n, period: n, at: now) }
        let forgotten = table.heard(Self.spoofed(5), frequency: nil, signal: nil, window: 5, period: 5, at: now) {
            [kept]
        }
        #expect(forgotten == [Self.spoofed(2)])  // told, so what was kept for it goes too
        #expect(table.count <= 4)
        #expect(table.facts(for: kept) != nil)  // the oldest, but protected
        #expect(table.facts(for: Self.spoofed(2)) == nil)  // the oldest unprotected
        #expect(table.facts(for: Self.spoofed(5)) != nil)
    }

    @Test func aPeerNotHeardForTheMaximumAgeIsForgotten() {
        var table = PeerTable(limit: 10, maximumAge: 3)
        table.heard(Self.spoofed(1), frequency: nil, signal: nil, window: 1, period: 1, at: .now)
        #expect(table.expire(period: 4).isEmpty)
        #expect(table.count == 1)
        #expect(table.expire(period: 5) == [Self.spoofed(1)])
        #expect(table.count == 0)
    }

    @Test func aPublisherThatGoesQuietIsLostAfterTheConfiguredPeriodsAndFoundAgainWhenBack() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        publish.serviceInfo = Array("hi".utf8)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.lostAfterPeriods = 3
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        _ = try await bench.engines[0].publish(publish)
        await bench.ticks(2)
        await bench.air.makeDeaf(address(2))  // out of range: the subscriber hears nothing
        await bench.ticks(2)
        #expect(await bench.engines[1].core.reportedCount(subscriber.instanceID) == 1)  // not yet
        await bench.ticks(3)
        #expect(await bench.engines[1].core.reportedCount(subscriber.instanceID) == 0)
        // Back in range, same instance and same service info: reported again.
        await bench.air.hear(address(2))
        await bench.ticks(2)
        let events = await drain(subscriber)
        let kinds = events.map { event -> String in
            switch event {
            case .discovered: "discovered"
            case .lost(let lost): lost.reported ? "lost" : "forgotten"
            case .terminated: "terminated"
            default: "other"
            }
        }
        #expect(kinds == ["discovered", "lost", "discovered", "terminated"])
    }

    @Test func aSubscribeWithoutLossReportingForgetsSilentlyAndStillFindsThePeerAgain() async throws {
        var options = DiscoveryEngine.Options()
        options.forgetAfterPeriods = 2
        let bench = await Bench(options: options)
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.lostAfterPeriods = nil
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        let first = try await bench.engines[0].publish(publish)
        await bench.ticks(1)
        await first.stop()
        await bench.ticks(4)
        _ = try await bench.engines[0].publish(publish)
        await bench.ticks(1)
        let events = await drain(subscriber)
        #expect(events.compactMap(\.discovered).count == 2)
        #expect(events.contains { if case .lost(let l) = $0 { !l.reported } else { false } })
    }

    @Test func anAnsweredActiveSubscribeAsksAgainSoASolicitedOnlyPublisherIsNotLost() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        _ = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        subscribe.lostAfterPeriods = 4
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(12)
        let events = await drain(subscriber)
        #expect(events.compactMap(\.discovered).count == 1)
        #expect(!events.contains { if case .lost = $0 { true } else { false } })
    }

    @Test func frameFromAnotherClusterIsIgnoredAndCounted() async throws {
        let bench = await Bench(radios: 1)
        let core = bench.engines[0].core
        let subscriber = try await bench.engines[0].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        let foreign = MACAddress(0x50, 0x6f, 0x9a, 0x01, 0x99, 0x99)
        let frame = try Self.publishFrame(from: Self.spoofed(1), service: service("chat"), cluster: foreign)
        await core.handle(.frameReceived(bytes: frame, frequency: 2437, signal: -40))
        #expect(await core.statistics.foreignClusterFrames == 1)
        #expect(await core.peers.count == 0)
        let ours = try Self.publishFrame(from: Self.spoofed(2), service: service("chat"))
        await core.handle(.frameReceived(bytes: ours, frequency: 2437, signal: -40))
        let found = await drain(subscriber).compactMap(\.discovered)
        #expect(found.map(\.peer) == [Self.spoofed(2)])
    }

    @Test func anOverrunIsCountedAndAFollowUpWithNoStatusIsNotAcknowledged() async throws {
        var options = DiscoveryEngine.Options()
        options.followUp.attempts = 1
        let core = DiscoveryEngine(radio: QuietRadio(), codec: WireCodec(), options: options)
        await core.handle(.clusterJoined(Self.ourCluster))
        let session = try await NANEngine(core: core).subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await core.handle(.eventsLost(droppedEvents: nil))
        #expect(try await session.send([1], to: Self.spoofed(1), peerInstanceID: InstanceID(1)) == .notAcknowledged)
        #expect(await core.statistics.radioEventOverruns == 1)
    }

    @Test func aServiceResponseFilterLongerThanAFrameIsRefusedUpFront() async throws {
        let bench = await Bench(radios: 1)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        subscribe.responseFilter = ServiceResponseFilter(
            include: true, addressSet: .addresses((0..<43).map { Self.spoofed($0) }))
        await #expect(throws: DiscoveryError.self) { _ = try await bench.engines[0].subscribe(subscribe) }
        // One that fits is accepted and goes out on the air.
        subscribe.responseFilter = ServiceResponseFilter(
            include: true, addressSet: .addresses((0..<42).map { Self.spoofed($0) }))
        _ = try await bench.engines[0].subscribe(subscribe)
        await bench.ticks(1)
        #expect(await bench.air.sent.count >= 1)
    }
}

/// A radio that sends into the void: no TX status ever comes back.
struct QuietRadio: DiscoveryRadio {
    var localAddress: MACAddress { address(9) }
    var discoveryMode: DiscoveryMode { .userSpace }
    var events: AsyncStream<RadioEvent> { AsyncStream { $0.finish() } }
    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 { 7 }
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? { nil }
    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle {
        throw DiscoveryError("not offloaded")
    }
    func removeFunction(cookie: UInt64) async throws {}
}

/// The storm benchmark's hook drives the real engine: frames in, table sizes out.
@Suite struct OfflineEngineTests {
    @Test func theBenchmarkHookFeedsTheEngineAndReportsItsTableSizes() async throws {
        let offline = await OfflineDiscoveryEngine(localAddress: address(9), cluster: EngineBoundsTests.ourCluster)
        let session = try await offline.engine.subscribe(SubscribeConfiguration(serviceID: service("chat")))
        for n in 0..<10 {
            let frame = try EngineBoundsTests.publishFrame(
                from: EngineBoundsTests.spoofed(n), service: service(n < 4 ? "chat" : "other"))
            await offline.receive(frame)
        }
        await offline.discoveryWindow()
        let sizes = await offline.tableSizes()
        #expect(sizes.peers == 10)
        #expect(sizes.reportedPeerInstances == 4)
        #expect(sizes.largestReported == 4)
        #expect(await drain(session).compactMap(\.discovered).count == 4)
    }
}

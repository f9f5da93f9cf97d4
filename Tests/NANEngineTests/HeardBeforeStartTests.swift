import NANWire
import Testing
@testable import NANEngine

/// A subscribe asked for before the engine could start it reports the publishers heard meanwhile
/// (`SubscribeConfiguration.reportHeardSince`), at once, instead of waiting for their next DW.
@Suite struct HeardBeforeStartTests {
    func unsolicited(on bench: Bench) async throws -> DiscoverySession {
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        publish.serviceInfo = [5]
        return try await bench.engines[0].publish(publish)
    }

    func subscribe(on bench: Bench, since: ContinuousClock.Instant?) async throws -> DiscoverySession {
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.reportHeardSince = since
        return try await bench.engines[1].subscribe(subscribe)
    }

    @Test func aPublishHeardSinceTheSubscribeWasAskedForIsReportedAtItsStart() async throws {
        let bench = await Bench()
        let asked = ContinuousClock.now
        let publisher = try await unsolicited(on: bench)
        await bench.ticks(1)
        let subscriber = try await subscribe(on: bench, since: asked)
        let found = await drain(subscriber).compactMap(\.discovered)
        #expect(found.count == 1)
        #expect(found.first?.peerInstanceID == publisher.instanceID)
        #expect(found.first?.serviceInfo == [5])
    }

    @Test func withoutReportHeardSinceOnlyLaterFramesCount() async throws {
        let bench = await Bench()
        _ = try await unsolicited(on: bench)
        await bench.ticks(1)
        let subscriber = try await subscribe(on: bench, since: nil)
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
    }

    @Test func aPublishHeardBeforeTheSubscribeWasAskedForIsNotReported() async throws {
        let bench = await Bench()
        _ = try await unsolicited(on: bench)
        await bench.ticks(1)
        let subscriber = try await subscribe(on: bench, since: .now)
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
    }

    @Test func publishesOlderThanThePreviousPeriodAreForgotten() async throws {
        let bench = await Bench()
        let asked = ContinuousClock.now
        let publisher = try await unsolicited(on: bench)
        await bench.ticks(1)
        await publisher.stop()
        await bench.ticks(2)
        let subscriber = try await subscribe(on: bench, since: asked)
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
    }

    @Test func theMemoryKeepsTheNewestAnnouncementPerPeerInstanceWithinItsLimit() {
        var recent = RecentPublishes(limit: 2)
        let now = ContinuousClock.now
        for instance in [1, 1, 2, 3] as [UInt8] {
            let item = ServiceAnnouncement(
                kind: .publish, serviceID: service("chat"), instanceID: InstanceID(rawValue: instance))
            recent.note(item, from: address(1), close: true, at: now, period: 0)
        }
        #expect(recent.heard.map(\.item.instanceID.rawValue) == [2, 3])
        recent.expire(period: 2)
        #expect(recent.heard.isEmpty)
    }
}

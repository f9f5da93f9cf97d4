import NANWire
import Testing
@testable import NANEngine

@Suite struct USDEngineTests {
    @Test func passiveSubscribeDiscoversUnsolicitedPublishSentToTheNANNetworkIDOnChannel6() async throws {
        let bench = await USDBench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        publish.serviceInfo = Array("hello".utf8)
        let (subscriber, events) = try await bench.engines[1].start(
            .subscribe(SubscribeConfiguration(serviceID: service("chat"))))
        let (publisher, _) = try await bench.engines[0].start(.publish(publish))
        await bench.ticks(2)
        let found = await usdEvents(of: subscriber, events, on: bench.engines[1]).compactMap(\.discovered)
        #expect(found.count == 1)
        #expect(found.first?.peer == usdAddress(0))
        #expect(found.first?.peerInstanceID == publisher)
        #expect(found.first?.serviceInfo == Array("hello".utf8))
        let frame = try #require(await bench.air.sent.first { $0.from == usdAddress(0) })
        var reader = ByteReader(frame.bytes)
        let header = try ManagementHeader(reading: &reader)
        #expect(header.destination == .nanNetworkID)
        #expect(header.bssid == .nanNetworkID)
        #expect(frame.frequency == 2437)
    }

    @Test func activeSubscribeGetsAUnicastAnswerFromASolicitedOnlyPublish() async throws {
        let bench = await USDBench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        let (publisher, published) = try await bench.engines[0].start(.publish(publish))
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        let (subscriber, subscribed) = try await bench.engines[1].start(.subscribe(subscribe))
        await bench.ticks(1)
        let found = await usdEvents(of: subscriber, subscribed, on: bench.engines[1]).compactMap(\.discovered)
        #expect(found.map(\.peerInstanceID) == [publisher])
        let replied = await usdEvents(of: publisher, published, on: bench.engines[0]).compactMap(\.replied)
        #expect(replied.map(\.peer) == [usdAddress(1)])
        // The publisher never announced itself: its only frames are answers to the subscriber.
        let answers = await bench.air.sent.filter { $0.from == usdAddress(0) }
        #expect(!answers.isEmpty)
        for answer in answers { #expect(MACAddress(bytes: answer.bytes[4..<10]) == usdAddress(1)) }
    }

    @Test func followUpIsAcknowledgedAndReceivedByThePublisher() async throws {
        let bench = await USDBench()
        let (publisher, published) = try await bench.engines[0].start(
            .publish(PublishConfiguration(serviceID: service("chat"))))
        let (subscriber, subscribed) = try await bench.engines[1].start(
            .subscribe(SubscribeConfiguration(serviceID: service("chat"))))
        await bench.ticks(1)
        let status = try await bench.engines[1].send(
            Array("ping".utf8), from: subscriber, to: usdAddress(0), peerInstanceID: publisher)
        #expect(status == .acknowledged)
        let messages = await usdEvents(of: publisher, published, on: bench.engines[0]).compactMap(\.message)
        #expect(messages.map(\.payload) == [Array("ping".utf8)])
        #expect(messages.first?.peer == usdAddress(1))
        #expect(messages.first?.peerInstanceID == subscriber)
        _ = await usdEvents(of: subscriber, subscribed, on: bench.engines[1])
    }

    @Test func followUpToAnAbsentPeerIsNotAcknowledgedAfterEveryAttempt() async throws {
        let bench = await USDBench()
        await bench.air.makeDeaf(usdAddress(0))
        let (subscriber, _) = try await bench.engines[1].start(
            .subscribe(SubscribeConfiguration(serviceID: service("chat"))))
        let before = await bench.air.sent.count
        let status = try await bench.engines[1].send(
            [1], from: subscriber, to: usdAddress(0), peerInstanceID: InstanceID(rawValue: 1))
        #expect(status == .notAcknowledged)
        #expect(await bench.air.sent.count - before == USDOptions().followUpAttempts)
    }

    @Test func publishInAClusterIsNotUSDAndChangesNothing() async throws {
        let bench = await USDBench()
        let (subscriber, events) = try await bench.engines[1].start(
            .subscribe(SubscribeConfiguration(serviceID: service("chat"))))
        let cluster = MACAddress(0x50, 0x6f, 0x9a, 0x01, 0x12, 0x34)
        let frame = try WireCodec().encode(
            OutgoingDiscoveryFrame(
                destination: .broadcast,
                announcements: [
                    ServiceAnnouncement(kind: .publish, serviceID: service("chat"), instanceID: InstanceID(rawValue: 3))
                ]),
            source: usdAddress(5), cluster: cluster)
        await bench.air.inject(frame, to: usdAddress(1))
        await bench.air.inject([0xd0, 0, 1, 2], to: usdAddress(1))
        #expect(await bench.engines[1].knownPeers.isEmpty)
        #expect(await usdEvents(of: subscriber, events, on: bench.engines[1]).compactMap(\.discovered).isEmpty)
    }

    @Test func peersAndReportedInstancesStayWithinTheirBounds() async throws {
        var options = USDBench.options
        options.maximumPeers = 4
        options.maximumReportedPerSession = 3
        let bench = await USDBench(count: 1, options: options)
        let (subscriber, events) = try await bench.engines[0].start(
            .subscribe(SubscribeConfiguration(serviceID: service("chat"))))
        for index in 1...10 {
            let frame = try WireCodec().encode(
                OutgoingDiscoveryFrame(
                    destination: .nanNetworkID,
                    announcements: [
                        ServiceAnnouncement(
                            kind: .publish, serviceID: service("chat"), instanceID: InstanceID(rawValue: 1))
                    ]),
                source: usdAddress(index), cluster: .nanNetworkID)
            await bench.air.inject(frame, to: usdAddress(0))
        }
        #expect(await bench.engines[0].knownPeers.count == 4)
        // Ten publishers, each reported once; the session remembers the last three only.
        #expect(await usdEvents(of: subscriber, events, on: bench.engines[0]).compactMap(\.discovered).count == 10)
    }

    @Test func sessionEndsWhenItsTimeToLiveRunsOut() async throws {
        let bench = await USDBench()
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.timeToLive = TimeToLive(duration: .milliseconds(20))
        let (_, events) = try await bench.engines[0].start(.subscribe(subscribe))
        try await Task.sleep(for: .milliseconds(40))
        await bench.ticks(1)
        var reasons: [TerminationReason] = []
        for await event in events { if let reason = event.termination { reasons.append(reason) } }
        #expect(reasons == [.timeToLiveExpired])
    }

    @Test func radioKeepsTheNextListenQueuedWhileSessionsRun() async throws {
        let bench = await USDBench(count: 1)
        await bench.ticks(1)
        #expect(await bench.air.listens[usdAddress(0)] == nil)
        _ = try await bench.engines[0].start(.subscribe(SubscribeConfiguration(serviceID: service("chat"))))
        await bench.ticks(1)
        // The current period and the next, queued in the kernel so that it starts with no gap.
        #expect(await bench.air.listens[usdAddress(0)] == 2)
        await bench.ticks(1)
        #expect(await bench.air.listens[usdAddress(0)] == 2)
        await bench.engines[0].handle(.listenEnded)
        #expect(await bench.air.listens[usdAddress(0)] == 3)
    }

    @Test func removedInterfaceEndsEverySession() async throws {
        let bench = await USDBench(count: 1)
        let (_, events) = try await bench.engines[0].start(
            .publish(PublishConfiguration(serviceID: service("chat"))))
        await bench.engines[0].handle(.interfaceRemoved)
        var reasons: [TerminationReason] = []
        for await event in events { if let reason = event.termination { reasons.append(reason) } }
        #expect(reasons == [.deviceRemoved])
        await #expect(throws: DiscoveryError.self) {
            _ = try await bench.engines[0].start(.subscribe(SubscribeConfiguration(serviceID: service("chat"))))
        }
    }
}

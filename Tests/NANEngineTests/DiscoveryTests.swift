import NANWire
import Testing
@testable import NANEngine

@Suite struct PublishSubscribeTests {
    @Test func passiveSubscribeDiscoversUnsolicitedPublishWithItsServiceInfo() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        publish.serviceInfo = Array("hello".utf8)
        let publisher = try await bench.engines[0].publish(publish)
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(3)
        let found = await drain(subscriber).compactMap(\.discovered)
        #expect(found.count == 1)
        #expect(found.first?.peer == address(1))
        #expect(found.first?.peerInstanceID == publisher.instanceID)
        #expect(found.first?.localInstanceID == subscriber.instanceID)
        #expect(found.first?.serviceInfo == Array("hello".utf8))
    }

    @Test func repeatedPublishIsReportedOnceUnlessServiceInfoChanges() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        publish.serviceInfo = [1]
        let first = try await bench.engines[0].publish(publish)
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(4)
        await first.stop()
        // Same peer, new instance and new info: a new result; then the same info again: nothing new.
        publish.serviceInfo = [2]
        _ = try await bench.engines[0].publish(publish)
        await bench.ticks(3)
        let found = await drain(subscriber).compactMap(\.discovered)
        #expect(found.map(\.serviceInfo) == [[1], [2]])
    }

    @Test func passiveSubscribeDoesNotHearSolicitedOnlyPublish() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        _ = try await bench.engines[0].publish(publish)
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(3)
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
    }

    @Test func activeSubscribeFindsSolicitedOnlyPublishAndPublisherSeesTheReply() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        publish.serviceInfo = [7]
        let publisher = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        subscribe.serviceInfo = [9]
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(1)
        let found = await drain(subscriber).compactMap(\.discovered)
        #expect(found.count == 1)
        #expect(found.first?.serviceInfo == [7])
        let replied = await drain(publisher).compactMap(\.replied)
        #expect(replied.count == 1)
        #expect(replied.first?.peer == address(2))
        #expect(replied.first?.peerInstanceID == subscriber.instanceID)
        #expect(replied.first?.serviceInfo == [9])
    }

    @Test func activeSubscribeStopsTransmittingOnceAnswered() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        _ = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        _ = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(5)
        let fromSubscriber = await bench.air.sent.filter { $0.from == address(2) }
        #expect(fromSubscriber.count == 1)
    }

    @Test func unrelatedServiceIsNotReported() async throws {
        let bench = await Bench()
        _ = try await bench.engines[0].publish(PublishConfiguration(serviceID: service("other")))
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(2)
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
    }

    @Test func serviceInfoLongerThanAFrameCarriesIsRefused() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.serviceInfo = Array(repeating: 0, count: 256)
        await #expect(throws: DiscoveryError.tooLong(256, limit: 255)) {
            _ = try await bench.engines[0].publish(publish)
        }
    }

    @Test func publishWithNoTypeIsRefused() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = []
        await #expect(throws: DiscoveryError.noPublishType) { _ = try await bench.engines[0].publish(publish) }
    }
}

@Suite struct FilterTests {
    @Test func subscribeWithNonMatchingFilterFindsNothing() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.transmitFilter = filter("red")
        _ = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.receiveFilter = filter("blue")
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(3)
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
    }

    @Test func subscribeWithMatchingFilterFindsThePublish() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.transmitFilter = filter("red,big")
        _ = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.receiveFilter = filter("red,*")
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(2)
        #expect(await drain(subscriber).compactMap(\.discovered).count == 1)
    }

    @Test func publishIgnoresActiveSubscribeFailingItsReceiveFilter() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        publish.receiveFilter = filter("red")
        let publisher = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        subscribe.transmitFilter = filter("blue")
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(3)
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
        #expect(await drain(publisher).compactMap(\.replied).isEmpty)
    }

    @Test func responseFilterExcludingThePublisherHidesIt() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        let publisher = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        subscribe.responseFilter = ServiceResponseFilter(include: false, addressSet: .addresses([address(1)]))
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(3)
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
        #expect(await drain(publisher).compactMap(\.replied).isEmpty)
    }

    @Test func responseFilterIncludingThePublisherLetsItAnswer() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        _ = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        subscribe.responseFilter = ServiceResponseFilter(include: true, addressSet: .addresses([address(1)]))
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(1)
        #expect(await drain(subscriber).compactMap(\.discovered).count == 1)
    }

    @Test func closeRangePublishIsIgnoredByAFarSubscriber() async throws {
        let air = FakeAir(codec: WireCodec())
        let near = DiscoveryEngine(radio: FakeRadio(localAddress: address(1), air: air), codec: air.codec)
        let far = DiscoveryEngine(radio: FakeRadio(localAddress: address(2), air: air), codec: air.codec)
        await air.attach(near, signal: -80)
        await air.attach(far)
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.closeRangeOnly = true
        _ = try await NANEngine(core: near).publish(publish)
        let subscriber = try await NANEngine(core: far).subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await air.tick()
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
    }

    @Test func bloomFilterExcludingThePublisherHidesIt() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        _ = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        let bloom = try BloomFilter(index: 1, length: 8, addresses: [address(1)])
        subscribe.responseFilter = ServiceResponseFilter(include: false, addressSet: .bloomFilter(bloom))
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(3)
        #expect(await drain(subscriber).compactMap(\.discovered).isEmpty)
    }
}

@Suite struct FollowUpTests {
    @Test func followUpsFlowBothWaysAndAreAcknowledged() async throws {
        let bench = await Bench()
        let publisher = try await bench.engines[0].publish(PublishConfiguration(serviceID: service("chat")))
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(1)
        let status = try await subscriber.send(Array("ping".utf8), to: address(1), peerInstanceID: publisher.instanceID)
        #expect(status == .acknowledged)
        let back = try await publisher.send(Array("pong".utf8), to: address(2), peerInstanceID: subscriber.instanceID)
        #expect(back == .acknowledged)
        let atPublisher = await drain(publisher).compactMap(\.message)
        #expect(atPublisher.map(\.payload) == [Array("ping".utf8)])
        #expect(atPublisher.first?.peerInstanceID == subscriber.instanceID)
        #expect(atPublisher.first?.peer == address(2))
        let atSubscriber = await drain(subscriber).compactMap(\.message)
        #expect(atSubscriber.map(\.payload) == [Array("pong".utf8)])
    }

    @Test func followUpToADeafPeerIsReportedNotAcknowledged() async throws {
        var options = DiscoveryEngine.Options()
        options.followUp.attempts = 1
        let bench = await Bench(options: options)
        let publisher = try await bench.engines[0].publish(PublishConfiguration(serviceID: service("chat")))
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.air.makeDeaf(address(1))
        let status = try await subscriber.send([1], to: address(1), peerInstanceID: publisher.instanceID)
        #expect(status == .notAcknowledged)
    }

    @Test func followUpRetriesInTheNextWindowUntilAcknowledged() async throws {
        let bench = await Bench()
        let publisher = try await bench.engines[0].publish(PublishConfiguration(serviceID: service("chat")))
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.air.makeDeaf(address(1))
        let sending = Task { try await subscriber.send([1], to: address(1), peerInstanceID: publisher.instanceID) }
        // Let the first attempt fail, then make the peer hear and announce a window.
        while await bench.air.sent.filter({ $0.from == address(2) }).isEmpty { await Task.yield() }
        await bench.air.hear(address(1))
        await bench.ticks(1)
        #expect(try await sending.value == .acknowledged)
    }

    @Test func messageLongerThanAFrameAllowsIsRefused() async throws {
        let bench = await Bench()
        let publisher = try await bench.engines[0].publish(PublishConfiguration(serviceID: service("chat")))
        await #expect(throws: DiscoveryError.tooLong(300, limit: 255)) {
            _ = try await publisher.send(
                Array(repeating: 0, count: 300), to: address(2), peerInstanceID: InstanceID(rawValue: 1))
        }
    }

    @Test func followUpToAnUnknownInstanceIsCountedAndDropped() async throws {
        let bench = await Bench()
        let publisher = try await bench.engines[0].publish(PublishConfiguration(serviceID: service("chat")))
        _ = try await publisher.send([1], to: address(2), peerInstanceID: InstanceID(rawValue: 77))
        #expect(await bench.engines[1].statistics().unmatchedFollowUps == 1)
    }
}

@Suite struct LifecycleTests {
    @Test func publishWithTimeToLiveInWindowsEndsWithReasonTTL() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.timeToLive = TimeToLive(discoveryWindows: 2)
        let publisher = try await bench.engines[0].publish(publish)
        await bench.ticks(3)
        var events: [DiscoveryEvent] = []
        for await event in publisher { events.append(event) }
        #expect(events.last?.termination == .timeToLiveExpired)
        #expect(await bench.air.sent.count == 2)
    }

    @Test func timeToLiveInWindowsCountsPeriodsNotEachBandsWindow() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.timeToLive = TimeToLive(discoveryWindows: 2)
        let publisher = try await bench.engines[0].publish(publish)
        // On one band a TTL of 2 DWs ends at the second notification (see the test above). With a 5 GHz DW
        // in each period, the 5 GHz notification must not count: the publish is still announced there and
        // ends only at the next 2.4 GHz notification, two periods after it started.
        await bench.air.tick(frequency: 2437)
        await bench.air.tick(frequency: 5745)
        let sentInTwoPeriods = await bench.air.sent.count
        #expect(sentInTwoPeriods == 3, "sent \(sentInTwoPeriods)")
        await bench.air.tick(frequency: 2437)
        var events: [DiscoveryEvent] = []
        for await event in publisher { events.append(event) }
        #expect(events.last?.termination == .timeToLiveExpired)
        #expect(await bench.air.sent.count == 3)
    }

    @Test func publishWithTimeToLiveInSecondsEndsWithReasonTTL() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.timeToLive = try .seconds(0.05)
        let publisher = try await bench.engines[0].publish(publish)
        var events: [DiscoveryEvent] = []
        for await event in publisher { events.append(event) }
        #expect(events == [.terminated(.timeToLiveExpired)])
    }

    @Test func stoppingEndsWithReasonUserRequestAndRefusesLaterMessages() async throws {
        let bench = await Bench()
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        #expect(await drain(subscriber) == [.terminated(.userRequest)])
        await #expect(throws: DiscoveryError.sessionEnded) {
            _ = try await subscriber.send([1], to: address(1), peerInstanceID: InstanceID(rawValue: 1))
        }
    }

    @Test func eightPublishesAndEightSubscribesEachFindExactlyTheirOwn() async throws {
        let bench = await Bench()
        var publishers: [DiscoverySession] = []
        var subscribers: [DiscoverySession] = []
        for index in 0..<8 {
            var publish = PublishConfiguration(serviceID: service("svc\(index)"))
            publish.serviceInfo = [UInt8(index)]
            publish.type = index.isMultiple(of: 2) ? .unsolicited : .solicited
            publishers.append(try await bench.engines[0].publish(publish))
            var subscribe = SubscribeConfiguration(serviceID: service("svc\(index)"))
            subscribe.active = !index.isMultiple(of: 2)
            subscribers.append(try await bench.engines[1].subscribe(subscribe))
        }
        #expect(Set(publishers.map(\.instanceID)).count == 8)
        #expect(Set(subscribers.map(\.instanceID)).count == 8)
        await bench.ticks(2)
        for (index, subscriber) in subscribers.enumerated() {
            let found = await drain(subscriber).compactMap(\.discovered)
            #expect(found.count == 1)
            #expect(found.first?.serviceInfo == [UInt8(index)])
            #expect(found.first?.peerInstanceID == publishers[index].instanceID)
        }
    }

    @Test func instanceIDsRunOutAfter255AndComeBackWhenStopped() async throws {
        let bench = await Bench()
        var sessions: [DiscoverySession] = []
        for _ in 0..<255 {
            sessions.append(try await bench.engines[0].subscribe(SubscribeConfiguration(serviceID: service("x"))))
        }
        await #expect(throws: DiscoveryError.tooManyServices) {
            _ = try await bench.engines[0].subscribe(SubscribeConfiguration(serviceID: service("x")))
        }
        await sessions[3].stop()
        let again = try await bench.engines[0].subscribe(SubscribeConfiguration(serviceID: service("x")))
        #expect(again.instanceID == sessions[3].instanceID)
    }
}

@Suite struct RobustnessTests {
    @Test func undecodableFramesAreCountedAndDropped() async throws {
        let bench = await Bench()
        let core = bench.engines[0].core
        let subscriber = try await bench.engines[0].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        for length in 0..<64 {
            let junk = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
            await core.handle(.frameReceived(bytes: junk, frequency: 2437, signal: -40))
        }
        let statistics = await bench.engines[0].statistics()
        #expect(statistics.framesReceived == 64)
        #expect(statistics.framesUndecodable == 64)
        #expect(await drain(subscriber) == [.terminated(.userRequest)])
    }

    @Test func peerRadioFactsComeFromItsFrames() async throws {
        let bench = await Bench()
        _ = try await bench.engines[0].publish(PublishConfiguration(serviceID: service("chat")))
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.ticks(3)
        let peers = await bench.engines[1].peers()
        #expect(peers.map(\.address) == [address(1)])
        #expect(peers.first?.radio.signal == -50)
        #expect(peers.first?.radio.frequency == 2437)
        #expect(peers.first?.radio.discoveryWindowsHeard == 3)
        let found = await drain(subscriber).compactMap(\.discovered)
        #expect(found.first?.radio.signal == -50)
    }

    @Test func interfaceRemovalEndsEverySessionWithReasonDeviceRemoved() async throws {
        let bench = await Bench()
        let subscriber = try await bench.engines[0].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await bench.engines[0].core.handle(.interfaceRemoved)
        var events: [DiscoveryEvent] = []
        for await event in subscriber { events.append(event) }
        #expect(events == [.terminated(.deviceRemoved)])
        await #expect(throws: DiscoveryError.engineStopped) {
            _ = try await bench.engines[0].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        }
    }
}

@Suite struct SynchronisationTests {
    @Test func engineIsReadyOnlyAfterAJoinAndTheNextDiscoveryWindow() async throws {
        let air = FakeAir(codec: WireCodec())
        let core = DiscoveryEngine(radio: FakeRadio(localAddress: address(1), air: air), codec: WireCodec())
        #expect(await core.waitForCluster(timeout: .milliseconds(20)) == false)
        await core.handle(.clusterJoined(MACAddress(0x50, 0x6f, 0x9a, 0x01, 0, 1)))
        #expect(await core.waitForCluster(timeout: .milliseconds(20)) == false)
        let waiting = Task { await core.waitForCluster(timeout: .seconds(5)) }
        await core.handle(.discoveryWindow(frequency: 2437))
        #expect(await waiting.value)
    }
}

import Foundation
import NANWire
import Testing

@testable import NANEngine
@testable import WiFiAware

@Suite struct SessionTests {
    let chatPublish = try! WAPublishableService(name: WAServiceName("_chat._tcp"), serviceInfo: Array("v=1".utf8))
    let chatSubscribe = try! WASubscribableService(name: WAServiceName("_chat._tcp"))

    @Test func pairedSelectionReportsThePairedPublisherAndIgnoresAnUnpairedOne() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                let paired = try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                var events = system.subscribe(to: chatSubscribe, from: .selected([paired])).makeAsyncIterator()
                #expect(try await events.next() == .started(InstanceID(1)))
                backend.emit(.discovered(result(from: 2, info: "unpaired")))
                backend.emit(.discovered(result(from: 1, info: "paired")))
                guard case .discovered(let endpoint) = try await events.next() else {
                    Issue.record("expected a discovery")
                    return
                }
                #expect(endpoint.address == testAddress(1))
                #expect(endpoint.device?.displayName == "A")
                #expect(endpoint.serviceInfo == Array("paired".utf8))
                #expect(endpoint.performance.signalStrength == -40)
            }
        }
    }

    @Test func anyDeviceReportsEveryPeerAndNamesThePairedOnes() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                var events = system.subscribe(to: chatSubscribe, from: .anyDevice).makeAsyncIterator()
                _ = try await events.next()
                backend.emit(.discovered(result(from: 2)))
                backend.emit(.discovered(result(from: 1)))
                let first = try await events.next()
                let second = try await events.next()
                guard case .discovered(let unpaired) = first, case .discovered(let named) = second else {
                    Issue.record(
                        "expected two discoveries, got \(String(describing: first)), \(String(describing: second))")
                    return
                }
                #expect(unpaired.device == nil)
                #expect(named.device?.displayName == "A")
            }
        }
    }

    @Test func aChangedServiceInfoIsAnUpdateOfTheSameEndpoint() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                var events = system.subscribe(to: chatSubscribe).makeAsyncIterator()
                _ = try await events.next()
                backend.emit(.discovered(result(from: 1, info: "one")))
                backend.emit(.discovered(result(from: 1, info: "two")))
                guard case .discovered = try await events.next(), case .updated(let endpoint) = try await events.next()
                else {
                    Issue.record("expected discovered then updated")
                    return
                }
                #expect(endpoint.serviceInfo == Array("two".utf8))
            }
        }
    }

    @Test func anEmptyStoreFailsAPairedSelectionWithNoPairedDevices() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                await #expect(throws: WAError.self) {
                    _ = try await collect(system.subscribe(to: chatSubscribe, from: .allPairedDevices), count: 1)
                }
                do {
                    _ = try await collect(system.publish(chatPublish, to: .allPairedDevices), count: 1)
                } catch let error as WAError {
                    #expect(error.code == .noPairedDevices)
                }
                #expect(backend.started.isEmpty)
            }
        }
    }

    @Test func messagesFromUnselectedPeersAreDroppedAndRepliesReachTheSender() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                let publisher = system.publish(chatPublish)
                var events = publisher.makeAsyncIterator()
                _ = try await events.next()
                #expect(backend.started.first?.publish?.serviceInfo == Array("v=1".utf8))
                backend.emit(.messageReceived(message(from: 2, "from stranger")))
                backend.emit(.messageReceived(message(from: 1, "ping")))
                guard case .messageReceived(let received) = try await events.next() else {
                    Issue.record("expected a message")
                    return
                }
                #expect(received.payload == Array("ping".utf8))
                #expect(received.endpoint.device?.displayName == "A")
                let status = try await publisher.send(Array("pong".utf8), to: received.endpoint)
                #expect(status == .acknowledged)
                #expect(backend.sentPayloads == [Array("pong".utf8)])
            }
        }
    }

    @Test func removingThePairedDeviceLosesItsEndpoint() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                let a = try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                try system.store.add(name: "B", managementAddresses: [testAddress(2)])
                var events = system.subscribe(to: chatSubscribe).makeAsyncIterator()
                _ = try await events.next()
                backend.emit(.discovered(result(from: 1)))
                guard case .discovered = try await events.next() else {
                    Issue.record("expected a discovery")
                    return
                }
                try system.store.remove(a.id)
                guard case .lost(let lost) = try await events.next() else {
                    Issue.record("expected the endpoint to be lost")
                    return
                }
                #expect(lost.address == testAddress(1))
                backend.emit(.discovered(result(from: 1, instance: 8)))
                backend.emit(.discovered(result(from: 2)))
                guard case .discovered(let b) = try await events.next() else {
                    Issue.record("expected B")
                    return
                }
                #expect(b.address == testAddress(2))
            }
        }
    }

    @Test func radioEventsLostAreReportedWithTheirCountAndTheSessionGoesOn() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                var events = system.subscribe(to: chatSubscribe).makeAsyncIterator()
                _ = try await events.next()
                backend.emit(.discovered(result(from: 1)))
                _ = try await events.next()
                backend.emit(.eventsLost(EventLoss(droppedEvents: 4)))
                #expect(try await events.next() == .eventsLost(droppedEvents: 4))
                backend.emit(.eventsLost(EventLoss(droppedEvents: nil)))
                #expect(try await events.next() == .eventsLost(droppedEvents: nil))
                // The endpoint found before the loss is still known: a message from it is delivered.
                backend.emit(.messageReceived(message(from: 1, "still here")))
                guard case .messageReceived(let message) = try await events.next() else {
                    Issue.record("expected the message after the loss")
                    return
                }
                #expect(message.endpoint.address == testAddress(1))
            }
        }
    }

    @Test func aPeerTheEngineLosesIsReportedLost() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                var events = system.subscribe(to: chatSubscribe).makeAsyncIterator()
                _ = try await events.next()
                backend.emit(.discovered(result(from: 1)))
                _ = try await events.next()
                backend.emit(
                    .lost(
                        LostPeer(
                            peer: testAddress(1), peerInstanceID: InstanceID(7), localInstanceID: InstanceID(1),
                            reported: true)))
                guard case .lost(let lost) = try await events.next() else {
                    Issue.record("expected the silent peer to be lost")
                    return
                }
                #expect(lost.address == testAddress(1))
                // Heard again: discovered again.
                backend.emit(.discovered(result(from: 1)))
                guard case .discovered = try await events.next() else {
                    Issue.record("expected the peer to be found again")
                    return
                }
            }
        }
    }

    @Test func thePeerTimeoutReachesTheEngineInDiscoveryWindowPeriods() async throws {
        var parameters = WASubscriberParameters()
        #expect(try WASubscriber.configuration(chatSubscribe, parameters).lostAfterPeriods == 20)  // 10 s
        parameters.peerTimeout = .milliseconds(200)
        #expect(try WASubscriber.configuration(chatSubscribe, parameters).lostAfterPeriods == 1)
        parameters.peerTimeout = nil
        #expect(try WASubscriber.configuration(chatSubscribe, parameters).lostAfterPeriods == nil)
        #expect(try WAPublisher.configuration(chatPublish, WAPublisherParameters()).lostAfterPeriods == nil)
    }

    @Test func aPeerHeardBeforeItsDeviceWasPairedIsDiscoveredWhenPaired() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                let subscriber = system.subscribe(to: chatSubscribe)
                let stopper = Task {
                    try await Task.sleep(for: .seconds(10)); await subscriber.stop()
                }
                defer { stopper.cancel() }
                var events = subscriber.makeAsyncIterator()
                _ = try await events.next()
                // Heard once, unpaired: not reported; the engine will not report it again (same info).
                backend.emit(.discovered(result(from: 2, info: "hi")))
                try await Task.sleep(for: .milliseconds(300))  // the session has handled it
                try system.store.add(name: "B", managementAddresses: [testAddress(2)])
                guard case .discovered(let endpoint) = try await events.next() else {
                    Issue.record("expected the newly paired peer to be discovered")
                    return
                }
                #expect(endpoint.address == testAddress(2))
                #expect(endpoint.device?.displayName == "B")
                #expect(endpoint.serviceInfo == Array("hi".utf8))
            }
        }
    }

    @Test func removalsAreAppliedAfterAReadOfAStoreThatWasBrieflyCorrupt() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                let storeURL = folder.appendingPathComponent("devices.json")
                try system.store.add(name: "B", managementAddresses: [testAddress(2)])
                let onlyB = try Data(contentsOf: storeURL)
                try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                let subscriber = system.subscribe(to: chatSubscribe)
                let stopper = Task {
                    try await Task.sleep(for: .seconds(15)); await subscriber.stop()
                }
                defer { stopper.cancel() }
                var events = subscriber.makeAsyncIterator()
                _ = try await events.next()
                backend.emit(.discovered(result(from: 1)))
                _ = try await events.next()
                // A hand edit: first half-written (corrupt), read by the watcher, then the finished file.
                try Data("{\"version\": 1, \"devi".utf8).write(to: storeURL)
                try await Task.sleep(for: .milliseconds(1500))
                try onlyB.write(to: storeURL)
                guard case .lost(let lost) = try await events.next() else {
                    Issue.record("expected A to be lost after the store was fixed")
                    return
                }
                #expect(lost.address == testAddress(1))
            }
        }
    }

    @Test func theAdapterGoingAwayEndsTheSessionWithDeviceRemoved() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                var events = system.subscribe(to: chatSubscribe, from: .anyDevice).makeAsyncIterator()
                _ = try await events.next()
                backend.emit(.terminated(.deviceRemoved))
                do {
                    while try await events.next() != nil {}
                    Issue.record("the session ended without an error")
                } catch let error as WAError {
                    #expect(error.code == .deviceRemoved)
                    #expect(error.message.contains("phy0"))
                }
            }
        }
    }

    @Test func secondPublisherOfAServiceOnOneAdapterIsServiceAlreadyPublishing() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                var first = system.publish(chatPublish, to: .anyDevice).makeAsyncIterator()
                _ = try await first.next()
                do {
                    _ = try await collect(system.publish(chatPublish, to: .anyDevice), count: 1)
                    Issue.record("the second publisher started")
                } catch let error as WAError {
                    #expect(error.code == .serviceAlreadyPublishing)
                    #expect(error.message.contains("_chat._tcp"))
                }
                // Subscribing to the same service is a different role, so it is allowed.
                let subscribed = try await collect(system.subscribe(to: chatSubscribe, from: .anyDevice), count: 1)
                #expect(subscribed == [.started(InstanceID(2))])
                #expect(backend.started.count == 2)
            }
        }
    }

    @Test func secondSubscriberOfAServiceIsServiceAlreadySubscribingEvenInAnotherCase() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, _ in
                var first = system.subscribe(to: chatSubscribe, from: .anyDevice).makeAsyncIterator()
                _ = try await first.next()
                let shouted = try WASubscribableService(name: WAServiceName("_CHAT._tcp"))
                do {
                    _ = try await collect(system.subscribe(to: shouted, from: .anyDevice), count: 1)
                    Issue.record("the second subscriber started")
                } catch let error as WAError {
                    #expect(error.code == .serviceAlreadySubscribing)
                }
            }
        }
    }

    @Test func anotherProcessHoldingTheServiceLockMakesPublishingFail() async throws {
        try await withTemporaryDirectory { folder in
            let run = folder.appendingPathComponent("run")
            try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
            let lock = run.appendingPathComponent("phy0.publish._chat._tcp.lock")
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            holder.arguments = [lock.path, "sleep", "30"]
            try holder.run()
            defer { holder.terminate() }
            // Wait until the other process holds the lock: the file appears before flock takes it, so ask
            // flock itself (non-blocking) until it is refused. Under load that can take seconds.
            func isHeld() throws -> Bool {
                let probe = Process()
                probe.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
                probe.arguments = ["-n", lock.path, "true"]
                try probe.run()
                probe.waitUntilExit()
                return probe.terminationStatus != 0
            }
            for _ in 0..<500 {
                if FileManager.default.fileExists(atPath: lock.path), try isHeld() { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            try await withFakeSystem(in: folder) { system, backend in
                do {
                    _ = try await collect(system.publish(chatPublish, to: .anyDevice), count: 1)
                    Issue.record("published although another process holds the lock")
                } catch let error as WAError {
                    #expect(error.code == .serviceAlreadyPublishing)
                    #expect(error.message.contains("another process"))
                }
                #expect(backend.started.isEmpty)
            }
        }
    }

    @Test func cancellingTheConsumingTaskStopsTheSessionAndFreesTheService() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                let consumer = Task {
                    for try await _ in system.publish(chatPublish, to: .anyDevice) {}
                }
                #expect(await backend.waitUntil { $0.started.count == 1 })
                consumer.cancel()
                #expect(await backend.waitUntil { $0.stopped == [InstanceID(1)] })
                // The lease is free again: a new publisher starts.
                let again = try await collect(system.publish(chatPublish, to: .anyDevice), count: 1)
                #expect(again == [.started(InstanceID(2))])
            }
        }
    }

    @Test func eventsAConsumerFallsTooFarBehindOnAreCountedNotLostSilently() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                let subscriber = system.subscribe(to: chatSubscribe, from: .anyDevice)
                var events = subscriber.makeAsyncIterator()
                _ = try await events.next()
                let total = SessionRunner.eventBuffer + 44
                for n in 1...total { backend.emit(.discovered(result(from: n))) }
                for _ in 0..<500 where subscriber.droppedEventCount < 44 {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(subscriber.droppedEventCount == 44)
                guard case .discovered(let oldestKept) = try await events.next() else {
                    Issue.record("expected a discovery")
                    return
                }
                #expect(oldestKept.address == testAddress(45))
            }
        }
    }

    @Test func leavingTheLoopStopsTheSession() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                for try await event in system.subscribe(to: chatSubscribe, from: .anyDevice) {
                    if case .started = event { break }
                }
                #expect(await backend.waitUntil { $0.stopped == [InstanceID(1)] })
            }
        }
    }

    @Test func stopEndsTheSequenceWithUserRequest() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, _ in
                let subscriber = system.subscribe(to: chatSubscribe, from: .anyDevice)
                var events = subscriber.makeAsyncIterator()
                _ = try await events.next()
                await subscriber.stop()
                #expect(try await events.next() == .terminated(.userRequest))
                #expect(try await events.next() == nil)
            }
        }
    }

    @Test func sessionsLeftRunningStopWhenTheSystemClosureReturns() async throws {
        try await withTemporaryDirectory { folder in
            let backend = FakeBackend()
            try await withFakeSystem(in: folder, backend: backend) { system, backend in
                let publisher = system.publish(chatPublish, to: .anyDevice)
                Task { for try await _ in publisher {} }
                #expect(await backend.waitUntil { $0.started.count == 1 })
            }
            #expect(backend.stopped == [InstanceID(1)])
        }
    }

    @Test func anEngineTimeLimitEndsTheSequenceWithTimeLimitReached() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                var parameters = WASubscriberParameters()
                parameters.timeLimit = .seconds(3)
                var events = system.subscribe(to: chatSubscribe, from: .anyDevice, parameters: parameters)
                    .makeAsyncIterator()
                _ = try await events.next()
                #expect(backend.started.first?.subscribe?.timeToLive.duration == .seconds(3))
                backend.emit(.terminated(.timeToLiveExpired))
                #expect(try await events.next() == .terminated(.timeLimitReached))
            }
        }
    }
}

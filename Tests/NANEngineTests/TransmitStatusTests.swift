import NANWire
import Testing
@testable import NANEngine

/// The medium as hwsim really is: frames go out in the next DW, broadcasts are never acknowledged, and a TX
/// status may come late or not at all. The engine must neither hang nor credit a status to the wrong frame.
@Suite struct TransmitStatusTests {
    /// Two engines with a short TX-status timeout, a publisher on 0 and a subscriber on 1.
    private func pair(attempts: Int, timeout: Duration) async throws -> (Bench, DiscoverySession, DiscoverySession) {
        var options = DiscoveryEngine.Options()
        options.followUp = TransmitPolicy(attempts: attempts, statusTimeout: timeout)
        let bench = await Bench(options: options)
        let publisher = try await bench.engines[0].publish(PublishConfiguration(serviceID: service("chat")))
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        return (bench, publisher, subscriber)
    }

    /// Sends a follow-up from the subscriber, announcing a DW every 20 ms until the send has an outcome
    /// (a retry waits for the next DW); gives up after 5 s.
    private func sendWhileTicking(
        _ bench: Bench, _ subscriber: DiscoverySession, to peer: InstanceID
    ) async throws -> DeliveryStatus? {
        let sending = Task { try await subscriber.send([7], to: address(1), peerInstanceID: peer) }
        let ticking = Task {
            for _ in 0..<250 where !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(20))
                await bench.air.tick()
            }
        }
        defer { ticking.cancel() }
        let outcome = Task {
            try await Task.sleep(for: .seconds(5))
            sending.cancel()
        }
        defer { outcome.cancel() }
        return try? await sending.value
    }

    private func followUps(_ bench: Bench, from source: MACAddress) async -> Int {
        await bench.air.sent(from: source).filter { bytes in
            (try? WireCodec().decode(bytes.bytes))?.announcements.contains { $0.kind == .followUp } == true
        }.count
    }

    @Test func aTransmitStatusThatNeverComesTimesOutAndEachAttemptIsRetriedInTheNextWindow() async throws {
        let (bench, publisher, subscriber) = try await pair(attempts: 3, timeout: .milliseconds(60))
        await bench.air.reportStatus(.never)
        let status = try await sendWhileTicking(bench, subscriber, to: publisher.instanceID)
        #expect(status == .notAcknowledged)
        #expect(await followUps(bench, from: address(2)) == 3)
        // The frames did arrive: only their status was lost. The publisher gets each attempt.
        let atPublisher = await drain(publisher).compactMap(\.message)
        #expect(atPublisher.count == 3)
    }

    @Test func aFollowUpWaitingForADiscoveryWindowThatNeverComesEndsWhenItsTaskIsCancelled() async throws {
        // The first attempt is not acknowledged; the retry waits for a DW, and none comes (no ticks).
        let (bench, publisher, subscriber) = try await pair(attempts: 3, timeout: .milliseconds(30))
        await bench.air.reportStatus(.never)
        let sending = Task { try await subscriber.send([7], to: address(1), peerInstanceID: publisher.instanceID) }
        try await Task.sleep(for: .milliseconds(200))
        sending.cancel()
        // The send's outcome, or nil if it is still waiting 5 s later.
        let status = try await withThrowingTaskGroup(of: DeliveryStatus?.self) { group in
            group.addTask { try await sending.value }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(status == .notAcknowledged)
        #expect(await followUps(bench, from: address(2)) == 1)
    }

    @Test func aLateTransmitStatusWithinTheTimeoutCountsAsAcknowledged() async throws {
        let (bench, publisher, subscriber) = try await pair(attempts: 3, timeout: .seconds(3))
        await bench.air.reportStatus(.after(.milliseconds(100)))
        let status = try await sendWhileTicking(bench, subscriber, to: publisher.instanceID)
        #expect(status == .acknowledged)
        #expect(await followUps(bench, from: address(2)) == 1)
    }

    @Test func aStatusLaterThanTheTimeoutIsNotCreditedToTheNextAttempt() async throws {
        // Each status comes 300 ms after its frame, the engine waits 50 ms: every attempt times out, and
        // the late "acknowledged" of attempt 1 must not be taken for attempt 2's.
        let (bench, publisher, subscriber) = try await pair(attempts: 2, timeout: .milliseconds(50))
        await bench.air.reportStatus(.after(.milliseconds(300)))
        let status = try await sendWhileTicking(bench, subscriber, to: publisher.instanceID)
        #expect(status == .notAcknowledged)
        #expect(await followUps(bench, from: address(2)) == 2)
        // The late statuses come to nobody: both attempts count as not acknowledged.
        try await Task.sleep(for: .milliseconds(400))
        let statistics = await bench.engines[1].statistics()
        #expect(statistics.framesAcknowledged == 0 && statistics.framesNotAcknowledged == 2)
    }

    @Test func aStatusBeforeTransmitReturnsIsKeptForTheWaiter() async throws {
        let (bench, publisher, subscriber) = try await pair(attempts: 1, timeout: .milliseconds(200))
        await bench.air.reportStatus(.beforeReturn)
        let status = try await subscriber.send([7], to: address(1), peerInstanceID: publisher.instanceID)
        #expect(status == .acknowledged)
    }

    @Test func aFollowUpQueuedForTheNextWindowIsAcknowledgedWhenThatWindowComes() async throws {
        let (bench, publisher, subscriber) = try await pair(attempts: 1, timeout: .seconds(3))
        await bench.air.deliver(.nextWindow)
        let status = try await sendWhileTicking(bench, subscriber, to: publisher.instanceID)
        #expect(status == .acknowledged)
        #expect(await drain(publisher).compactMap(\.message).count == 1)
    }

    @Test func broadcastsAreNeverAcknowledged() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        _ = try await bench.engines[0].publish(publish)
        await bench.ticks(3)
        let statistics = await bench.engines[0].statistics()
        #expect(statistics.framesSent >= 3)
        #expect(statistics.framesAcknowledged == 0)
        let broadcast = await bench.air.transmit([], from: address(1), frequency: nil)
        #expect(await bench.air.statuses(of: address(1))?.acknowledgement(of: broadcast, within: .seconds(5)) == false)
    }

    @Test func framesDeliveredInTheNextWindowAreHeardOnlyWhenItComes() async throws {
        let bench = await Bench()
        await bench.air.deliver(.nextWindow)
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        let publisher = try await bench.engines[0].publish(publish)
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        // The first announcement is queued, not yet on the air.
        #expect(await bench.engines[1].statistics().framesReceived == 0)
        await bench.ticks(1)
        let found = await drain(subscriber).compactMap(\.discovered)
        #expect(found.count == 1)
        #expect(found.first?.peerInstanceID == publisher.instanceID)
    }
}

import Synchronization
import NANSystem
import NANWire
import Testing
@testable import NANEngine

/// After a netlink overrun the engine resynchronises (asks the radio again, settles TX statuses, treats
/// its peers conservatively, makes active subscribes ask again) and tells every session, which goes on.
@Suite struct OverrunTests {
    static let ourCluster = MACAddress(0x50, 0x6f, 0x9a, 0x01, 0x12, 0x34)

    static func lossReports(_ events: [DiscoveryEvent]) -> [EventLoss] {
        events.compactMap { if case .eventsLost(let loss) = $0 { loss } else { nil } }
    }

    static func losses(_ events: [DiscoveryEvent]) -> [LostPeer] {
        events.compactMap { if case .lost(let lost) = $0 { lost } else { nil } }
    }

    @Test func everySessionIsToldOfAnOverrunWithTheCountAndKeepsRunning() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        let subscriber = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("chat")))
        let other = try await bench.engines[1].subscribe(SubscribeConfiguration(serviceID: service("other")))
        _ = try await bench.engines[0].publish(publish)
        await bench.air.overrun(address(2), losing: 3)  // the first DWs' frames and notifications
        await bench.ticks(4)
        let events = await drain(subscriber)
        #expect(Self.lossReports(events) == [EventLoss(droppedEvents: 3)])
        // Still running: the publisher heard after the overrun is discovered, and the session ends only when stopped.
        #expect(events.compactMap(\.discovered).count == 1)
        #expect(events.last?.termination == .userRequest)
        #expect(Self.lossReports(await drain(other)) == [EventLoss(droppedEvents: 3)])
        #expect(await bench.engines[1].core.statistics.radioEventOverruns == 1)
    }

    /// Fails before the fix: the silence the overrun caused was counted against the publisher, which was
    /// then reported lost one DW after the overrun.
    @Test func aPeerIsNotReportedLostForFramesTheEngineItselfMissed() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .unsolicited
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.lostAfterPeriods = 3
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        _ = try await bench.engines[0].publish(publish)
        await bench.ticks(1)  // found
        // The subscriber's radio drops the publisher's frames of the next 3 DWs (the notifications get through).
        await bench.air.overrun(address(2), losing: 3, windows: false)
        await bench.ticks(3)
        // The publisher then is truly out of range for one DW: 4 periods of silence, 1 since the overrun.
        await bench.air.makeDeaf(address(2))
        await bench.ticks(1)
        #expect(await bench.engines[1].core.reportedCount(subscriber.instanceID) == 1)
        await bench.air.hear(address(2))
        await bench.ticks(1)
        let events = await drain(subscriber)
        // Reported as the router does: before the next event that got through (here each DW notification).
        #expect(Self.lossReports(events) == Array(repeating: EventLoss(droppedEvents: 1), count: 3))
        #expect(Self.losses(events).isEmpty)
        #expect(events.compactMap(\.discovered).count == 1)
    }

    @Test func anActiveSubscribeAsksAgainInTheDWAfterAnOverrun() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        _ = try await bench.engines[0].publish(publish)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        let subscriber = try await bench.engines[1].subscribe(subscribe)
        await bench.ticks(3)
        let answered = await bench.air.sent(from: address(2)).count
        await bench.ticks(2)
        #expect(await bench.air.sent(from: address(2)).count == answered)  // answered: it stopped asking
        await bench.engines[1].core.handle(.eventsLost(droppedEvents: nil))
        await bench.ticks(1)
        #expect(await bench.air.sent(from: address(2)).count == answered + 1)  // asks again
        let events = await drain(subscriber)
        #expect(Self.lossReports(events) == [EventLoss(droppedEvents: nil)])
        // The answer to the new ask is the same publisher with the same info: not reported twice.
        #expect(events.compactMap(\.discovered).count == 1)
    }

    /// The overrun hid the NMI's removal: the radio, asked again, no longer has it, and every session ends
    /// as if the removal had been heard.
    @Test func anInterfaceRemovalHiddenByAnOverrunEndsEverySessionWithDeviceRemoved() async throws {
        let radio = SnapshotRadio(answer: .snapshot(RadioSnapshot(interfacePresent: false, cluster: Self.ourCluster)))
        let core = DiscoveryEngine(radio: radio, codec: WireCodec())
        await core.handle(.clusterJoined(Self.ourCluster))
        let session = try await NANEngine(core: core).subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await core.handle(.eventsLost(droppedEvents: nil))
        var events: [DiscoveryEvent] = []
        for await event in session { events.append(event) }
        #expect(events == [.terminated(.deviceRemoved)])
        await #expect(throws: DiscoveryError.self) {
            _ = try await NANEngine(core: core).subscribe(SubscribeConfiguration(serviceID: service("chat")))
        }
    }

    /// The first dump after an overrun misses the NMI (it lost its own messages) but the next one has it:
    /// the sessions go on, since one missing answer is not a removal.
    @Test func oneDumpMissingTheInterfaceDoesNotEndTheSessions() async throws {
        let present = RadioSnapshot(interfacePresent: true, cluster: Self.ourCluster)
        let absent = RadioSnapshot(interfacePresent: false, cluster: Self.ourCluster)
        let radio = SnapshotRadio(answers: [.snapshot(absent), .snapshot(present)])
        let core = DiscoveryEngine(radio: radio, codec: WireCodec())
        await core.handle(.clusterJoined(Self.ourCluster))
        let session = try await NANEngine(core: core).subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await core.handle(.eventsLost(droppedEvents: nil))
        #expect(radio.asked == 2)
        let events = await drain(session)
        #expect(events == [.eventsLost(EventLoss(droppedEvents: nil)), .terminated(.userRequest)])
    }

    /// The overrun hid a cluster change: the engine takes the radio's cluster, so the new cluster's frames
    /// are not dropped as foreign.
    @Test func aClusterChangeHiddenByAnOverrunIsAdopted() async throws {
        let newCluster = MACAddress(0x50, 0x6f, 0x9a, 0x01, 0x56, 0x78)
        let radio = SnapshotRadio(answer: .snapshot(RadioSnapshot(interfacePresent: true, cluster: newCluster)))
        let core = DiscoveryEngine(radio: radio, codec: WireCodec())
        await core.handle(.clusterJoined(Self.ourCluster))
        let session = try await NANEngine(core: core).subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await core.handle(.eventsLost(droppedEvents: 2))
        #expect(await core.cluster == newCluster)
        let frame = try EngineBoundsTests.publishFrame(
            from: EngineBoundsTests.spoofed(1), service: service("chat"), cluster: newCluster)
        await core.handle(.frameReceived(bytes: frame, frequency: 2437, signal: -40))
        let events = await drain(session)
        #expect(events.compactMap(\.discovered).map(\.peer) == [EngineBoundsTests.spoofed(1)])
        #expect(Self.lossReports(events) == [EventLoss(droppedEvents: 2)])
    }

    @Test func aRadioThatCannotBeAskedLeavesTheSessionsRunningAndIsCounted() async throws {
        let radio = SnapshotRadio(answer: .failure)
        let core = DiscoveryEngine(radio: radio, codec: WireCodec())
        await core.handle(.clusterJoined(Self.ourCluster))
        let session = try await NANEngine(core: core).subscribe(SubscribeConfiguration(serviceID: service("chat")))
        await core.handle(.eventsLost(droppedEvents: nil))
        #expect(await core.statistics.resynchronizationFailures == 1)
        #expect(await core.cluster == Self.ourCluster)
        let events = await drain(session)
        #expect(events == [.eventsLost(EventLoss(droppedEvents: nil)), .terminated(.userRequest)])
    }

    @Test func theRuntimesOverrunReachesTheEngineWithItsCount() {
        let wdev = WirelessDeviceID(rawValue: 2)
        guard case .eventsLost(let count) = NL80211Radio.translate(.overrun(droppedEvents: 5), wdev: wdev) else {
            Issue.record("expected events lost")
            return
        }
        #expect(count == 5)
        guard case .eventsLost(let unknown) = NL80211Radio.translate(.overrun(droppedEvents: nil), wdev: wdev) else {
            Issue.record("expected events lost")
            return
        }
        #expect(unknown == nil)
    }
}

/// A radio that answers the snapshots asked after an overrun from a list, in order (the last answer
/// repeats), and counts how often it was asked.
final class SnapshotRadio: DiscoveryRadio, Sendable {
    enum Answer: Sendable {
        case snapshot(RadioSnapshot)
        case failure
    }
    private let state: Mutex<(answers: [Answer], asked: Int)>
    init(answers: [Answer]) { state = Mutex((answers, 0)) }
    convenience init(answer: Answer) { self.init(answers: [answer]) }
    /// How many snapshots were asked for.
    var asked: Int { state.withLock { $0.asked } }
    var localAddress: MACAddress { address(9) }
    var discoveryMode: DiscoveryMode { .userSpace }
    var events: AsyncStream<RadioEvent> { AsyncStream { $0.finish() } }
    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 { 7 }
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? { nil }
    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle {
        throw DiscoveryError("not offloaded")
    }
    func removeFunction(cookie: UInt64) async throws {}
    func snapshot() async throws -> RadioSnapshot? {
        let answer = state.withLock { state in
            let index = min(state.asked, state.answers.count - 1)
            state.asked += 1
            return state.answers[index]
        }
        switch answer {
        case .snapshot(let snapshot): return snapshot
        case .failure: throw DiscoveryError("the radio cannot be asked")
        }
    }
}

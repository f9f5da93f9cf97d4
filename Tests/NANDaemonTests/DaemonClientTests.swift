import NANEngine
import NANSystem
import NANWire
import Synchronization
import Testing

@testable import NANDaemon

/// A radio with no air: sessions get instance IDs in turn, and the test feeds their events.
final class FakeRadio: DaemonRadio, @unchecked Sendable {
    let localAddress = MACAddress(2, 0, 0, 0, 0, 1)
    let state = Mutex<(next: UInt8, feeds: [UInt8: AsyncStream<DiscoveryEvent>.Continuation], stopped: [UInt8])>(
        (1, [:], []))

    func make() -> DaemonRadioSession {
        let (stream, continuation) = AsyncStream.makeStream(of: DiscoveryEvent.self)
        let id = state.withLock { s in
            defer { s.next += 1 }
            s.feeds[s.next] = continuation
            return s.next
        }
        return DaemonRadioSession(
            instanceID: InstanceID(id), events: stream,
            stop: { [self] in
                state.withLock { $0.stopped.append(id) }
                continuation.yield(.terminated(.userRequest))
                continuation.finish()
            })
    }

    func startPublish(_ configuration: PublishConfiguration) async throws -> DaemonRadioSession { make() }
    func startSubscribe(_ configuration: SubscribeConfiguration) async throws -> DaemonRadioSession { make() }
    func send(
        _ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID
    ) async throws
        -> DeliveryStatus
    { .acknowledged }
    func peers() async -> [Peer] { [] }

    func feed(_ instance: UInt8, _ event: DiscoveryEvent) {
        _ = state.withLock { $0.feeds[instance] }?.yield(event)
    }
}

struct FakeProvider: RadioProvider {
    let radio: FakeRadio
    func radio(for name: String) async throws(DaemonError) -> any DaemonRadio { radio }
    func statusLines() async -> [String] { [] }
}

/// Reads what a client was sent.
func drain(_ outbox: Outbox) async -> [DaemonMessage] {
    var out: [DaemonMessage] = []
    while outbox.count > 0, let line = await outbox.next() {
        if let message = LineCodec.decodeMessage(Array(line.dropLast())) { out.append(message) }
    }
    return out
}

func request(_ id: UInt64, _ method: DaemonMethod, _ fill: (inout DaemonRequest) -> Void = { _ in }) -> DaemonRequest {
    var r = DaemonRequest(id: id, method: method)
    r.adapter = "phy0"
    fill(&r)
    return r
}

let serviceID = ServiceID(1, 2, 3, 4, 5, 6)

func result(_ local: UInt8) -> DiscoveryResult {
    DiscoveryResult(
        peer: MACAddress(2, 0, 0, 0, 0, 9), peerInstanceID: 7, localInstanceID: InstanceID(local), serviceInfo: [1],
        offersDataPath: false,
        radio: PeerRadioFacts(signal: -40, frequency: 2437, discoveryWindowsHeard: 1, lastHeard: .now))
}

@Suite struct DaemonClientTests {
    @Test func eachClientSeesOnlyItsOwnSessionsEvents() async throws {
        let radio = FakeRadio()
        let provider = FakeProvider(radio: radio)
        let outA = Outbox(limits: DaemonLimits())
        let outB = Outbox(limits: DaemonLimits())
        let a = DaemonClient(name: "a", radios: provider, limits: DaemonLimits(), outbox: outA, disconnect: {})
        let b = DaemonClient(name: "b", radios: provider, limits: DaemonLimits(), outbox: outB, disconnect: {})
        await a.handle(request(1, .hello))
        await b.handle(request(1, .hello))
        await a.handle(
            request(2, .subscribe) { $0.subscribe = WireSubscribe(.init(serviceID: serviceID), reportHeardWithin: nil) }
        )
        await b.handle(request(2, .publish) { $0.publish = WirePublish(.init(serviceID: serviceID)) })
        radio.feed(1, .discovered(result(1)))
        radio.feed(2, .replied(result(2)))
        try await Task.sleep(for: .milliseconds(100))
        let toA = await drain(outA).compactMap(\.event)
        let toB = await drain(outB).compactMap(\.event)
        #expect(toA.map(\.kind) == [.discovered])
        #expect(toB.map(\.kind) == [.replied])
        #expect(toA.first?.session == 1 && toB.first?.session == 1)
    }

    @Test func aClientCannotActOnAnotherClientsSession() async {
        let radio = FakeRadio()
        let provider = FakeProvider(radio: radio)
        let outA = Outbox(limits: DaemonLimits())
        let outB = Outbox(limits: DaemonLimits())
        let a = DaemonClient(name: "a", radios: provider, limits: DaemonLimits(), outbox: outA, disconnect: {})
        let b = DaemonClient(name: "b", radios: provider, limits: DaemonLimits(), outbox: outB, disconnect: {})
        await a.handle(request(1, .hello))
        await b.handle(request(1, .hello))
        await a.handle(request(2, .publish) { $0.publish = WirePublish(.init(serviceID: serviceID)) })
        _ = await drain(outB)
        await b.handle(request(3, .stop) { $0.session = 1 })
        let answer = await drain(outB).first
        #expect(answer?.error?.code == "noSuchSession")
        #expect(radio.state.withLock { $0.stopped }.isEmpty)
    }

    @Test func aClientThatEndsHasAllItsSessionsStopped() async {
        let radio = FakeRadio()
        let out = Outbox(limits: DaemonLimits())
        let a = DaemonClient(
            name: "a", radios: FakeProvider(radio: radio), limits: DaemonLimits(), outbox: out, disconnect: {})
        await a.handle(request(1, .hello))
        for id in 2...4 {
            await a.handle(request(UInt64(id), .publish) { $0.publish = WirePublish(.init(serviceID: serviceID)) })
        }
        await a.end()
        #expect(radio.state.withLock { $0.stopped }.sorted() == [1, 2, 3])
    }

    @Test func theSessionLimitIsKept() async {
        var limits = DaemonLimits()
        limits.sessions = 2
        let out = Outbox(limits: limits)
        let a = DaemonClient(
            name: "a", radios: FakeProvider(radio: FakeRadio()), limits: limits, outbox: out, disconnect: {})
        await a.handle(request(1, .hello))
        for id in 2...4 {
            await a.handle(request(UInt64(id), .publish) { $0.publish = WirePublish(.init(serviceID: serviceID)) })
        }
        let answers = await drain(out)
        #expect(answers.last?.error?.code == "limitReached")
        #expect(await a.sessionCount == 2)
    }

    @Test func tooManyGarbageLinesDisconnect() async {
        var limits = DaemonLimits()
        limits.invalidRequests = 3
        let cut = Mutex(false)
        let a = DaemonClient(
            name: "a", radios: FakeProvider(radio: FakeRadio()), limits: limits, outbox: Outbox(limits: limits),
            disconnect: { cut.withLock { $0 = true } })
        for _ in 0..<3 { await a.handle(line: Array("garbage".utf8)) }
        #expect(cut.withLock { $0 })
    }

    @Test func aFullQueueDropsEventsAndReportsTheLoss() async {
        var limits = DaemonLimits()
        limits.queuedMessages = 4
        let out = Outbox(limits: limits)
        for _ in 0..<10 { out.enqueueEvent(WireEvent(session: 1, kind: .message)) }
        #expect(out.count == 4)
        _ = await out.next()
        _ = await out.next()
        out.enqueueEvent(WireEvent(session: 1, kind: .message))
        let rest = await drain(out).compactMap(\.event)
        #expect(rest.map(\.kind) == [.message, .message, .eventsLost, .message])
        #expect(rest[2].dropped == 6)
    }

    @Test func onlyRootAndTheGroupAreLetIn() {
        let policy = AccessPolicy(group: "wawared")
        let root = PeerCredentials(processID: 1, userID: 0, groupID: 0)
        let member = PeerCredentials(processID: 2, userID: 1000, groupID: 1000)
        #expect(policy.refusal(of: root) { _ in false } == nil)
        #expect(policy.refusal(of: member) { $0 == "wawared" } == nil)
        let refusal = policy.refusal(of: member) { _ in false }
        #expect(refusal?.code == "permissionDenied")
        #expect(refusal?.message.contains("wawared") == true)
    }
}

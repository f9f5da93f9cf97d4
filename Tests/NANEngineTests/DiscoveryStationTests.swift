import NANWire
import Synchronization
import Testing
@testable import NANEngine

/// Discovery's unicast SDFs to a peer that announced its schedule go through its station
/// (docs/design/outside-dw.md): the engine asks for the station before it hands the frame to the radio, for a
/// reply to an active subscribe and for a plain follow-up, and never for a peer that announced nothing or for
/// the pairing link's follow-ups (the link adds those stations itself).
@Suite struct DiscoveryStationTests {
    static let cluster = EngineBoundsTests.ourCluster
    static let schedule = DataPathScheduleLayout.preferred.schedule(fiveGHz: nil).availabilityAttribute

    /// An engine in our cluster whose radio and station preparer note, in order, what they were asked.
    func engine() async -> (DiscoveryEngine, Steps) {
        let steps = Steps()
        let radio = StepRadio(steps: steps)
        let engine = DiscoveryEngine(radio: radio, codec: WireCodec())
        await engine.handle(.clusterJoined(Self.cluster))
        await engine.setStationPreparer { [steps] peer, availability, _ in
            steps.withLock { $0.append("station \(peer) \(availability.count)") }
            return true
        }
        return (engine, steps)
    }

    func frame(_ item: ServiceAnnouncement, from source: MACAddress, announcing: Bool) throws -> [UInt8] {
        var frame = OutgoingDiscoveryFrame(destination: .broadcast, announcements: [item])
        if announcing { frame.deviceAttributes = [.availability(Self.schedule)] }
        return try WireCodec().encode(frame, source: source, cluster: Self.cluster)
    }

    @Test func aReplyToASubscriberThatAnnouncedItsScheduleGoesThroughItsStation() async throws {
        let (engine, steps) = await engine()
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        _ = try await engine.publish(publish)
        let subscribe = ServiceAnnouncement(
            kind: .subscribe, serviceID: service("chat"), instanceID: InstanceID(rawValue: 4))
        await engine.handle(
            .frameReceived(
                bytes: try frame(subscribe, from: address(2), announcing: true), frequency: 2437, signal: -50))
        await engine.handle(
            .frameReceived(
                bytes: try frame(subscribe, from: address(3), announcing: false), frequency: 2437, signal: -50))
        #expect(steps.withLock { $0 } == ["station \(address(2)) 1", "tx \(address(2))", "tx \(address(3))"])
    }

    @Test func aPlainFollowUpGoesThroughThePeersStationAndAPairingOneDoesNot() async throws {
        let (engine, steps) = await engine()
        let (local, _) = try await engine.subscribe(SubscribeConfiguration(serviceID: service("chat")))
        let publish = ServiceAnnouncement(
            kind: .publish, serviceID: service("chat"), instanceID: InstanceID(rawValue: 7))
        await engine.handle(
            .frameReceived(bytes: try frame(publish, from: address(2), announcing: true), frequency: 2437, signal: -50))
        steps.withLock { $0.removeAll() }
        _ = try await engine.send(
            Array("hi".utf8), from: local, to: address(2), peerInstanceID: InstanceID(rawValue: 7))
        _ = try await engine.send(
            [], from: local, to: address(2), peerInstanceID: InstanceID(rawValue: 7),
            bootstrapping: PairingBootstrappingAttribute(dialogToken: 1, type: .advertise, methods: [.opportunistic]))
        #expect(steps.withLock { $0 } == ["station \(address(2)) 1", "tx \(address(2))", "tx \(address(2))"])
    }

    /// A peer the engine's peer table forgets (silent for `forgetAfterPeriods`) is reported, so that the data
    /// path removes the station it added for our SDFs to it; a peer still heard is not.
    @Test func aPeerThePeerTableForgetsIsReportedForItsStationToGo() async throws {
        var options = DiscoveryEngine.Options()
        options.forgetAfterPeriods = 3
        let engine = DiscoveryEngine(radio: StepRadio(steps: Steps()), codec: WireCodec(), options: options)
        await engine.handle(.clusterJoined(Self.cluster))
        let forgotten = Steps()
        await engine.setForgottenPeerObserver { [forgotten] peer in forgotten.withLock { $0.append("\(peer)") } }
        let publish = ServiceAnnouncement(
            kind: .publish, serviceID: service("chat"), instanceID: InstanceID(rawValue: 7))
        for source in [address(2), address(3)] {
            await engine.handle(
                .frameReceived(bytes: try frame(publish, from: source, announcing: true), frequency: 2437, signal: -50))
        }
        for _ in 1...3 {
            await engine.handle(.discoveryWindow(frequency: 2437))
            await engine.handle(
                .frameReceived(
                    bytes: try frame(publish, from: address(3), announcing: true), frequency: 2437, signal: -50))
        }
        #expect(forgotten.withLock { $0 }.isEmpty)
        await engine.handle(.discoveryWindow(frequency: 2437))
        #expect(forgotten.withLock { $0 } == ["\(address(2))"])
    }
}

/// What a test's radio and station preparer were asked, in order.
final class Steps: Sendable {
    private let list = Mutex<[String]>([])
    func withLock<R>(_ body: (inout [String]) -> R) -> R { list.withLock { body(&$0) } }
}

/// A radio that notes each frame's destination in `steps` and acknowledges it at once.
final class StepRadio: DiscoveryRadio, Sendable {
    let steps: Steps
    init(steps: Steps) { self.steps = steps }
    var localAddress: MACAddress { address(1) }
    var discoveryMode: DiscoveryMode { .userSpace }
    var events: AsyncStream<RadioEvent> { AsyncStream { $0.finish() } }
    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 {
        let destination = FakeAir.destination(of: frame).map { "\($0)" } ?? "?"
        steps.withLock { $0.append("tx \(destination)") }
        return 1
    }
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? { true }
    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle {
        throw DiscoveryError("not offloaded")
    }
    func removeFunction(cookie: UInt64) async throws {}
}

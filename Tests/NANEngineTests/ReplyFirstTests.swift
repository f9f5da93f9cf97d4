import NANWire
import Synchronization
import Testing
@testable import NANEngine

/// A reply to an active subscribe is handed to the radio before the engine does anything else with the frame:
/// it must reach the kernel within the 16 TU DW in which the subscribe came.
@Suite struct ReplyFirstTests {
    @Test func theReplyIsSentBeforeThePublishReportsItsSubscriber() async throws {
        let radio = ReportCountingRadio()
        let engine = DiscoveryEngine(radio: radio, codec: WireCodec())
        radio.engine.withLock { $0 = engine }
        await engine.handle(.clusterJoined(EngineBoundsTests.ourCluster))
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        let (publisher, _) = try await engine.publish(publish)
        let subscribe = ServiceAnnouncement(
            kind: .subscribe, serviceID: service("chat"), instanceID: InstanceID(rawValue: 4))
        let frame = try WireCodec().encode(
            OutgoingDiscoveryFrame(destination: .broadcast, announcements: [subscribe]), source: address(2),
            cluster: EngineBoundsTests.ourCluster)
        await engine.handle(.frameReceived(bytes: frame, frequency: 2437, signal: -50))
        // One reply went out, while the publish had reported nobody yet; it reports the subscriber after.
        #expect(radio.reportedAtTransmit.withLock { $0 } == [0])
        #expect(await engine.reportedCount(publisher) == 1)
    }
}

/// A radio that notes, at each transmit, how many peer instances the engine's first instance has reported.
final class ReportCountingRadio: DiscoveryRadio, Sendable {
    let engine = Mutex<DiscoveryEngine?>(nil)
    let reportedAtTransmit = Mutex<[Int]>([])
    var localAddress: MACAddress { address(1) }
    var discoveryMode: DiscoveryMode { .userSpace }
    var events: AsyncStream<RadioEvent> { AsyncStream { $0.finish() } }
    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 {
        if let engine = engine.withLock({ $0 }) {
            let count = await engine.reportedCount(InstanceID(rawValue: 1))
            reportedAtTransmit.withLock { $0.append(count) }
        }
        return 1
    }
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? { true }
    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle {
        throw DiscoveryError("not offloaded")
    }
    func removeFunction(cookie: UInt64) async throws {}
}

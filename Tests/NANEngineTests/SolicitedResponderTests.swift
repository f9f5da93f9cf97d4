import NANLogging
import NANSystem
import NANWire
import Synchronization
import Testing
@testable import NANEngine

/// Active subscribes answered on the radio's reader thread: the reply is what the engine would send, a frame
/// the responder does not answer changes nothing, and the engine does not answer again what it answered.
@Suite struct SolicitedResponderTests {
    static let cluster = EngineBoundsTests.ourCluster
    let codec = WireCodec()

    func subscribeFrame(
        from source: MACAddress = address(2), instance: UInt8 = 4, cluster: MACAddress = Self.cluster,
        announcingSchedule: Bool = false
    ) throws -> [UInt8] {
        let subscribe = ServiceAnnouncement(
            kind: .subscribe, serviceID: service("chat"), instanceID: InstanceID(rawValue: instance))
        var frame = OutgoingDiscoveryFrame(destination: .broadcast, announcements: [subscribe])
        if announcingSchedule {
            frame.deviceAttributes = [
                .availability(DataPathScheduleLayout.preferred.schedule(fiveGHz: nil).availabilityAttribute)
            ]
        }
        return try codec.encode(frame, source: source, cluster: cluster)
    }

    /// A responder for our address 1 with one solicited publish (instance 1) of `chat`.
    func responder(protecting peers: Set<MACAddress> = []) -> SolicitedResponder {
        let responder = SolicitedResponder(
            codec: codec, localAddress: address(1), closeRangeSignal: -60, logger: .disabled)
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        let announcement = ServiceAnnouncement(
            kind: .publish, serviceID: service("chat"), instanceID: InstanceID(rawValue: 1))
        let reply = ReplyTemplate(
            announcement, in: OutgoingDiscoveryFrame(destination: .broadcast, announcements: []), codec: codec,
            source: address(1), cluster: Self.cluster)
        responder.update(
            SolicitedResponder.Snapshot(
                publishes: [.init(local: InstanceID(rawValue: 1), configuration: publish, reply: reply!)],
                cluster: Self.cluster, protectedPeers: peers))
        return responder
    }

    func answer(to peer: MACAddress = address(2), subscribe: UInt8 = 4) -> SolicitedResponder.Answer {
        SolicitedResponder.Answer(
            peer: peer, subscribe: InstanceID(rawValue: subscribe), local: InstanceID(rawValue: 1))
    }

    @Test func aMatchingSubscribeIsAnsweredWithAReplyToItsSenderAndInstance() throws {
        let responder = responder()
        var sent: [[UInt8]] = []
        responder.respond(to: try subscribeFrame(), signal: -50) { sent.append($0) }
        #expect(sent.count == 1)
        let reply = try codec.decode(try #require(sent.first))
        #expect(reply.source == address(1))
        #expect(reply.cluster == Self.cluster)
        #expect(FakeAir.destination(of: sent[0]) == address(2))
        #expect(reply.announcements.map(\.kind) == [.publish])
        #expect(reply.announcements.first?.requestorInstanceID == InstanceID(rawValue: 4))
        #expect(responder.takeAnswer(answer()))
        #expect(!responder.takeAnswer(answer()))  // taken once
    }

    @Test func framesItDoesNotAnswerSendNothingAndLeaveNoNote() throws {
        let responder = responder(protecting: [address(3)])
        var sent = 0
        responder.respond(to: try subscribeFrame(cluster: address(9)), signal: -50) { _ in sent += 1 }
        responder.respond(to: try subscribeFrame(from: address(3)), signal: -50) { _ in sent += 1 }
        responder.respond(to: try subscribeFrame(from: address(1)), signal: -50) { _ in sent += 1 }
        responder.respond(to: [0x00, 0x01, 0x02], signal: -50) { _ in sent += 1 }
        #expect(sent == 0)
        #expect(!responder.takeAnswer(answer()))
        #expect(!responder.takeAnswer(answer(to: address(3))))
    }

    /// When the engine sends replies through peer stations, a subscriber that announced its schedule is the
    /// engine's to answer (its station first); one that announced none is answered here as before.
    @Test func aSubscriberAnnouncingItsScheduleIsLeftToTheEngineWhenItAddsStations() throws {
        let responder = responder()
        var snapshot = try #require(responder.snapshotForTests)
        snapshot.leavesAnnouncedSchedulesToEngine = true
        responder.update(snapshot)
        var sent = 0
        responder.respond(to: try subscribeFrame(announcingSchedule: true), signal: -50) { _ in sent += 1 }
        #expect(sent == 0)
        #expect(!responder.takeAnswer(answer()))
        responder.respond(to: try subscribeFrame(), signal: -50) { _ in sent += 1 }
        #expect(sent == 1)
        snapshot.leavesAnnouncedSchedulesToEngine = false
        responder.update(snapshot)
        responder.respond(to: try subscribeFrame(announcingSchedule: true), signal: -50) { _ in sent += 1 }
        #expect(sent == 2)
    }

    @Test func readingOnlyTheSubscribesNotesWhetherTheFrameAnnouncesASchedule() throws {
        #expect(try codec.decodeSubscribes(try subscribeFrame(announcingSchedule: true)).announcesAvailability)
        #expect(!(try codec.decodeSubscribes(try subscribeFrame()).announcesAvailability))
        #expect(try codec.decode(try subscribeFrame(announcingSchedule: true)).announcesAvailability)
    }

    @Test func aReplyTheSocketRefusedIsLeftToTheEngine() throws {
        let responder = responder()
        responder.respond(to: try subscribeFrame(), signal: -50) { _ in throw NetlinkError(code: .closed, call: "test")
        }
        #expect(!responder.takeAnswer(answer()))
    }

    @Test func onlyTheLatestAnswersAreKept() throws {
        let responder = responder()
        let total = SolicitedResponder.answersKept + 8
        for instance in 1...total {
            responder.respond(to: try subscribeFrame(instance: UInt8(instance)), signal: -50) { _ in }
        }
        #expect(!responder.takeAnswer(answer(subscribe: 1)))
        #expect(responder.takeAnswer(answer(subscribe: UInt8(total))))
    }

    @Test func aFilledReplyTemplateIsTheFrameTheCodecEncodesForThatPeerAndRequestor() throws {
        var announcement = ServiceAnnouncement(
            kind: .publish, serviceID: service("chat"), instanceID: InstanceID(rawValue: 3), serviceInfo: [1, 2, 3],
            offersDataPath: true)
        announcement.cipherSuites = [.skCCM128]
        let frame = OutgoingDiscoveryFrame(destination: .broadcast, announcements: [])
        let template = try #require(
            ReplyTemplate(announcement, in: frame, codec: codec, source: address(1), cluster: Self.cluster))
        announcement.requestorInstanceID = InstanceID(rawValue: 200)
        let expected = try codec.encode(
            OutgoingDiscoveryFrame(destination: address(7), announcements: [announcement]), source: address(1),
            cluster: Self.cluster)
        #expect(template.filled(destination: address(7), requestor: InstanceID(rawValue: 200)) == expected)
    }

    @Test func readingOnlyTheSubscribesFindsWhatTheWholeDecodingFinds() throws {
        let publish = ServiceAnnouncement(
            kind: .publish, serviceID: service("chat"), instanceID: InstanceID(rawValue: 2))
        let subscribe = ServiceAnnouncement(
            kind: .subscribe, serviceID: service("file"), instanceID: InstanceID(rawValue: 9),
            matchFilter: filter("a,*,b"), serviceInfo: [7], rangeLimited: true)
        let bytes = try codec.encode(
            OutgoingDiscoveryFrame(destination: .broadcast, announcements: [publish, subscribe]), source: address(2),
            cluster: Self.cluster)
        let light = try codec.decodeSubscribes(bytes)
        let whole = try codec.decode(bytes)
        #expect(light.source == whole.source)
        #expect(light.cluster == whole.cluster)
        #expect(light.announcements.map(\.instanceID) == [InstanceID(rawValue: 9)])
        let read = try #require(light.announcements.first)
        let full = try #require(whole.announcements.last)
        #expect(read.serviceID == full.serviceID)
        #expect(read.matchFilter == full.matchFilter)
        #expect(read.serviceInfo == full.serviceInfo)
        #expect(read.rangeLimited == full.rangeLimited)
        #expect(throws: (any Error).self) { try codec.decodeSubscribes(Array(bytes.dropLast())) }
    }

    @Test func theEngineDoesNotAnswerAgainWhatTheResponderAnswered() async throws {
        let radio = CountingRadio()
        let engine = DiscoveryEngine(radio: radio, codec: codec)
        await engine.handle(.clusterJoined(Self.cluster))
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        let (publisher, _) = try await engine.publish(publish)
        let responder = try #require(engine.responder)
        let frame = try subscribeFrame()
        var sent = 0
        responder.respond(to: frame, signal: -50) { _ in sent += 1 }
        await engine.handle(.frameReceived(bytes: frame, frequency: 2437, signal: -50))
        #expect(sent == 1)
        #expect(radio.transmitted.withLock { $0 } == 0)
        #expect(await engine.reportedCount(publisher) == 1)  // the publish still reports its subscriber
        // The next subscribe the responder did not see is answered by the engine.
        await engine.handle(.frameReceived(bytes: try subscribeFrame(instance: 5), frequency: 2437, signal: -50))
        #expect(radio.transmitted.withLock { $0 } == 1)
    }

    @Test func theResponderFollowsThePublishesOfTheEngine() async throws {
        let engine = DiscoveryEngine(radio: CountingRadio(), codec: codec)
        await engine.handle(.clusterJoined(Self.cluster))
        let responder = try #require(engine.responder)
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        let frame = try subscribeFrame()
        #expect(responder.replies(to: frame, signal: -50).isEmpty)
        let (publisher, _) = try await engine.publish(publish)
        #expect(responder.replies(to: frame, signal: -50).map(\.answer.local) == [publisher])
        await engine.stop(publisher)
        #expect(responder.replies(to: frame, signal: -50).isEmpty)
    }

    @Test func aServiceDiscoveryFrameIsHandedToTheAnswererAndStillRouted() async throws {
        let nmi = WirelessDeviceID(rawValue: UInt64(3) << 32 | 1)
        let router = NANEventRouter(wiphy: WiphyIndex(rawValue: 3), managementInterface: nmi)
        let discovery = router.register(NANEventInterest(framePrefixes: [NANFramePrefix.serviceDiscovery]))
        let answered = Mutex<[Int?]>([])
        router.answerServiceDiscovery { _, signal in answered.withLock { $0.append(signal) } }
        let sdf = try subscribeFrame()
        let naf = [UInt8](repeating: 0, count: 24) + NANFramePrefix.nanAction + [0xAA]
        router.route(.frameReceived(wdev: nmi, frequency: Frequency(megahertz: 2437), signalDBM: -40, bytes: sdf))
        router.route(.frameReceived(wdev: nmi, frequency: Frequency(megahertz: 2437), signalDBM: -40, bytes: naf))
        router.finish()
        var iterator = discovery.makeAsyncIterator()
        var heard = 0
        while try await iterator.next() != nil { heard += 1 }
        #expect(answered.withLock { $0 } == [-40])  // the SDF only, not the NAF
        #expect(heard == 1)
    }
}

/// A user-space radio that counts the frames the engine transmits.
final class CountingRadio: DiscoveryRadio, Sendable {
    let transmitted = Mutex(0)
    var localAddress: MACAddress { address(1) }
    var discoveryMode: DiscoveryMode { .userSpace }
    var events: AsyncStream<RadioEvent> { AsyncStream { $0.finish() } }
    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 {
        transmitted.withLock { $0 += 1 }
        return 1
    }
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? { true }
    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle {
        throw DiscoveryError("not offloaded")
    }
    func removeFunction(cookie: UInt64) async throws {}
}

import NANSystem
import NANWire
import Synchronization
import Testing
@testable import NANEngine

/// A radio whose driver runs discovery: it records the functions the engine adds and removes.
final class OffloadingRadio: DiscoveryRadio, Sendable {
    let localAddress = address(9)
    var discoveryMode: DiscoveryMode { .offloaded }
    var events: AsyncStream<RadioEvent> { AsyncStream { $0.finish() } }
    let added = Mutex<[OffloadedFunction]>([])
    let removed = Mutex<[UInt64]>([])

    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 {
        throw DiscoveryError("an offloading driver sends its own frames")
    }
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? { nil }
    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle {
        let count = added.withLock {
            $0.append(function); return $0.count
        }
        return OffloadedFunctionHandle(
            cookie: UInt64(1000 + count), instanceID: InstanceID(rawValue: UInt8(40 + count)))
    }
    func removeFunction(cookie: UInt64) async throws { removed.withLock { $0.append(cookie) } }
}

@Suite struct OffloadedPathTests {
    @Test func publishBecomesAnAddedFunctionWithItsSettings() async throws {
        let radio = OffloadingRadio()
        let engine = NANEngine(core: DiscoveryEngine(radio: radio, codec: WireCodec()))
        var publish = PublishConfiguration(serviceID: service("chat"))
        publish.type = .solicited
        publish.serviceInfo = [1, 2]
        publish.transmitFilter = filter("a")
        publish.closeRangeOnly = true
        publish.timeToLive = try .seconds(10)
        let session = try await engine.publish(publish)
        #expect(session.instanceID == InstanceID(rawValue: 41))
        let function = try #require(radio.added.withLock { $0.first })
        #expect(function.kind == .publish)
        #expect(function.serviceID == service("chat"))
        #expect(function.publishType == .solicited)
        #expect(function.serviceInfo == [1, 2])
        #expect(function.transmitFilter == filter("a"))
        #expect(function.closeRange)
        #expect(function.ttlDiscoveryWindows == 20)  // 10 s / 0.524 s, rounded up
        await session.stop()
        #expect(radio.removed.withLock { $0 } == [1001])
    }

    @Test func matchEventsBecomeDiscoveriesRepliesAndMessages() async throws {
        let radio = OffloadingRadio()
        let core = DiscoveryEngine(radio: radio, codec: WireCodec())
        let engine = NANEngine(core: core)
        var subscribe = SubscribeConfiguration(serviceID: service("chat"))
        subscribe.active = true
        let subscriber = try await engine.subscribe(subscribe)
        let publisher = try await engine.publish(PublishConfiguration(serviceID: service("chat")))
        #expect(radio.added.withLock { $0.first?.activeSubscribe } == true)
        let match = OffloadedMatch(
            cookie: 1001, localInstanceID: subscriber.instanceID, peer: address(1), peerKind: .publish,
            peerInstanceID: InstanceID(rawValue: 5), serviceInfo: [3])
        await core.handle(.functionMatched(match))
        await core.handle(.functionMatched(match))  // a repeat is not reported again
        var message = match
        message.peerKind = .followUp
        message.serviceInfo = [4]
        await core.handle(.functionMatched(message))
        var subscriberMatch = match
        subscriberMatch.cookie = 1002
        subscriberMatch.peerKind = .subscribe
        await core.handle(.functionMatched(subscriberMatch))

        let atSubscriber = await drain(subscriber)
        #expect(atSubscriber.compactMap(\.discovered).map(\.peerInstanceID) == [InstanceID(rawValue: 5)])
        #expect(atSubscriber.compactMap(\.message).map(\.payload) == [[4]])
        #expect(await drain(publisher).compactMap(\.replied).map(\.peer) == [address(1)])
    }

    @Test func terminationEventEndsTheSessionWithTheDriversReason() async throws {
        let radio = OffloadingRadio()
        let core = DiscoveryEngine(radio: radio, codec: WireCodec())
        let session = try await NANEngine(core: core).publish(PublishConfiguration(serviceID: service("chat")))
        await core.handle(.functionTerminated(cookie: 1001, reason: .timeToLiveExpired))
        var events: [DiscoveryEvent] = []
        for await event in session { events.append(event) }
        #expect(events == [.terminated(.timeToLiveExpired)])
    }

    @Test func followUpIsAnAddedFollowUpFunction() async throws {
        let radio = OffloadingRadio()
        let engine = NANEngine(core: DiscoveryEngine(radio: radio, codec: WireCodec()))
        let session = try await engine.subscribe(SubscribeConfiguration(serviceID: service("chat")))
        let status = try await session.send([9], to: address(1), peerInstanceID: InstanceID(rawValue: 5))
        #expect(status == .handedToDriver)
        let followUp = try #require(radio.added.withLock { $0.last })
        #expect(followUp.kind == .followUp)
        #expect(followUp.followUpID == InstanceID(rawValue: 5))
        #expect(followUp.followUpRequestorID == session.instanceID)
        #expect(followUp.followUpDestination == address(1))
        #expect(followUp.serviceInfo == [9])
    }
}

@Suite struct NL80211MappingTests {
    @Test func offloadedSubscribeBecomesTheKernelsNANFunction() throws {
        var f = OffloadedFunction(kind: .subscribe, serviceID: service("chat"))
        f.activeSubscribe = true
        f.ttlDiscoveryWindows = 7
        f.serviceInfo = [1]
        f.receiveFilter = filter("a,*")
        let bloom = try BloomFilter(index: 2, length: 4, addresses: [address(1)])
        f.responseFilter = ServiceResponseFilter(include: true, addressSet: .bloomFilter(bloom))
        let function = NL80211Radio.nanFunction(f)
        #expect(function.type == .subscribe)
        #expect(function.subscribeActive)
        #expect(function.publishType == [])
        #expect(function.timeToLive == 7)
        #expect(function.serviceInfo == [1])
        #expect(function.receiveMatchFilter == [Array("a".utf8), []])
        #expect(
            function.serviceResponseFilter
                == NANServiceResponseFilter(include: true, content: .bloomFilter(Array(bloom.bits), index: 2)))
    }

    @Test func kernelEventsForOtherInterfacesAreIgnored() {
        let ours = WirelessDeviceID(rawValue: 0x2)
        let theirs = WirelessDeviceID(rawValue: 0x100000002)
        #expect(NL80211Radio.translate(.nextDiscoveryWindow(wdev: theirs, frequency: .nan2GHz), wdev: ours) == nil)
        let event = NL80211Radio.translate(.nextDiscoveryWindow(wdev: ours, frequency: .nan2GHz), wdev: ours)
        guard case .discoveryWindow(let frequency) = event else {
            Issue.record("expected a discovery window, got \(String(describing: event))")
            return
        }
        #expect(frequency == 2437)
    }

    @Test func terminationEventKeepsTheKernelsReason() {
        let event = NL80211Radio.translate(
            .nanFunctionTerminated(
                cookie: NANFunctionCookie(rawValue: 5), instance: InstanceID(3), reason: .ttlExpired),
            wdev: WirelessDeviceID(rawValue: 2))
        guard case .functionTerminated(let cookie, let reason) = event else {
            Issue.record("expected a termination, got \(String(describing: event))")
            return
        }
        #expect(cookie == 5)
        #expect(reason == .timeToLiveExpired)
    }
}

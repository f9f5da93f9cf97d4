import Foundation
import NANWire
import Synchronization

@testable import NANEngine
@testable import WiFiAware

/// A discovery engine without a radio: tests start sessions on it, play engine events into them and
/// see what the WiFiAware layer asks of the engine (starts, stops, sends).
final class FakeBackend: DiscoveryBackend {
    struct Started: Sendable {
        var instanceID: InstanceID
        var publish: PublishConfiguration?
        var subscribe: SubscribeConfiguration?
        var continuation: AsyncStream<DiscoveryEvent>.Continuation
    }

    private struct State {
        var started: [Started] = []
        var stopped: [InstanceID] = []
        var sent: [(payload: [UInt8], to: MACAddress, peerInstance: InstanceID)] = []
        var peers: [Peer] = []
        var nextInstance: UInt8 = 1
    }

    let localAddress: MACAddress
    private let state = Mutex(State())

    init(address: MACAddress = testAddress(0xAA)) { localAddress = address }

    func publish(_ configuration: PublishConfiguration) async throws -> BackendSession {
        start(publish: configuration, subscribe: nil)
    }

    func subscribe(_ configuration: SubscribeConfiguration) async throws -> BackendSession {
        start(publish: nil, subscribe: configuration)
    }

    func send(
        _ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID
    ) async throws -> DeliveryStatus {
        state.withLock { $0.sent.append((payload, peer, peerInstanceID)) }
        return .acknowledged
    }

    func peers() async -> [Peer] { state.withLock { $0.peers } }

    private func start(publish: PublishConfiguration?, subscribe: SubscribeConfiguration?) -> BackendSession {
        let (stream, continuation) = AsyncStream.makeStream(of: DiscoveryEvent.self)
        let id = state.withLock { state -> InstanceID in
            let id = InstanceID(state.nextInstance)
            state.nextInstance += 1
            state.started.append(
                Started(instanceID: id, publish: publish, subscribe: subscribe, continuation: continuation))
            return id
        }
        return BackendSession(
            instanceID: id, makeIterator: { stream.makeAsyncIterator() },
            stop: { [self] in
                state.withLock { $0.stopped.append(id) }
                continuation.yield(.terminated(.userRequest))
                continuation.finish()
            })
    }

    // MARK: For tests

    var started: [Started] { state.withLock { $0.started } }
    var stopped: [InstanceID] { state.withLock { $0.stopped } }
    var sentPayloads: [[UInt8]] { state.withLock { $0.sent.map(\.payload) } }

    /// Sets what `peers()` returns.
    func setPeers(_ peers: [Peer]) { state.withLock { $0.peers = peers } }

    /// Plays an event into the session started `index`-th.
    func emit(_ event: DiscoveryEvent, session index: Int = 0) {
        let continuation = state.withLock { $0.started[index].continuation }
        continuation.yield(event)
    }

    /// Waits (up to 5 s) until `condition` holds.
    func waitUntil(_ condition: @Sendable (FakeBackend) -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

/// A discovery result from the peer at `address(n)`.
func result(from n: Int, instance: UInt8 = 7, local: UInt8 = 1, info: String = "") -> DiscoveryResult {
    DiscoveryResult(
        peer: testAddress(n), peerInstanceID: InstanceID(instance), localInstanceID: InstanceID(local),
        serviceInfo: Array(info.utf8), offersDataPath: false,
        radio: PeerRadioFacts(signal: -40, frequency: 2437, discoveryWindowsHeard: 1, lastHeard: .now))
}

/// A message from the peer at `address(n)`.
func message(from n: Int, _ text: String, instance: UInt8 = 7, local: UInt8 = 1) -> ReceivedMessage {
    ReceivedMessage(
        peer: testAddress(n), peerInstanceID: InstanceID(instance), localInstanceID: InstanceID(local),
        payload: Array(text.utf8),
        radio: PeerRadioFacts(signal: -40, frequency: 2437, discoveryWindowsHeard: 1, lastHeard: .now))
}

/// A system over a fake backend, with a store and runtime folder in `folder`.
func withFakeSystem<T: Sendable>(
    in folder: URL, adapter: String = "phy0", backend: FakeBackend = FakeBackend(),
    transport: WATransport = .synchronized, _ body: (WASystem, FakeBackend) async throws -> T
) async throws -> T {
    let system = WASystem(
        backend: backend, adapterName: adapter,
        store: WADeviceStore(url: folder.appendingPathComponent("devices.json")),
        runtimeDirectory: folder.appendingPathComponent("run"), transport: transport)
    do {
        return try await system.scope { try await body($0, backend) }
    } catch let error as BodyError {
        throw error.error
    }
}

/// Collects events until `count` arrived (or the sequence ended).
func collect<S: AsyncSequence & Sendable>(_ sequence: S, count: Int) async throws -> [WASessionEvent]
where S.Element == WASessionEvent {
    var events: [WASessionEvent] = []
    for try await event in sequence {
        events.append(event)
        if events.count >= count { break }
    }
    return events
}

public import NANSystem
public import NANWire
import Synchronization

/// The ``PairingLink`` of a device runtime: PASN Authentication frames go out on the NMI through nl80211
/// (``NANRuntime/exchange(_:frequency:timeout:response:)``, waiting for the acknowledgement), NIK key
/// data in follow-ups through the discovery engine, from the local instance to the peer instance that
/// ``route(_:local:peerInstanceID:)`` recorded for the peer (the publish or subscribe the pairing is for).
public final class RuntimePairingLink: PairingLink {
    private let runtime: NANRuntime
    private let engine: NANEngine
    private let routes = Mutex<[MACAddress: (local: InstanceID, peer: InstanceID)]>([:])
    /// The most peers routed at once; the oldest route is dropped beyond it.
    public let capacity: Int

    /// A link over `runtime` and its discovery `engine`.
    public init(runtime: NANRuntime, engine: NANEngine, capacity: Int = 64) {
        self.runtime = runtime; self.engine = engine; self.capacity = max(1, capacity)
    }

    /// Records which of our instances talks to which instance of `peer` (before pairing with it, or when
    /// its first frame arrives).
    public func route(_ peer: MACAddress, local: InstanceID, peerInstanceID: InstanceID) {
        routes.withLock { table in
            if table[peer] == nil, table.count >= capacity, let victim = table.keys.first { table[victim] = nil }
            table[peer] = (local, peerInstanceID)
        }
    }

    /// Sends a whole Authentication frame and waits for its acknowledgement. A frame is sent right after a
    /// discovery window starts (the peer listens then), and again in the next windows if it is not
    /// acknowledged, up to `attempts` times.
    public func send(authentication frame: [UInt8]) async throws {
        let attempts = 4
        for _ in 0..<attempts {
            guard await engine.core.nextWindow() else { break }
            let outcome = try await runtime.exchange(frame, timeout: .seconds(1))
            if outcome.acknowledged != false { return }
        }
        throw PairingError(.timedOut, "PASN frame not acknowledged in \(attempts) discovery windows")
    }

    /// Sends the NIK key data in a follow-up along the peer's route.
    public func send(keyDescriptor: SharedKeyDescriptorAttribute, to peer: MACAddress) async throws {
        guard let route = routes.withLock({ $0[peer] }) else {
            throw PairingError(.unexpectedMessage, "no service instance to send the NIK to \(peer) through")
        }
        _ = try await engine.send(keyDescriptor: keyDescriptor, from: route.local, to: peer, peerInstanceID: route.peer)
    }
}

extension PairingEngine {
    /// The interest to register with the runtime (before NAN starts) for the PASN frames ``serve(_:)`` takes.
    public static let runtimeInterest = NANEventInterest(authenticationFrames: true, bufferSize: 64)

    /// Feeds the PASN Authentication frames of a runtime event stream (registered with
    /// ``runtimeInterest``) to this engine until the stream ends or the task is cancelled.
    public func serve(_ events: AsyncThrowingStream<NL80211Event, any Error>) async throws {
        for try await event in events {
            if case .frameReceived(_, _, _, let bytes) = event { await handle(authentication: bytes) }
        }
    }
}

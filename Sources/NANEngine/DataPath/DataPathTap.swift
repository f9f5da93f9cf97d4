import NANSystem
import NANWire

/// Feeds the data-path engine from the nl80211 session's events (NAFs, DWs, TX status, cluster) while the
/// discovery engine reads the same stream: the observer copies what matters into a bounded stream that a
/// task pumps into the engine.
struct DataPathTap: Sendable {
    let observer: @Sendable (NL80211Event) -> Void
    private let events: AsyncStream<DataPathRadioEvent>
    private let continuation: AsyncStream<DataPathRadioEvent>.Continuation
    private let radio: NL80211DataPathRadio.Parts

    /// A tap for `adapter` if it can carry data paths (NAN data interfaces), after registering for NAFs.
    static func make(session: NL80211Session, interface: NANInterface, adapter: Adapter) async throws -> DataPathTap? {
        guard adapter.nan.dataInterface else { return nil }
        try await session.registerFrames(on: interface.wdev, matching: NANFramePrefix.nanAction)
        let (events, continuation) = AsyncStream.makeStream(of: DataPathRadioEvent.self, bufferingPolicy: .bufferingNewest(256))
        let wdev = interface.wdev
        let observer: @Sendable (NL80211Event) -> Void = { event in
            switch event {
            case .clusterJoined(let from, let clusterID, _) where from == wdev:
                continuation.yield(.clusterJoined(clusterID))
            case .nextDiscoveryWindow(let from, let frequency) where from == wdev:
                continuation.yield(.discoveryWindow(frequency: Int(frequency.rawValue)))
            case .frameReceived(let from, _, _, let bytes) where from == nil || from == wdev:
                // Only NAFs: the action body starts after the 24-byte header.
                if bytes.count > 30, Array(bytes[24..<30]) == NANFramePrefix.nanAction {
                    continuation.yield(.frameReceived(bytes: bytes))
                }
            case .frameTxStatus(let cookie, let acked):
                continuation.yield(.transmitStatus(cookie: cookie.rawValue, acknowledged: acked))
            default:
                break
            }
        }
        return DataPathTap(observer: observer, events: events, continuation: continuation,
                           radio: .init(session: session, interface: interface, adapter: adapter))
    }

    /// Starts the engine and the pump once NAN runs.
    func start(fiveGHzDiscovery: Bool, trace: (@Sendable (String) -> Void)?) async -> DataPathEngine {
        let engine = DataPathEngine(radio: NL80211DataPathRadio(
            session: radio.session, interface: radio.interface, adapter: radio.adapter, fiveGHzEnabled: fiveGHzDiscovery, trace: trace),
            trace: trace)
        let events = events
        Task {
            for await event in events { await engine.handle(event) }
        }
        return engine
    }

    /// Ends the pump.
    func stop() { continuation.finish() }
}

extension NL80211DataPathRadio {
    /// What a radio is made of, before NAN runs.
    struct Parts: Sendable {
        var session: NL80211Session
        var interface: NANInterface
        var adapter: Adapter
    }
}

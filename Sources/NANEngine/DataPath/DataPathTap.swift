import NANLogging
import NANSystem
import NANWire

/// Registers the data-path engine as a client of the NAN device runtime: NAFs, DWs, channel evacuations and
/// the cluster come on its own stream (transmit statuses from the runtime's transmit service), pumped into the engine by one task. The registration waits for
/// the engine's first use (an accept or a request): until then a publisher or subscriber that never asks
/// for a data path pays nothing for it at each DW.
enum DataPathTap {
    /// What the data path registers for.
    static let interest = NANEventInterest(
        kinds: [.cluster, .discoveryWindow, .channelEvacuation],
        framePrefixes: [NANFramePrefix.nanAction, NANFramePrefix.protectedNANAction],
        bufferSize: 256)

    /// A data-path engine on `runtime` if its adapter can carry data paths (NAN data interfaces and a
    /// user-space discovery engine); nil otherwise.
    /// `transmitsOnDataLink`: the `WAWARE_DP_NDL_TX` experiment (``DataPathEngine/transmitsOnDataLink``).
    static func make(
        runtime: NANRuntime, logger: Logger, scheduleLayout: DataPathScheduleLayout = .preferred,
        transmitsOnDataLink: Bool = false
    ) async throws -> DataPathEngine? {
        guard runtime.adapter.nan.dataInterface, runtime.discoveryMode == .userSpace else { return nil }
        let radio = NL80211DataPathRadio(
            runtime: runtime, fiveGHzEnabled: runtime.adapter.nan.bands.contains(.band5GHz), logger: logger)
        let engine = DataPathEngine(
            radio: radio, scheduleLayout: scheduleLayout, transmitsOnDataLink: transmitsOnDataLink, logger: logger)
        let wdev = runtime.managementInterface.wdev
        await engine.setActivation { [weak engine] in
            let stream = try await runtime.events(for: interest)
            guard let engine else { return }
            // The cluster was joined before this registration: tell the engine now.
            if let cluster = runtime.cluster { await engine.handle(.clusterJoined(cluster)) }
            Task {
                do {
                    for try await event in stream {
                        if let translated = translate(event, wdev: wdev) { await engine.handle(translated) }
                    }
                } catch {}
            }
        }
        return engine
    }

    /// Whether `bytes` (a management frame, header first) is a protected NAF.
    static func isProtectedNAF(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 30 && Array(bytes[24..<30]) == NANFramePrefix.protectedNANAction
    }

    /// The data path's view of one runtime event; nil for the rest.
    static func translate(_ event: NL80211Event, wdev: WirelessDeviceID) -> DataPathRadioEvent? {
        switch event {
        case .clusterJoined(let from, let clusterID, _) where from == wdev:
            return .clusterJoined(clusterID)
        case .nextDiscoveryWindow(let from, let frequency) where from == wdev:
            return .discoveryWindow(frequency: Int(frequency.rawValue))
        case .frameReceived(let from, _, _, let bytes) where from == nil || from == wdev:
            return .frameReceived(bytes: bytes)
        case .frameReceived(_, _, _, let bytes) where isProtectedNAF(bytes):
            // On our data interface: a peer's NAF under the data path's key (registered there by the radio).
            return .frameReceived(bytes: bytes)
        case .channelsEvacuated(_, let from, let channels) where from == nil || from == wdev:
            return .channelsEvacuated(frequencies: Set(channels.map { Int($0.frequency.rawValue) }))
        default:
            return nil
        }
    }
}

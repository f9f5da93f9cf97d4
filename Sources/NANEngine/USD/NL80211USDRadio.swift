import NANSystem
import NANWire

/// The real USD radio: a station interface of an adapter, with the NAN SDF registered on it, remain-on-channel
/// to listen and `FRAME` with an off-channel wait to send. No NAN support is needed from the driver.
final class NL80211USDRadio: USDRadio, Sendable {
    let session: NL80211Session
    let interface: WirelessInterface
    let localAddress: MACAddress
    /// The start's check that the radio can listen: its end is no end of a listen the engine asked for.
    let probe: RemainOnChannelCookie

    /// Takes the adapter's first station interface (brought up if it was down), or creates one owned by the
    /// session when it has none, registers for NAN SDFs on it, and checks that the radio can listen on
    /// `frequency` (a remain-on-channel of 10 ms), so that a radio that cannot fails here with the reason.
    ///
    /// - Throws: ``NetlinkError`` naming the step in its `call`: `SIOCSIFFLAGS` (`ERFKILL`: rfkill),
    ///   `NL80211_CMD_REGISTER_FRAME` (`EALREADY`: another program receives SDFs there),
    ///   `NL80211_CMD_REMAIN_ON_CHANNEL` (`EBUSY`: scanning or off channel already; `EINVAL`: a channel the
    ///   regulatory domain disables); `permissionDenied` without CAP_NET_ADMIN.
    init(session: NL80211Session, adapter: Adapter, frequency: Int) async throws {
        self.session = session
        let existing = adapter.interfaces.first { $0.type == .station && $0.name != nil }
        let interface: WirelessInterface
        if let existing {
            interface = existing
        } else {
            interface = try await session.createInterface(
                on: adapter.wiphy, name: "usd\(adapter.wiphy.rawValue)", type: .station, ownedBySession: true)
        }
        try NL80211Session.setInterfaceUp(interface.name ?? "", true)
        guard let address = interface.address else {
            throw NetlinkError(code: .malformedMessage, call: "NL80211_CMD_GET_INTERFACE", detail: "no address")
        }
        try await session.registerFrames(on: interface.wdev, matching: NANFramePrefix.serviceDiscovery)
        probe = try await session.remainOnChannel(
            on: interface.wdev, frequency: Frequency(rawValue: UInt32(clamping: frequency)), duration: .milliseconds(10)
        )
        self.interface = interface
        self.localAddress = address
    }

    var events: AsyncCompactMapSequence<AsyncThrowingStream<NL80211Event, any Error>, USDRadioEvent> {
        let (wdev, probe) = (interface.wdev, probe)
        return session.events.compactMap { event in
            if case .remainOnChannel(let period) = event, period.cookie == probe { return nil }
            return Self.translate(event, wdev: wdev)
        }
    }

    /// The engine's view of one nl80211 event about our interface; nil for everything else.
    static func translate(_ event: NL80211Event, wdev: WirelessDeviceID) -> USDRadioEvent? {
        switch event {
        case .frameReceived(let from, let frequency, let signal, let bytes) where from == nil || from == wdev:
            return .frameReceived(bytes: bytes, frequency: Int(frequency.rawValue), signal: signal.map(Int.init))
        case .frameTxStatus(let cookie, let acked, _):
            return .transmitStatus(cookie: cookie.rawValue, acknowledged: acked)
        case .remainOnChannel(let period) where period.ended && (period.wdev == nil || period.wdev == wdev):
            return .listenEnded
        case .interfaceRemoved(_, let removed, _) where removed == wdev:
            return .interfaceRemoved
        case .wiphyRemoved(let wiphy) where wiphy == wdev.wiphy:
            return .interfaceRemoved
        default:
            return nil
        }
    }

    func transmit(_ frame: [UInt8], frequency: Int, wait: Duration) async throws -> UInt64 {
        let options = FrameSendOptions(
            waitForAck: true, allowOffChannel: true,
            offChannelDurationMilliseconds: UInt32(clamping: max(1, wait.inWholeMilliseconds)))
        let cookie = try await session.sendFrame(
            frame, on: interface.wdev, frequency: Frequency(rawValue: UInt32(clamping: frequency)), options: options)
        return cookie.rawValue
    }

    func listen(frequency: Int, duration: Duration) async throws {
        _ = try await session.remainOnChannel(
            on: interface.wdev, frequency: Frequency(rawValue: UInt32(clamping: frequency)), duration: duration)
    }
}

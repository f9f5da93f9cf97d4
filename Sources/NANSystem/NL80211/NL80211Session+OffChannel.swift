public import NANWire

/// Off-channel work on an ordinary interface: staying on a channel to listen for a while (remain-on-channel),
/// what NAN's unsynchronized service discovery (USD) needs besides frame registration and `FRAME`.
extension NL80211Session {
    /// Asks the radio to stay on `frequency` for `duration` (remain-on-channel), to receive the frames
    /// registered with ``registerFrames(on:type:matching:)`` there. A
    /// ``NL80211Event/remainOnChannel(_:)`` event says when it started and another when it ended.
    ///
    /// - Parameters:
    ///   - wdev: the interface (a station interface that is up will do).
    ///   - frequency: the channel's centre frequency.
    ///   - duration: how long, at most the radio's ``USDSupport/maximumRemainOnChannel``.
    /// - Returns: the cookie its events carry, for ``cancelRemainOnChannel(_:on:)``.
    /// - Throws: ``NetlinkError``: `busy` when the radio is scanning or otherwise occupied, `invalidArgument`
    ///   for a channel the regulatory domain disables, `notSupported` when the driver lacks the command.
    public func remainOnChannel(
        on wdev: WirelessDeviceID, frequency: Frequency, duration: Duration
    ) async throws -> RemainOnChannelCookie {
        let reply = try await send(try .remainOnChannel(wdev, frequency: frequency, duration: duration))
        let cookie = try reply.messages.first?.attributes.integer(NL80211Attribute.cookie, as: UInt64.self)
        return RemainOnChannelCookie(rawValue: cookie ?? 0)
    }

    /// Ends a remain-on-channel early.
    public func cancelRemainOnChannel(_ cookie: RemainOnChannelCookie, on wdev: WirelessDeviceID) async throws {
        _ = try await send(try .cancelRemainOnChannel(wdev, cookie: cookie))
    }
}

extension NL80211Request {
    /// `REMAIN_ON_CHANNEL`: `WIPHY_FREQ` and `DURATION` in milliseconds (at least 1).
    static func remainOnChannel(
        _ wdev: WirelessDeviceID, frequency: Frequency, duration: Duration
    ) throws(NetlinkError) -> NL80211Request {
        let milliseconds = UInt32(clamping: max(1, duration.inWholeMilliseconds))
        return try build(.remainOnChannel) { (w) throws(NetlinkError) in
            try w.put(A.wdev, wdev.rawValue)
            try w.put(A.wiphyFreq, frequency.rawValue)
            try w.put(A.duration, milliseconds)
        }
    }

    /// `CANCEL_REMAIN_ON_CHANNEL` by cookie.
    static func cancelRemainOnChannel(
        _ wdev: WirelessDeviceID, cookie: RemainOnChannelCookie
    ) throws(NetlinkError) -> NL80211Request {
        try build(.cancelRemainOnChannel) { (w) throws(NetlinkError) in
            try w.put(A.wdev, wdev.rawValue)
            try w.put(A.cookie, cookie.rawValue)
        }
    }
}

/// The kernel's handle for one remain-on-channel period.
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_COOKIE` (u64) of `NL80211_CMD_REMAIN_ON_CHANNEL`.
public struct RemainOnChannelCookie: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The cookie.
    public let rawValue: UInt64
    /// Wraps a cookie.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Hexadecimal.
    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// A remain-on-channel period that started or ended: `NL80211_CMD_REMAIN_ON_CHANNEL` and
/// `NL80211_CMD_CANCEL_REMAIN_ON_CHANNEL` as events (the second also when the period simply ran out).
public struct RemainOnChannelEvent: Sendable, Hashable {
    /// The interface.
    public var wdev: WirelessDeviceID?
    /// The period's cookie.
    public var cookie: RemainOnChannelCookie
    /// The channel.
    public var frequency: Frequency
    /// False when the radio arrived on the channel, true when it left.
    public var ended: Bool

    /// Makes a value.
    public init(wdev: WirelessDeviceID?, cookie: RemainOnChannelCookie, frequency: Frequency, ended: Bool) {
        self.wdev = wdev
        self.cookie = cookie
        self.frequency = frequency
        self.ended = ended
    }
}

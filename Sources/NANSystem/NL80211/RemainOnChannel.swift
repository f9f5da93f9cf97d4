public import NANWire

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

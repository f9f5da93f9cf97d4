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

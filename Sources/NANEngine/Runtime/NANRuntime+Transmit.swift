public import NANSystem

/// The runtime's transmit service: every client sends its management frames here, or on its own interface
/// through ``session``, and learns their fate from ``acknowledgement(of:within:)`` (``TransmitStatuses``),
/// with retries by a ``TransmitPolicy``.
extension NANRuntime {
    /// Sends a management frame on the NAN management interface; returns the kernel's cookie for it.
    ///
    /// ```swift
    /// let cookie = try await runtime.transmit(frame)
    /// let acknowledged = await runtime.acknowledgement(of: cookie, within: .seconds(2))
    /// ```
    ///
    /// - Parameters:
    ///   - frame: the whole 802.11 frame, header included.
    ///   - frequency: the channel; nil means the current one.
    /// - Throws: the kernel's `NetlinkError` if it refuses the frame.
    public nonisolated func transmit(_ frame: [UInt8], frequency: Frequency? = nil) async throws -> FrameCookie {
        try await session.sendFrame(frame, on: managementInterface.wdev, frequency: frequency)
    }

    /// Waits at most `timeout` for the transmit status of a frame sent on this runtime's session (by
    /// ``transmit(_:frequency:)`` or on any interface of the radio): whether the peer acknowledged it, or nil
    /// when no status came in time, the session ended, or the task was cancelled. A status that came before
    /// the wait began counts.
    public nonisolated func acknowledgement(of cookie: FrameCookie, within timeout: Duration) async -> Bool? {
        await router.statuses.acknowledgement(of: cookie.rawValue, within: timeout)
    }
}

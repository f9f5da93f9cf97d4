/// How the USD engine runs: the channel, how often it announces, how long it listens, and its table limits.
public struct USDOptions: Sendable {
    /// The channel publishes and subscribes use, in MHz: 2437 (2.4 GHz channel 6), the default channel of
    /// Wi-Fi Aware's unsynchronized service discovery.
    public var frequency = USDOptions.defaultFrequency
    /// How often an unsolicited publish or an active subscribe is sent (default 100 ms).
    public var announcementPeriod: Duration = .milliseconds(100)
    /// How long the radio stays on the channel after a frame it sends, waiting for an answer (default 100 ms).
    public var transmitWait: Duration = .milliseconds(100)
    /// How long one listen (remain-on-channel) period lasts; the engine starts the next when it ends
    /// (default 1 s, clipped by the radio's maximum).
    public var listenPeriod: Duration = .seconds(1)
    /// How long a follow-up waits for its TX status per attempt (default 1 s).
    public var acknowledgementTimeout: Duration = .seconds(1)
    /// How many times a follow-up is sent before it is reported not acknowledged (default 3).
    public var followUpAttempts = 3
    /// How long a follow-up waits before it is sent again (default 60 ms). An unacknowledged frame's status
    /// comes back within milliseconds, and a USD peer listens in windows (after its own frames, between its
    /// listen periods): attempts sent back to back all fell in the same deaf gap of wpa_supplicant's
    /// subscriber, spaced ones reach its next window.
    public var followUpRetryGap: Duration = .milliseconds(60)
    /// The most peers remembered; the least recently heard is forgotten first (default 256).
    public var maximumPeers = 256
    /// The most peer instances one session remembers having reported; the oldest is forgotten first and
    /// reported again if heard (default 64).
    public var maximumReportedPerSession = 64

    /// 2437 MHz, channel 6.
    public static let defaultFrequency = 2437

    /// The defaults.
    public init() {}
}

/// Counters of what the engine did, for diagnostics and tests.
public struct EngineStatistics: Hashable, Sendable {
    /// Discovery windows announced by the radio.
    public var discoveryWindows = 0
    /// Management frames received.
    public var framesReceived = 0
    /// Received frames that did not decode (dropped).
    public var framesUndecodable = 0
    /// Frames we sent.
    public var framesSent = 0
    /// Frames the radio refused to send.
    public var sendFailures = 0
    /// Frames acknowledged by the peer.
    public var framesAcknowledged = 0
    /// Frames not acknowledged.
    public var framesNotAcknowledged = 0
    /// Follow-ups addressed to an instance we do not have.
    public var unmatchedFollowUps = 0
    /// Session events dropped because a consumer fell behind.
    public var eventsDropped = 0
    /// Service discovery frames from another NAN cluster (address 3 is not our cluster ID), ignored.
    public var foreignClusterFrames = 0
    /// Times the kernel dropped radio events (netlink overrun) and the engine resynchronised.
    public var radioEventOverruns = 0
    /// Times the radio could not be asked for its state after an overrun (the engine kept what it knew).
    public var resynchronizationFailures = 0
    /// Peer instances a function forgot to stay within its bound while still hearing them (a storm).
    public var reportedEvicted = 0
}

/// What the radio measured about a peer, from the discovery frames it sent us, in the spirit of
/// Apple's `WAPerformanceReport`.
///
/// Apple reports throughput and latency of a data connection; discovery has no connection yet, so on
/// Linux the report holds what discovery frames tell: their signal, channel and how often the peer is heard.
public struct WAPerformanceReport: Hashable, Sendable {
    /// Signal of the peer's last frame in dBm (e.g. -45), if the driver reported it.
    public var signalStrength: Int?
    /// Frequency in MHz of the peer's last frame (2437 is NAN's 2.4 GHz discovery channel).
    public var frequency: Int?
    /// In how many distinct discovery windows (one every 0.524 s) we heard the peer.
    public var discoveryWindowsHeard: Int
    /// When we last heard the peer.
    public var lastHeard: ContinuousClock.Instant

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - signalStrength: Signal in dBm.
    ///   - frequency: Frequency in MHz.
    ///   - discoveryWindowsHeard: Discovery windows in which the peer was heard.
    ///   - lastHeard: When the peer was last heard.
    public init(signalStrength: Int?, frequency: Int?, discoveryWindowsHeard: Int, lastHeard: ContinuousClock.Instant) {
        self.signalStrength = signalStrength
        self.frequency = frequency
        self.discoveryWindowsHeard = discoveryWindowsHeard
        self.lastHeard = lastHeard
    }
}

public import FoundationEssentials

/// What is known about the link to a peer, in the shape of Apple's `WAPerformanceReport`.
///
/// From discovery (``WAEndpoint/performance``, ``WASystem/peers()``) it holds what discovery frames tell:
/// signal, channel, how often the peer is heard (``statisticsSource`` ``WAStatisticsSource/discoveryFrames``). From a data path
/// (``WASystem/performanceReport(for:probes:progress:)``) it adds Apple's fields: the throughput ceiling
/// (PHY rate × scheduled airtime), the throughput capacity (measured by a bulk transfer), their ratio,
/// the transmit latency per access category (timestamped UDP probes), and ours: the kernel's station
/// statistics and the schedule (``link``). docs/performance.md says how each number is measured.
public struct WAPerformanceReport: Hashable, Sendable {
    /// Signal of the peer's last frame in dBm (e.g. -45), if the driver reported it. (Apple's
    /// `signalStrength` is a 0–1 value: that is ``signalQuality``.)
    public var signalStrength: Int?
    /// Frequency in MHz of the peer's last frame (2437 is NAN's 2.4 GHz discovery channel).
    public var frequency: Int?
    /// In how many distinct discovery windows (one every 0.524 s) we heard the peer (0 in data-path reports).
    public var discoveryWindowsHeard: Int
    /// When we last heard the peer.
    public var lastHeard: ContinuousClock.Instant

    /// When the report was made (Apple's `timestamp`); nil in discovery reports.
    public var timestamp: Date? = nil
    /// When the report was made, on the continuous clock (Apple's `localTimestamp`); nil in discovery reports.
    public var localTimestamp: ContinuousClock.Instant? = nil
    /// Apple's `signalStrength`: the average signal mapped to 0…1 (−90 dBm or less is 0, −30 dBm or more is 1).
    public var signalQuality: Double? = nil
    /// The most the link could carry, Mbit/s: the transmit PHY rate (MCS, streams, width, guard interval)
    /// times the share of the NAN period both sides are scheduled on the same channel.
    public var throughputCeiling: Double? = nil
    /// Measured goodput from us to the peer, Mbit/s (a bounded TCP bulk transfer); nil without probes.
    public var throughputCapacity: Double? = nil
    /// ``throughputCapacity`` / ``throughputCeiling`` (0…1; above 1 means the ceiling underestimates, e.g.
    /// on simulated radios whose frames take no airtime).
    public var throughputCapacityRatio: Double? = nil
    /// Measured goodput from the peer to us, Mbit/s (ours; Apple reports one direction).
    public var receiveCapacity: Double? = nil
    /// One-way transmit latency per access category, estimated from UDP echoes sent with its DSCP.
    public var transmitLatency: [WAAccessCategory: WATransmitLatencyMetrics] = [:]
    /// The performance mode of the data path, if the report is about one.
    public var performanceMode: WAPerformanceMode? = nil
    /// The kernel's view of the link and its schedule (ours); nil in discovery reports.
    public var link: WALinkMetrics? = nil
    /// Where the figures came from: ``WAStatisticsSource/dataPath`` (the kernel's station of the data path,
    /// plus the probes if any) or ``WAStatisticsSource/discoveryFrames`` (the peer's discovery frames). Ours;
    /// Apple's report does not say.
    public var statisticsSource: WAStatisticsSource = .discoveryFrames

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

    /// Maps a signal in dBm to Apple's 0…1 scale: linear from −90 dBm (0) to −30 dBm (1).
    public static func signalQuality(dBm: Int) -> Double {
        min(1, max(0, Double(dBm + 90) / 60))
    }
}

/// Where the figures of a ``WAPerformanceReport`` came from.
public enum WAStatisticsSource: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The data path: the kernel's statistics of the peer's NDI station on our data interface
    /// (`GET_STATION`), the data path's schedule, and what the active probes measured. ``WAPerformanceReport/link``
    /// is set; the signal is the station's.
    case dataPath
    /// The peer's discovery frames (publish, subscribe, follow-up SDFs): the signal and frequency of the last
    /// one and the discovery windows it was heard in. A peer we only discovered has no station in the kernel
    /// to read (its NMI station is added only when a data path to it is set up; on mac80211_hwsim, with
    /// discovery in user space, there is none before), so this is all there is; ``WAPerformanceReport/link``
    /// is nil.
    case discoveryFrames

    /// `dataPath` or `discoveryFrames`.
    public var description: String { rawValue }
}

/// Transmit latency of one access category, as Apple's `TransmitLatencyMetrics`, with our percentiles.
public struct WATransmitLatencyMetrics: Hashable, Sendable {
    /// The access category the probes were sent in.
    public var accessCategory: WAAccessCategory
    /// Mean one-way latency (Apple's `average`); nil when no probe came back.
    public var average: Duration?
    /// Median.
    public var median: Duration?
    /// 95th percentile.
    public var percentile95: Duration?
    /// Probes sent.
    public var probesSent: Int
    /// Probes answered in time.
    public var probesAnswered: Int

    /// Creates metrics.
    public init(
        accessCategory: WAAccessCategory, average: Duration?, median: Duration?, percentile95: Duration?,
        probesSent: Int, probesAnswered: Int
    ) {
        self.accessCategory = accessCategory
        self.average = average
        self.median = median
        self.percentile95 = percentile95
        self.probesSent = probesSent
        self.probesAnswered = probesAnswered
    }
}

/// A PHY rate as the kernel reported it.
public struct WABitRate: Hashable, Sendable {
    /// Mbit/s, as the kernel computed it (or from the MCS when it did not).
    public var megabitsPerSecond: Double?
    /// `legacy`, `ht`, `vht`, `he`, `eht`.
    public var modulation: String
    /// The MCS index, if any.
    public var mcs: Int?
    /// Spatial streams.
    public var spatialStreams: Int
    /// Channel width, MHz.
    public var widthMHz: Int
    /// Short guard interval.
    public var shortGuardInterval: Bool
}

/// Counters of one traffic identifier (802.11 user priority; 16 is non-QoS traffic).
public struct WATIDCounters: Hashable, Sendable {
    /// 0…15, or 16 for non-QoS frames.
    public var tid: Int
    /// MSDUs received.
    public var received: UInt64?
    /// MSDUs sent.
    public var transmitted: UInt64?
    /// Retries.
    public var retries: UInt64?
    /// Failures.
    public var failures: UInt64?
}

/// The kernel's statistics of the peer station (`GET_STATION` on the data interface) and the schedule the
/// link runs on: the passive half of a data-path report.
public struct WALinkMetrics: Hashable, Sendable {
    /// The local data interface, e.g. `nan0data`.
    public var interface: String
    /// Signal of the last frame, dBm.
    public var signal: Int?
    /// Average signal, dBm.
    public var averageSignal: Int?
    /// The rate we send at.
    public var transmitRate: WABitRate?
    /// The rate of the last frame received.
    public var receiveRate: WABitRate?
    /// The driver's expected throughput (rate control), Mbit/s.
    public var expectedThroughput: Double?
    /// Bytes sent to / received from the peer.
    public var transmittedBytes: UInt64?
    /// Bytes received from the peer.
    public var receivedBytes: UInt64?
    /// Packets sent.
    public var transmittedPackets: UInt32?
    /// Packets received.
    public var receivedPackets: UInt32?
    /// Transmit retries.
    public var transmitRetries: UInt32?
    /// Transmit failures.
    public var transmitFailures: UInt32?
    /// Milliseconds since the last frame either way.
    public var inactiveMilliseconds: UInt32?
    /// Seconds since the station was added.
    public var connectedSeconds: UInt32?
    /// Per-TID counters that are not all zero, when the driver keeps them.
    public var tids: [WATIDCounters]
    /// Our committed slots (of 32 per 512-TU period).
    public var committedSlots: Int?
    /// Slots where both sides are committed on the same channel.
    public var commonSlots: Int?
    /// ``commonSlots`` / 32.
    public var airtimeShare: Double?
    /// Our committed slots per channel: frequency (MHz) and slot count, in schedule order.
    public var channels: [WAScheduledChannel]
}

/// A channel of the data-path schedule.
public struct WAScheduledChannel: Hashable, Sendable {
    /// Centre frequency, MHz.
    public var frequency: Int
    /// Channel number.
    public var number: Int
    /// Our committed slots on it.
    public var slots: Int
    /// Of those, slots the peer is on the same channel.
    public var commonSlots: Int
}

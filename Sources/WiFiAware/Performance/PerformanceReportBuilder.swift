import FoundationEssentials
import NANEngine
import NANSystem

/// Nominal PHY rates: data subcarriers × bits per subcarrier × coding rate / symbol time, per stream.
enum PHYRate {
    /// Data subcarriers of an HT/VHT channel of this width (20, 40, 80, 160 MHz).
    static func dataSubcarriers(widthMHz: Int) -> Int? {
        switch widthMHz {
        case 20: 52
        case 40: 108
        case 80: 234
        case 160: 468
        default: nil
        }
    }

    /// Coded bits per subcarrier per symbol for HT/VHT MCS 0…9 (modulation bits × coding rate).
    static let bitsPerSubcarrier: [Double] = [0.5, 1, 1.5, 2, 3, 4, 4.5, 5, 6, 20.0 / 3]

    /// The nominal rate in Mbit/s of an HT or VHT MCS (HT's index folds the streams in: MCS 8 × n + m);
    /// nil for what the table does not cover (HE/EHT, legacy, odd widths).
    static func megabitsPerSecond(_ rate: BitRate) -> Double? {
        guard let mcs = rate.mcs, rate.modulation == .ht || rate.modulation == .vht,
            let subcarriers = dataSubcarriers(widthMHz: rate.widthMHz)
        else { return nil }
        let index = rate.modulation == .ht ? Int(mcs) % 8 : Int(mcs)
        guard bitsPerSubcarrier.indices.contains(index) else { return nil }
        let symbolMicroseconds = rate.shortGuardInterval ? 3.6 : 4.0
        return Double(subcarriers) * bitsPerSubcarrier[index] * Double(rate.streams) / symbolMicroseconds
    }
}

extension WABitRate {
    init(_ rate: BitRate) {
        self.init(
            megabitsPerSecond: rate.megabitsPerSecond ?? PHYRate.megabitsPerSecond(rate),
            modulation: rate.modulation.rawValue, mcs: rate.mcs.map(Int.init), spatialStreams: rate.streams,
            widthMHz: rate.widthMHz, shortGuardInterval: rate.shortGuardInterval)
    }
}

extension WALinkMetrics {
    init(interface: String, station: StationInfo, schedule: DataPathLinkSchedule?) {
        self.init(
            interface: interface,
            signal: station.signalDBM.map(Int.init), averageSignal: station.averageSignalDBM.map(Int.init),
            transmitRate: station.transmitRate.map(WABitRate.init),
            receiveRate: station.receiveRate.map(WABitRate.init),
            expectedThroughput: station.expectedThroughputKbps.map { Double($0) / 1000 },
            transmittedBytes: station.transmittedBytes, receivedBytes: station.receivedBytes,
            transmittedPackets: station.transmittedPackets, receivedPackets: station.receivedPackets,
            transmitRetries: station.transmitRetries, transmitFailures: station.transmitFailures,
            inactiveMilliseconds: station.inactiveMilliseconds, connectedSeconds: station.connectedSeconds,
            tids: station.tidStatistics.filter(\.isActive).map {
                WATIDCounters(
                    tid: $0.tid, received: $0.receivedMSDUs, transmitted: $0.transmittedMSDUs,
                    retries: $0.transmitRetries, failures: $0.transmitFailures)
            },
            committedSlots: schedule?.localCommittedSlots, commonSlots: schedule?.commonSlots,
            airtimeShare: schedule?.airtimeShare,
            channels: schedule?.channels.map {
                WAScheduledChannel(
                    frequency: $0.frequency, number: $0.number, slots: $0.localSlots, commonSlots: $0.commonSlots)
            } ?? [])
    }
}

extension WAPerformanceReport {
    /// A data-path report from its parts: the peer station's statistics, the link schedule, and what the
    /// probes measured (each may be missing). Pure, so it is tested on handmade values.
    static func dataPath(
        interface: String, station: StationInfo, schedule: DataPathLinkSchedule?,
        transmitCapacity: ProbeClient.Capacity?, receiveCapacity: ProbeClient.Capacity?,
        latency: [WAAccessCategory: ProbeClient.Latency], mode: WAPerformanceMode?,
        now: ContinuousClock.Instant = .now, wallClock: Date = Date()
    ) -> WAPerformanceReport {
        let link = WALinkMetrics(interface: interface, station: station, schedule: schedule)
        let signal = link.averageSignal ?? link.signal
        let inactive = Duration.milliseconds(Int64(station.inactiveMilliseconds ?? 0))
        var report = WAPerformanceReport(
            signalStrength: link.signal ?? link.averageSignal, frequency: nil,
            discoveryWindowsHeard: 0, lastHeard: now - inactive)
        report.timestamp = wallClock
        report.localTimestamp = now
        report.signalQuality = signal.map { Self.signalQuality(dBm: $0) }
        report.link = link
        report.statisticsSource = .dataPath
        report.performanceMode = mode
        if let channel = schedule?.channels.max(by: { $0.commonSlots < $1.commonSlots }), channel.commonSlots > 0 {
            report.frequency = channel.frequency
        }
        let rate = link.transmitRate?.megabitsPerSecond ?? link.receiveRate?.megabitsPerSecond
        if let rate, let share = schedule?.airtimeShare {
            report.throughputCeiling = rate * share
        }
        report.throughputCapacity = transmitCapacity?.megabitsPerSecond
        report.receiveCapacity = receiveCapacity?.megabitsPerSecond
        if let capacity = report.throughputCapacity, let ceiling = report.throughputCeiling, ceiling > 0 {
            report.throughputCapacityRatio = capacity / ceiling
        }
        for (category, measured) in latency {
            report.transmitLatency[category] = WATransmitLatencyMetrics(
                accessCategory: category, average: measured.average, median: measured.median,
                percentile95: measured.percentile95, probesSent: measured.sent, probesAnswered: measured.samples.count)
        }
        return report
    }
}

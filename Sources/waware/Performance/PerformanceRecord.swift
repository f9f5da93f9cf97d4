import NANWire
@_spi(Tools) import WiFiAware

/// One `waware perf` report as printed: a JSON object (`--json`) or a block of text. Latencies are in
/// milliseconds, rates and capacities in Mbit/s.
struct PerformanceRecord: Codable, Equatable, Sendable {
    struct Rate: Codable, Equatable, Sendable {
        var mbps: Double?
        var modulation: String
        var mcs: Int?
        var nss: Int
        var widthMHz: Int
        var shortGI: Bool
    }

    struct Latency: Codable, Equatable, Sendable {
        var averageMs: Double?
        var p50Ms: Double?
        var p95Ms: Double?
        var sent: Int
        var answered: Int
    }

    struct Channel: Codable, Equatable, Sendable {
        var frequency: Int
        var channel: Int
        var slots: Int
        var commonSlots: Int
    }

    struct TID: Codable, Equatable, Sendable {
        var tid: Int
        var rxMsdu: UInt64?
        var txMsdu: UInt64?
        var retries: UInt64?
        var failures: UInt64?
    }

    var event = "report"
    var report: Int
    var service: String
    var peer: String
    var interface: String
    /// `bulk`, `realtime`, or `default` (no mode asked: the default schedule).
    var mode: String?
    /// Where the figures came from: `dataPath` or `discoveryFrames` (WAStatisticsSource).
    var statisticsSource: String
    var elapsed: Double
    var time: Double
    var signal: Int?
    var averageSignal: Int?
    var signalQuality: Double?
    var txRate: Rate?
    var rxRate: Rate?
    var expectedThroughput: Double?
    var throughputCeiling: Double?
    var throughputCapacity: Double?
    var throughputCapacityRatio: Double?
    var receiveCapacity: Double?
    var transmitLatency: [String: Latency]
    var committedSlots: Int?
    var commonSlots: Int?
    var airtimeShare: Double?
    var channels: [Channel]
    var txBytes: UInt64?
    var rxBytes: UInt64?
    var txPackets: UInt32?
    var rxPackets: UInt32?
    var txRetries: UInt32?
    var txFailures: UInt32?
    var tids: [TID]

    static func milliseconds(_ d: Duration?) -> Double? {
        d.map { $0.inSeconds * 1000 }
    }

    init(_ r: WAPerformanceReport, index: Int, service: String, peer: String, since start: ContinuousClock.Instant) {
        let link = r.link
        report = index
        self.service = service
        self.peer = peer
        interface = link?.interface ?? ""
        mode = r.performanceMode?.rawValue ?? "default"
        statisticsSource = r.statisticsSource.rawValue
        elapsed = ClusterSession.seconds((r.localTimestamp ?? .now) - start)
        time = DiscoveryRun.wallClock()
        signal = link?.signal ?? r.signalStrength
        averageSignal = link?.averageSignal
        signalQuality = r.signalQuality
        func rate(_ b: WABitRate?) -> Rate? {
            b.map {
                Rate(
                    mbps: $0.megabitsPerSecond, modulation: $0.modulation, mcs: $0.mcs, nss: $0.spatialStreams,
                    widthMHz: $0.widthMHz, shortGI: $0.shortGuardInterval)
            }
        }
        txRate = rate(link?.transmitRate)
        rxRate = rate(link?.receiveRate)
        expectedThroughput = link?.expectedThroughput
        throughputCeiling = r.throughputCeiling
        throughputCapacity = r.throughputCapacity
        throughputCapacityRatio = r.throughputCapacityRatio
        receiveCapacity = r.receiveCapacity
        var latency: [String: Latency] = [:]
        for (category, m) in r.transmitLatency {
            latency[category.shortName] = Latency(
                averageMs: Self.milliseconds(m.average), p50Ms: Self.milliseconds(m.median),
                p95Ms: Self.milliseconds(m.percentile95), sent: m.probesSent, answered: m.probesAnswered)
        }
        transmitLatency = latency
        committedSlots = link?.committedSlots
        commonSlots = link?.commonSlots
        airtimeShare = link?.airtimeShare
        channels =
            link?.channels.map {
                Channel(frequency: $0.frequency, channel: $0.number, slots: $0.slots, commonSlots: $0.commonSlots)
            } ?? []
        txBytes = link?.transmittedBytes
        rxBytes = link?.receivedBytes
        txPackets = link?.transmittedPackets
        rxPackets = link?.receivedPackets
        txRetries = link?.transmitRetries
        txFailures = link?.transmitFailures
        tids =
            link?.tids.map {
                TID(
                    tid: $0.tid, rxMsdu: $0.received, txMsdu: $0.transmitted, retries: $0.retries, failures: $0.failures
                )
            } ?? []
    }

    /// The access categories in the order they are printed.
    static let categoryOrder = ["BE", "BK", "VI", "VO"]

    static func number(_ value: Double?, _ digits: Int = 1) -> String {
        guard let value, value.isFinite else { return "?" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    static func rateText(_ r: Rate?) -> String {
        guard let r else { return "?" }
        var parts: [String] = []
        if let mcs = r.mcs {
            parts.append("\(r.modulation.uppercased()) MCS \(mcs)")
        } else {
            parts.append(r.modulation)
        }
        parts.append("\(r.nss)x\(r.widthMHz) MHz\(r.shortGI ? " SGI" : "")")
        parts.append("\(number(r.mbps)) Mbit/s")
        return parts.joined(separator: " ")
    }

    /// The readable report: one heading line, then one indented line per kind of figure.
    var lines: [String] {
        var out = [
            "report \(report) \(service) peer \(peer) over \(interface)\(mode.map { " (\($0))" } ?? "") after \(Self.number(elapsed, 3)) s"
        ]
        var signalLine = "  signal      \(signal.map { "\($0) dBm" } ?? "?")"
        if let averageSignal { signalLine += ", average \(averageSignal) dBm" }
        if let signalQuality { signalLine += ", quality \(Self.number(signalQuality, 2))" }
        out.append(signalLine)
        out.append(
            "  rates       tx \(Self.rateText(txRate)); rx \(Self.rateText(rxRate))"
                + (expectedThroughput.map { "; expected \(Self.number($0)) Mbit/s" } ?? ""))
        if let committedSlots {
            let perChannel = channels.map { "ch \($0.channel) \($0.slots) slot\($0.slots == 1 ? "" : "s")" }.joined(
                separator: ", ")
            out.append(
                "  schedule    \(committedSlots) of 32 slots committed, \(commonSlots ?? 0) in common with the peer "
                    + "(\(Self.number((airtimeShare ?? 0) * 100, 0)) % airtime): \(perChannel)")
        }
        out.append(
            "  ceiling     \(throughputCeiling.map { "\(Self.number($0)) Mbit/s" } ?? "unknown (no rate or schedule)")")
        if throughputCapacity != nil || receiveCapacity != nil {
            out.append(
                "  capacity    \(Self.number(throughputCapacity)) Mbit/s to the peer"
                    + (throughputCapacityRatio.map { " (\(Self.number($0 * 100, 0)) % of the ceiling)" } ?? "")
                    + (receiveCapacity.map { ", \(Self.number($0)) Mbit/s from the peer" } ?? ""))
        }
        for name in Self.categoryOrder {
            guard let l = transmitLatency[name] else { continue }
            out.append(
                "  latency \(name)  avg \(Self.number(l.averageMs, 2)) ms, p50 \(Self.number(l.p50Ms, 2)) ms, "
                    + "p95 \(Self.number(l.p95Ms, 2)) ms (\(l.answered) of \(l.sent) answered)")
        }
        out.append(
            "  counters    tx \(txPackets.map(String.init) ?? "?") packets \(txBytes.map(String.init) ?? "?") bytes, "
                + "rx \(rxPackets.map(String.init) ?? "?") packets \(rxBytes.map(String.init) ?? "?") bytes, "
                + "retries \(txRetries.map(String.init) ?? "?"), failures \(txFailures.map(String.init) ?? "?")")
        for t in tids {
            out.append(
                "  tid \(t.tid)\(t.tid < 10 ? " " : "")     tx \(t.txMsdu ?? 0) rx \(t.rxMsdu ?? 0) retries \(t.retries ?? 0) failures \(t.failures ?? 0)"
            )
        }
        return out
    }
}

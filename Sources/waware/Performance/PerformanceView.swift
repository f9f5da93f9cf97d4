import Synchronization
@_spi(Tools) import WiFiAware

/// The live view of `waware perf --watch`: the screen is redrawn after every report (bars against the
/// ceiling, sparklines of the history), and a progress line with a spinner runs while probes are under way.
final class PerformanceView: Sendable {
    private let spinner = Mutex(0)
    private static let frames = Array("|/-\\")
    private static let escape = "\u{1B}["

    /// A bar of `width` cells filled to `fraction` (0…1).
    static func bar(_ fraction: Double, width: Int = 20) -> String {
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        let filled = Int((clamped * Double(width)).rounded())
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    /// A sparkline of `values` (nil: a gap), scaled to their maximum.
    static func sparkline(_ values: [Double?]) -> String {
        let levels = Array("▁▂▃▄▅▆▇█")
        let top = values.compactMap { $0 }.max() ?? 0
        return String(
            values.map { value in
                guard let value, top > 0 else { return " " }
                return levels[min(levels.count - 1, max(0, Int(value / top * Double(levels.count - 1))))]
            })
    }

    /// Shows the progress of the report under way on the last line.
    func progress(_ p: WAPerformanceProgress) {
        let frame = spinner.withLock { (index: inout Int) -> Character in
            index += 1
            return Self.frames[index % Self.frames.count]
        }
        let text =
            p.step == "done"
            ? "" : "\(frame) probing \(p.step) \(Self.bar(p.fraction, width: 16)) \(Int(p.fraction * 100)) %"
        Output.emit("\r\(Self.escape)K\(text)", to: .standardOutput)
    }

    /// The screen for the newest report and its history.
    static func screen(_ r: PerformanceRecord, history: [PerformanceRecord]) -> [String] {
        func n(_ value: Double?, _ digits: Int = 1) -> String { PerformanceRecord.number(value, digits) }
        var lines = [
            "waware perf \(r.service) peer \(r.peer) over \(r.interface)\(r.mode.map { " (\($0))" } ?? "") "
                + "report \(r.report) after \(n(r.elapsed, 1)) s   Ctrl-C to stop", "",
        ]
        lines.append(
            "signal     \(r.signal.map { "\($0) dBm" } ?? "?")  \(bar(r.signalQuality ?? 0)) quality \(n(r.signalQuality, 2))"
        )
        lines.append("tx rate    \(PerformanceRecord.rateText(r.txRate))")
        lines.append("rx rate    \(PerformanceRecord.rateText(r.rxRate))")
        if let committed = r.committedSlots {
            lines.append(
                "schedule   \(committed)/32 slots, \(r.commonSlots ?? 0) in common  \(bar(r.airtimeShare ?? 0)) \(n((r.airtimeShare ?? 0) * 100, 0)) % airtime"
            )
        }
        lines.append("ceiling    \(n(r.throughputCeiling)) Mbit/s")
        let ceiling = r.throughputCeiling ?? 0
        lines.append(
            "capacity   \(n(r.throughputCapacity)) Mbit/s \(bar(ceiling > 0 ? (r.throughputCapacity ?? 0) / ceiling : 0)) "
                + "\(r.throughputCapacityRatio.map { "\(n($0 * 100, 0)) % of ceiling" } ?? "")  \(sparkline(history.map(\.throughputCapacity)))"
        )
        lines.append(
            "receive    \(n(r.receiveCapacity)) Mbit/s \(bar(ceiling > 0 ? (r.receiveCapacity ?? 0) / ceiling : 0))  "
                + sparkline(history.map(\.receiveCapacity)))
        for name in PerformanceRecord.categoryOrder {
            guard let l = r.transmitLatency[name] else { continue }
            lines.append(
                "latency \(name) avg \(n(l.averageMs, 2)) ms p50 \(n(l.p50Ms, 2)) p95 \(n(l.p95Ms, 2)) ms "
                    + "(\(l.answered)/\(l.sent))  \(sparkline(history.map { $0.transmitLatency[name]?.averageMs }))")
        }
        lines.append(
            "counters   tx \(r.txPackets.map(String.init) ?? "?") pkts, rx \(r.rxPackets.map(String.init) ?? "?") pkts, "
                + "retries \(r.txRetries.map(String.init) ?? "?"), failures \(r.txFailures.map(String.init) ?? "?")")
        return lines
    }

    /// Redraws the screen.
    func show(_ r: PerformanceRecord, history: [PerformanceRecord]) {
        let body = Self.screen(r, history: history).map { TerminalText.escapedLines($0) }.joined(separator: "\n")
        Output.emit("\(Self.escape)H\(Self.escape)2J" + body + "\n", to: .standardOutput)
    }
}

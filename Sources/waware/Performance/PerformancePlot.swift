import FoundationEssentials

/// `waware perf --svg FILE`: throughput (capacity each way, the ceiling) and latency per access category
/// over time, as one self-contained SVG document (no script, no external reference) a browser opens.
enum PerformancePlot {
    /// The most reports plotted (older ones scroll out).
    static let maximumPoints = 600

    static let width = 800.0
    static let panelHeight = 220.0
    static let left = 70.0
    static let right = 150.0

    /// Text safe inside an XML element or attribute.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Characters XML 1.0 does not allow become '?'.
                if c.value < 0x20 && c != "\t" && c != "\n" && c != "\r" || (0xFFFE...0xFFFF).contains(c.value) {
                    out += "?"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }

    /// A number for an SVG attribute: finite, two decimals.
    static func coordinate(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return String((value * 100).rounded() / 100)
    }

    /// A round upper bound for an axis holding `value`.
    static func axisTop(_ value: Double) -> Double {
        guard value.isFinite, value > 0 else { return 1 }
        var step = 1.0
        while step * 10 < value { step *= 10 }
        while step > value { step /= 10 }
        for multiple in [1.0, 2, 2.5, 5, 10] where step * multiple >= value { return step * multiple }
        return step * 10
    }

    struct Series {
        var name: String
        var color: String
        var dashed: Bool
        var points: [(x: Double, y: Double)]
    }

    /// One panel: axes, grid, series and their legend, `top` pixels from the top.
    static func panel(title: String, unit: String, top: Double, span: Double, series: [Series]) -> String {
        let plotWidth = width - left - right
        let height = panelHeight - 50
        let maxY = axisTop(series.flatMap { $0.points.map { $0.y } }.max() ?? 0)
        func x(_ t: Double) -> Double { left + (span > 0 ? t / span : 0) * plotWidth }
        func y(_ v: Double) -> Double { top + 30 + height - (v / maxY) * height }
        var svg =
            "<g>\n<text x=\"\(coordinate(left))\" y=\"\(coordinate(top + 18))\" font-size=\"14\" font-weight=\"bold\">\(escaped(title))</text>\n"
        for step in 0...4 {
            let value = maxY * Double(step) / 4
            let yy = coordinate(y(value))
            svg +=
                "<line x1=\"\(coordinate(left))\" y1=\"\(yy)\" x2=\"\(coordinate(left + plotWidth))\" y2=\"\(yy)\" stroke=\"#ddd\"/>\n"
            svg +=
                "<text x=\"\(coordinate(left - 6))\" y=\"\(yy)\" font-size=\"11\" text-anchor=\"end\" dominant-baseline=\"middle\">\(escaped(PerformanceRecord.number(value, 2)))</text>\n"
        }
        svg +=
            "<text x=\"14\" y=\"\(coordinate(top + 30 + height / 2))\" font-size=\"11\" transform=\"rotate(-90 14 \(coordinate(top + 30 + height / 2)))\" text-anchor=\"middle\">\(escaped(unit))</text>\n"
        svg +=
            "<line x1=\"\(coordinate(left))\" y1=\"\(coordinate(y(0)))\" x2=\"\(coordinate(left + plotWidth))\" y2=\"\(coordinate(y(0)))\" stroke=\"#333\"/>\n"
        svg +=
            "<text x=\"\(coordinate(left + plotWidth))\" y=\"\(coordinate(y(0) + 16))\" font-size=\"11\" text-anchor=\"end\">\(escaped(PerformanceRecord.number(span, 1))) s</text>\n"
        svg += "<text x=\"\(coordinate(left))\" y=\"\(coordinate(y(0) + 16))\" font-size=\"11\">0 s</text>\n"
        for (index, s) in series.enumerated() {
            let path = s.points.map { "\(coordinate(x($0.x))),\(coordinate(y($0.y)))" }.joined(separator: " ")
            if s.points.count > 1 {
                svg +=
                    "<polyline fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2\"\(s.dashed ? " stroke-dasharray=\"6 4\"" : "") points=\"\(path)\"/>\n"
            }
            for p in s.points {
                svg +=
                    "<circle cx=\"\(coordinate(x(p.x)))\" cy=\"\(coordinate(y(p.y)))\" r=\"3\" fill=\"\(s.color)\"/>\n"
            }
            let ly = top + 40 + Double(index) * 18
            svg +=
                "<line x1=\"\(coordinate(width - right + 12))\" y1=\"\(coordinate(ly))\" x2=\"\(coordinate(width - right + 32))\" y2=\"\(coordinate(ly))\" stroke=\"\(s.color)\" stroke-width=\"2\"\(s.dashed ? " stroke-dasharray=\"6 4\"" : "")/>\n"
            svg +=
                "<text x=\"\(coordinate(width - right + 38))\" y=\"\(coordinate(ly))\" font-size=\"11\" dominant-baseline=\"middle\">\(escaped(s.name))</text>\n"
        }
        return svg + "</g>\n"
    }

    /// The whole document for `history`.
    static func document(_ history: [PerformanceRecord], service: String, peer: String) -> String {
        let origin = history.first?.elapsed ?? 0
        let span = max(1, (history.last?.elapsed ?? 0) - origin)
        func series(
            _ name: String, _ color: String, dashed: Bool = false, _ value: (PerformanceRecord) -> Double?
        ) -> Series {
            Series(
                name: name, color: color, dashed: dashed,
                points: history.compactMap { r in
                    value(r).flatMap { $0.isFinite ? (x: r.elapsed - origin, y: $0) : nil }
                })
        }
        let throughput = [
            series("capacity to peer", "#1f77b4") { $0.throughputCapacity },
            series("capacity from peer", "#2ca02c") { $0.receiveCapacity },
            series("ceiling", "#7f7f7f", dashed: true) { $0.throughputCeiling },
        ]
        let colors = ["BE": "#1f77b4", "BK": "#8c564b", "VI": "#ff7f0e", "VO": "#d62728"]
        let latency = PerformanceRecord.categoryOrder.map { name in
            series("\(name) average", colors[name] ?? "#000") { $0.transmitLatency[name]?.averageMs }
        }
        let height = panelHeight * 2 + 40
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(coordinate(width))\" height=\"\(coordinate(height))\" viewBox=\"0 0 \(coordinate(width)) \(coordinate(height))\" font-family=\"sans-serif\">\n"
        svg += "<title>\(escaped("waware perf \(service) peer \(peer)"))</title>\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg +=
            "<text x=\"\(coordinate(left))\" y=\"22\" font-size=\"13\">\(escaped("waware perf \(service), peer \(peer), \(history.count) reports"))</text>\n"
        svg += panel(title: "Throughput", unit: "Mbit/s", top: 30, span: span, series: throughput)
        svg += panel(
            title: "Transmit latency (one way)", unit: "ms", top: 30 + panelHeight, span: span, series: latency)
        return svg + "</svg>\n"
    }

    /// Writes the plot to `path` (replacing it).
    static func write(_ history: [PerformanceRecord], service: String, peer: String, to path: String) throws {
        let text = document(history, service: service, peer: peer)
        do {
            try Data(text.utf8).write(to: URL(filePath: path), options: .atomic)
        } catch {
            throw CommandFailure("cannot write the plot to \(path): \(error)")
        }
    }
}

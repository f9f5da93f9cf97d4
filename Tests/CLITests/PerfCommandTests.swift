import Foundation
import Testing
import NANWire
import WiFiAware

@testable import waware

// `waware perf`: its options, its report as text and JSON, and the SVG plot (well-formed, self-contained).

private func perf(_ words: [String]) throws -> PerfCommand {
    guard case .run(let parsed, _) = try CommandLineParser.parse(["perf"] + words, root: Waware.self),
        let typed = parsed as? PerfCommand
    else {
        throw ValidationError("'perf \(words.joined(separator: " "))' did not parse")
    }
    return typed
}

private func refusal(_ words: [String]) -> String? {
    do { _ = try perf(words); return nil } catch let error as ValidationError { return error.message } catch {
        return "\(error)"
    }
}

private func sampleRecord(index: Int, elapsed: Double, capacity: Double?) -> PerformanceRecord {
    var report = WAPerformanceReport(signalStrength: -50, frequency: 5745, discoveryWindowsHeard: 0, lastHeard: .now)
    report.throughputCeiling = 60.9
    report.throughputCapacity = capacity
    report.receiveCapacity = capacity.map { $0 * 0.9 }
    report.throughputCapacityRatio = capacity.map { $0 / 60.9 }
    report.signalQuality = 0.67
    report.performanceMode = .bulk
    report.transmitLatency[.bestEffort] = WATransmitLatencyMetrics(
        accessCategory: .bestEffort, average: .microseconds(1500), median: .microseconds(1200),
        percentile95: .milliseconds(3),
        probesSent: 20, probesAnswered: 20)
    var record = PerformanceRecord(report, index: index, service: "_perf._tcp", peer: "42:00:00:00:00:00", since: .now)
    record.elapsed = elapsed
    return record
}

@Test func perfDefaultsToOneReportWithEveryProbe() throws {
    let command = try perf(["_perf._tcp", "--open"])
    #expect(command.security == .open)
    #expect(command.count == nil && !command.watch && !command.serve)
    #expect(command.probes?.accessCategories == WAAccessCategory.allCases)
    #expect(command.probes?.capacityDuration == .seconds(2))
    #expect(command.mode == nil)
    #expect(try perf(["_perf._tcp", "--open", "--mode", "bulk"]).mode == .bulk)
    let tuned = try perf([
        "_perf._tcp", "--passphrase", "a secret", "--duration", "0.5", "--max-bytes", "8",
        "--access-category", "vo,be,vo", "--latency-probes", "5", "--port", "6000", "--mode", "realtime",
    ])
    #expect(tuned.probes?.capacityDuration == .milliseconds(500))
    #expect(tuned.probes?.capacityBytes == 8 << 20)
    #expect(tuned.probes?.accessCategories == [.interactiveVoice, .bestEffort])
    #expect(tuned.probes?.latencyProbes == 5)
    #expect(tuned.port == 6000)
    #expect(tuned.mode == .realtime)
    #expect(try perf(["_perf._tcp", "--open", "--passive"]).probes == nil)
}

@Test func perfRefusesContradictionsInOneLine() {
    #expect(
        refusal(["_perf._tcp"])
            == "perf needs a passphrase or PMK (--passphrase-file, --pmk-file, WAWARE_PASSPHRASE or WAWARE_PMK) or, for an unencrypted data path, --open (as on the peer)"
    )
    #expect(refusal(["_perf._tcp", "--open", "--watch", "--json"]) == "give --watch or --json, not both")
    #expect(
        refusal(["_perf._tcp", "--open", "--access-category", "xx"])
            == "--access-category takes be, bk, vi and vo (comma-separated), not 'xx'")
    #expect(
        refusal(["_perf._tcp", "--open", "--serve", "--watch"]) == "--watch goes with the measuring side, not --serve")
    #expect(refusal(["_perf._tcp", "--open", "--duration", "11"]) != nil)
    #expect(refusal(["_perf._tcp", "--open", "--mode", "fast"]) != nil)
    #expect(refusal(["bad name", "--open"]) != nil)
}

@Test func perfReportPrintsEveryFigureAndItsJSONHasApplesFields() throws {
    let record = sampleRecord(index: 1, elapsed: 3.25, capacity: 14.2)
    let text = record.lines.joined(separator: "\n")
    #expect(text.contains("report 1 _perf._tcp peer 42:00:00:00:00:00"))
    #expect(text.contains("ceiling     60.9 Mbit/s"))
    #expect(text.contains("capacity    14.2 Mbit/s to the peer (23 % of the ceiling), 12.8 Mbit/s from the peer"))
    #expect(text.contains("latency BE  avg 1.5 ms, p50 1.2 ms, p95 3.0 ms (20 of 20 answered)"))
    let json = try Output.json(record)
    for key in [
        "\"throughputCeiling\":60.9", "\"throughputCapacity\":14.2", "\"throughputCapacityRatio\"",
        "\"receiveCapacity\"",
        "\"transmitLatency\":{\"BE\":{", "\"averageMs\":1.5", "\"p95Ms\":3", "\"signalQuality\":0.67",
        "\"event\":\"report\"",
        "\"mode\":\"bulk\"",
    ] {
        #expect(json.contains(key), "\(key) in \(json)")
    }
}

@Test func aReportSaysWithoutAModeDefaultAndWhereItsFiguresCameFrom() throws {
    var report = WAPerformanceReport(signalStrength: -50, frequency: 5745, discoveryWindowsHeard: 0, lastHeard: .now)
    report.performanceMode = nil
    let record = PerformanceRecord(report, index: 1, service: "_perf._tcp", peer: "42:00:00:00:00:00", since: .now)
    #expect(try Output.json(record).contains("\"mode\":\"default\""))
    #expect(try Output.json(record).contains("\"statisticsSource\":\"discoveryFrames\""))
    report.statisticsSource = .dataPath
    let fromDataPath = PerformanceRecord(
        report, index: 2, service: "_perf._tcp", peer: "42:00:00:00:00:00", since: .now)
    #expect(try Output.json(fromDataPath).contains("\"statisticsSource\":\"dataPath\""))
    #expect(record.lines[0].contains("(default)"))
}

@Test func svgPlotIsWellFormedAndEscapesText() throws {
    let history = (1...5).map {
        sampleRecord(index: $0, elapsed: Double($0) * 2, capacity: $0 == 3 ? nil : Double($0) * 3)
    }
    let svg = PerformancePlot.document(history, service: "_perf._tcp", peer: "<&\"'>")
    #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
    #expect(svg.hasSuffix("</svg>\n"))
    #expect(svg.contains("&lt;&amp;&quot;&apos;&gt;"))
    for bad in ["\"nan", "\"inf", ",nan", ",inf", "\"-nan"] { #expect(!svg.contains(bad), "\(bad)") }
    // Every element opened is closed, in order.
    var stack: [String] = []
    var rest = Substring(svg)
    while let open = rest.firstIndex(of: "<") {
        guard let close = rest[open...].firstIndex(of: ">") else { Issue.record("unterminated tag"); return }
        let tag = rest[rest.index(after: open)..<close]
        rest = rest[rest.index(after: close)...]
        if tag.hasPrefix("?") { continue }
        let name = String(tag.drop { $0 == "/" }.prefix { !$0.isWhitespace && $0 != "/" })
        if tag.hasPrefix("/") {
            #expect(stack.popLast() == name)
        } else if !tag.hasSuffix("/") {
            stack.append(name)
        }
    }
    #expect(stack.isEmpty)
    // One report is enough for a plot.
    #expect(PerformancePlot.document([history[0]], service: "s", peer: "p").contains("<circle"))
}

@Test func watchViewDrawsBarsAndSparklines() {
    #expect(PerformanceView.bar(0.5, width: 10) == "[#####.....]")
    #expect(PerformanceView.bar(.nan, width: 4) == "[....]")
    #expect(PerformanceView.sparkline([1, nil, 4, 8]) == "▁ ▄█")
    let history = (1...3).map { sampleRecord(index: $0, elapsed: Double($0), capacity: Double($0)) }
    let screen = PerformanceView.screen(history[2], history: history).joined(separator: "\n")
    #expect(screen.contains("capacity   3.0 Mbit/s ["))
    #expect(screen.contains("latency BE avg 1.5 ms"))
}

@Test func perfChoosesThePeerByAddressOrPairedDevice() throws {
    #expect(try perf(["_perf._tcp", "--open"]).devices == .anyDevice)
    #expect(try perf(["_perf._tcp", "--open"]).peer == nil)
    let byAddress = try perf(["_perf._tcp", "--open", "--peer", "42:00:00:00:01:0a"])
    #expect(byAddress.peer == MACAddress(0x42, 0, 0, 0, 1, 0x0a))
    #expect(
        try perf(["_perf._tcp", "--open", "--peer", "42-00-00-00-01-0A"]).peer == MACAddress(0x42, 0, 0, 0, 1, 0x0a))
    #expect(try perf(["_perf._tcp", "--open", "--device", "kitchen,hall"]).devices == .named(["kitchen", "hall"]))
    #expect(try perf(["_perf._tcp", "--open", "--paired"]).devices == .allPaired)
    let server = try perf(["_perf._tcp", "--open", "--serve", "--device", "kitchen", "--fixed-address"])
    #expect(server.devices == .named(["kitchen"]) && server.fixedAddress)
    #expect(
        PerfClient.describe(peer: byAddress.peer, devices: .named(["kitchen"]))
            == " at 42:00:00:00:01:0a among the paired devices kitchen")
    #expect(PerfClient.describe(peer: nil, devices: .anyDevice) == "")
}

@Test func perfRefusesABadPeerChoiceInOneLine() {
    #expect(
        refusal(["_perf._tcp", "--open", "--peer", "kitchen"])?.contains("a NAN address such as 42:00:00:00:01:00")
            == true)
    #expect(refusal(["_perf._tcp", "--open", "--peer", "42:00:00:00:01"]) != nil)
    #expect(
        refusal(["_perf._tcp", "--open", "--paired", "--device", "kitchen"]) == "give --paired or --device, not both")
    #expect(
        refusal(["_perf._tcp", "--open", "--serve", "--peer", "42:00:00:00:01:00"])
            == "--peer goes with the measuring side, not --serve")
}

@_spi(Tools) import WiFiAware

/// The readable form of a ``DiagnosisReport``: one line per check (`ok`, `warning`, `fail`, the check,
/// what was found, and after `—` what to do), then the details a driver bug report needs.
enum DiagnosisText {
    /// The report's lines.
    static func lines(_ report: DiagnosisReport) -> [String] {
        var lines: [String] = []
        let kernel = report.kernel.map { "Linux \($0.release) \($0.version) \($0.machine)" } ?? "kernel unknown"
        lines.append("waware \(Waware.version) diagnose: \(kernel)")
        lines += report.checks.map(line)
        if let regulatory = report.regulatory { lines += rules(regulatory, title: "global regulatory domain") }
        for adapter in report.adapters {
            lines.append("")
            lines.append("\(adapter.phy) (wiphy \(adapter.wiphy), \(adapter.driver ?? "driver unknown"))")
            lines += adapter.checks.map(line)
            lines.append(
                "  interface types: \(adapter.interfaceTypes.isEmpty ? "none" : adapter.interfaceTypes.joined(separator: ", "))"
            )
            for (number, combination) in adapter.interfaceCombinations.enumerated() {
                lines.append("  combination #\(number + 1): \(combination.text)")
            }
            if let own = adapter.regulatory { lines += rules(own, title: "own regulatory domain") }
        }
        lines.append("")
        let s = report.summary
        lines.append(
            "summary: \(s.ok) ok, \(s.warnings) \(s.warnings == 1 ? "warning" : "warnings"), "
                + "\(s.failures) \(s.failures == 1 ? "failure" : "failures")")
        return lines
    }

    /// `fail     rfkill: soft-blocked (rfkill0) — run 'rfkill unblock wifi'`.
    static func line(_ check: DiagnosisCheck) -> String {
        let verdict = check.verdict.rawValue.padding(toLength: 8)
        let remedy = check.remedy.map { " — \($0)" } ?? ""
        return "  \(verdict) \(check.name): \(check.detail)\(remedy)"
    }

    private static func rules(_ regulatory: RegulatoryReport, title: String) -> [String] {
        ["  \(title) \(regulatory.country):"] + regulatory.rules.map { "    \($0)" }
    }
}

private extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}

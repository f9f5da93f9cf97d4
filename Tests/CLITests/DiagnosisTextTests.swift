import Testing

@_spi(Tools) @testable import WiFiAware
@testable import waware

/// The text form of `waware diagnose`: one line per check with what to do after `—`, each adapter's details,
/// the summary last.
@Suite struct DiagnosisTextTests {
    let report: DiagnosisReport = {
        let hwsim = AdapterFixtures.hwsim()
        let adapter = AdapterDiagnosis(
            phy: "phy0", wiphy: 0, driver: "mac80211_hwsim", module: nil, firmware: nil,
            interfaceTypes: hwsim.interfaceTypes, nan: hwsim.nan, interfaceCombinations: hwsim.interfaceCombinations,
            regulatory: nil, channels: [], rfkill: [], selfTest: nil,
            checks: [
                DiagnosisCheck(name: "driver", verdict: .ok, detail: "mac80211_hwsim", remedy: nil),
                DiagnosisCheck(
                    name: "rfkill", verdict: .fail, detail: "soft-blocked (rfkill0)",
                    remedy: "run 'rfkill unblock wifi'"),
            ])
        let machine = [DiagnosisCheck(name: "kernel", verdict: .ok, detail: "Linux 7.2", remedy: nil)]
        return DiagnosisReport(
            kernel: KernelFacts(release: "7.2.13+deb14-amd64", version: "#1 SMP Debian 7.2.13-1", machine: "x86_64"),
            regulatory: RegulatoryReport(
                country: "00", dfsRegion: "unset", selfManaged: false,
                rules: ["5170 - 5250 @ 80 MHz, 20 dBm, NO-IR, AUTO-BW"]),
            checks: machine, adapters: [adapter], twoRadio: nil, summary: DiagnosisSummary(machine + adapter.checks))
    }()

    @Test func aCheckIsOneLineWithWhatToDoAfterADash() {
        let lines = DiagnosisText.lines(report)
        #expect(lines.contains("  fail     rfkill: soft-blocked (rfkill0) — run 'rfkill unblock wifi'"))
        #expect(lines.contains("  ok       driver: mac80211_hwsim"))
    }

    @Test func textNamesTheAdapterShowsTheRulesAndEndsWithTheSummary() {
        let lines = DiagnosisText.lines(report)
        #expect(lines.contains("phy0 (wiphy 0, mac80211_hwsim)"))
        #expect(lines.contains("    5170 - 5250 @ 80 MHz, 20 dBm, NO-IR, AUTO-BW"))
        #expect(lines.last == "summary: 2 ok, 0 warnings, 1 failure")
    }
}

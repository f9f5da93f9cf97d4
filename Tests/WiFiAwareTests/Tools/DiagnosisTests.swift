import Foundation
import Testing

@_spi(Tools) @testable import WiFiAware

/// Facts shaped like what the probe gathers on a mac80211_hwsim NAN radio, and on a radio without NAN.
private enum DiagnosisFixtures {
    static let kernel = KernelFacts(release: "7.2.13+deb14-amd64", version: "#1 SMP Debian 7.2.13-1", machine: "x86_64")
    static let world = RegulatoryReport(
        country: "00", dfsRegion: "unset", selfManaged: false,
        rules: ["2402 - 2472 @ 40 MHz, 20 dBm", "5170 - 5250 @ 80 MHz, 20 dBm, NO-IR, AUTO-BW"])
    static let us = RegulatoryReport(
        country: "US", dfsRegion: "FCC", selfManaged: false, rules: ["2402 - 2472 @ 40 MHz, 30 dBm"])

    static func channels(_ states: [String]) -> [NANChannelReport] {
        zip(Diagnosis.nanChannels, states).map {
            NANChannelReport(channel: $0.0.channel, frequency: $0.0.frequency, state: $0.1)
        }
    }

    static func adapter(
        _ report: AdapterReport = AdapterFixtures.hwsim(), channels: [String] = ["enabled", "no-IR", "no-IR"],
        rfkill: [RFKillReport] = [RFKillReport(name: "rfkill0", soft: false, hard: false)],
        selfTest: SelfTestReport? = nil
    ) -> AdapterDiagnosis {
        AdapterDiagnosis(
            phy: report.phy, wiphy: report.wiphy, driver: report.driver,
            module: ModuleReport(name: report.driver, version: nil, sourceVersion: "ABC123"),
            firmware: FirmwareReport(interface: "wlan0", version: nil, busInfo: nil),
            interfaceTypes: report.interfaceTypes, nan: report.nan, interfaceCombinations: report.interfaceCombinations,
            regulatory: nil, channels: Self.channels(channels), rfkill: rfkill, selfTest: selfTest, checks: [])
    }
}

private func check(_ name: String, in adapter: AdapterDiagnosis) throws -> DiagnosisCheck {
    try #require(adapter.checks.first { $0.name == name }, "no check \(name)")
}

@Suite struct DiagnosisTests {
    @Test func hwsimRadioInTheWorldDomainIsOkWithWarningsFor5GHz() throws {
        let report = Diagnosis.report(
            kernel: DiagnosisFixtures.kernel, regulatory: DiagnosisFixtures.world,
            adapters: [DiagnosisFixtures.adapter()])
        let adapter = try #require(report.adapters.first)
        #expect(try check("nan", in: adapter).verdict == .ok)
        #expect(try check("data path", in: adapter).verdict == .ok)
        #expect(try check("data path", in: adapter).detail == "NAN_DATA interfaces, up to 2 with NAN")
        #expect(try check("channel 6", in: adapter).verdict == .ok)
        let ch44 = try check("channel 44", in: adapter)
        #expect(ch44.verdict == .warning)
        #expect(ch44.remedy?.contains("regulatory domain is world (00)") == true)
        #expect(ch44.remedy?.contains("iw reg set XX") == true)
        #expect(try check("channel 149", in: adapter).verdict == .warning)
        #expect(try check("secure NAN", in: adapter).verdict == .warning)
        let regulatory = try #require(report.checks.first { $0.name == "regulatory" })
        #expect(regulatory.verdict == .warning)
        #expect(regulatory.detail == "regulatory domain is world (00): 5 GHz NAN channels are not allowed")
        #expect(report.checks.first?.detail == "Linux 7.2.13+deb14-amd64 (x86_64)")
        #expect(report.summary.failures == 0)
        #expect(report.summary.warnings == 4)
    }

    @Test func aCountryDomainEnables5GHzChannels() throws {
        let report = Diagnosis.report(
            kernel: DiagnosisFixtures.kernel, regulatory: DiagnosisFixtures.us,
            adapters: [DiagnosisFixtures.adapter(channels: ["enabled", "enabled", "enabled"])])
        let adapter = try #require(report.adapters.first)
        #expect(adapter.checks.filter { $0.name.hasPrefix("channel") }.allSatisfy { $0.verdict == .ok })
        #expect(report.checks.allSatisfy { $0.verdict == .ok })
    }

    @Test func radioWithoutNANGetsAClearNoNANVerdictAndWhatToDo() throws {
        let adapter = DiagnosisFixtures.adapter(AdapterFixtures.plain(), channels: ["enabled", "enabled", "absent"])
        let report = Diagnosis.report(
            kernel: DiagnosisFixtures.kernel, regulatory: DiagnosisFixtures.us, adapters: [adapter])
        let examined = try #require(report.adapters.first)
        let nan = try check("nan", in: examined)
        #expect(nan.verdict == .fail)
        #expect(nan.detail == "no NAN: driver has no NAN interface type")
        #expect(nan.remedy?.contains("waware list") == true)
        #expect(try check("data path", in: examined).verdict == .fail)
        #expect(try check("secure NAN", in: examined).verdict == .fail)
        // A radio whose NAN does not use 5 GHz: the missing channel 149 is not a problem.
        #expect(try check("channel 149", in: examined).verdict == .ok)
        #expect(nan.detail == "no NAN: driver has no NAN interface type")
        #expect(
            nan.remedy
                == "this driver cannot run NAN: use an adapter whose driver offers it (see 'waware list'), or a newer driver or firmware"
        )
    }

    @Test func rfkillBlocksFailWithTheCommandToRun() {
        let soft = Diagnosis.rfkillCheck([RFKillReport(name: "rfkill0", soft: true, hard: false)])
        #expect(soft.verdict == .fail)
        #expect(soft.detail == "soft-blocked (rfkill0)")
        #expect(soft.remedy == "run 'rfkill unblock wifi'")
        let hard = Diagnosis.rfkillCheck([RFKillReport(name: "rfkill1", soft: true, hard: true)])
        #expect(hard.verdict == .fail)
        #expect(hard.detail == "hard-blocked (rfkill1)")
        #expect(hard.remedy?.contains("switch") == true && hard.remedy?.contains("rfkill unblock wifi") == true)
        #expect(Diagnosis.rfkillCheck([]).verdict == .ok)
    }

    @Test func channel6NoIROrMissingFails() throws {
        let adapter = DiagnosisFixtures.adapter(channels: ["no-IR", "enabled", "enabled"])
        let ch6 = try check(
            "channel 6",
            in: Diagnosis.report(kernel: nil, regulatory: DiagnosisFixtures.us, adapters: [adapter]).adapters[0])
        #expect(ch6.verdict == .fail)
        #expect(ch6.detail.hasPrefix("2437 MHz: no-IR"))
        #expect(ch6.remedy != nil)
        let absent = Diagnosis.channelCheck(
            NANChannelReport(channel: 6, frequency: 2437, state: "absent"), adapter: adapter, domain: nil)
        #expect(absent.verdict == .fail)
        #expect(absent.remedy?.contains("2.4 GHz") == true)
    }

    @Test func dataPathWithoutACombinationOfNANAndNANDataWarns() {
        var report = AdapterFixtures.hwsim()
        report.interfaceCombinations = [
            CombinationReport(maxInterfaces: 1, channels: 1, limits: [.init(max: 1, types: ["NAN"])]),
            CombinationReport(maxInterfaces: 2, channels: 1, limits: [.init(max: 2, types: ["NAN_DATA"])]),
        ]
        let check = Diagnosis.dataPathCheck(DiagnosisFixtures.adapter(report))
        #expect(check.verdict == .warning)
        #expect(check.detail.contains("NAN and a NAN data interface"))
        var noNDI = AdapterFixtures.hwsim()
        noNDI.nan.dataPath = false
        #expect(Diagnosis.dataPathCheck(DiagnosisFixtures.adapter(noNDI)).detail.contains("NAN_DATA"))
    }

    @Test func selfTestVerdicts() {
        let joined = Diagnosis.selfTestCheck(
            SelfTestReport(
                joined: true, joinSeconds: 0.5123, clusterID: "50:6f:9a:01:12:34",
                error: nil, permissionDenied: false))
        #expect(joined.verdict == .ok)
        #expect(joined.detail == "NAN started, cluster 50:6f:9a:01:12:34 joined after 0.512 s, NAN stopped")
        let refused = Diagnosis.selfTestCheck(
            SelfTestReport(
                joined: false, joinSeconds: nil, clusterID: nil,
                error: "not permitted", permissionDenied: true))
        #expect(refused.verdict == .fail)
        #expect(refused.remedy == "run as root or with CAP_NET_ADMIN")
        let silent = Diagnosis.selfTestCheck(
            SelfTestReport(
                joined: false, joinSeconds: nil, clusterID: nil,
                error: "no cluster event", permissionDenied: false))
        #expect(silent.remedy?.contains("dmesg") == true)
    }

    @Test func oldKernelNoAdaptersAndNoRegulatoryDomainSayWhatToDo() {
        let checks = Diagnosis.machineChecks(
            kernel: KernelFacts(release: "6.12.9-amd64", version: "", machine: "x86_64"), regulatory: nil,
            adapterCount: 0)
        #expect(checks.map(\.verdict) == [.warning, .warning, .fail])
        #expect(checks[0].remedy == "install Linux 7.2 or newer")
        #expect(checks[2].remedy?.contains("waware sim add") == true)
        #expect(Diagnosis.majorMinor("7.10.1") ?? (0, 0) == (7, 10))
        #expect(Diagnosis.majorMinor("abc") == nil)
    }

    @Test func jsonIsOneObjectWithTheDocumentedFields() throws {
        let report = Diagnosis.report(
            kernel: DiagnosisFixtures.kernel, regulatory: DiagnosisFixtures.world,
            adapters: [
                DiagnosisFixtures.adapter(
                    selfTest: SelfTestReport(
                        joined: true, joinSeconds: 0.2, clusterID: "50:6f:9a:01:00:01", error: nil,
                        permissionDenied: false))
            ])
        let text = try AdapterFixtures.json(report)
        #expect(!text.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["kernel", "regulatory", "checks", "adapters", "summary"])
        let adapter = try #require((object["adapters"] as? [[String: Any]])?.first)
        for key in [
            "phy", "wiphy", "driver", "module", "firmware", "nan", "interfaceCombinations", "channels", "rfkill",
            "selfTest", "checks",
        ] {
            #expect(adapter[key] != nil, "missing \(key)")
        }
        #expect((adapter["selfTest"] as? [String: Any])?["joinSeconds"] as? Double == 0.2)
        #expect(try JSONDecoder().decode(DiagnosisReport.self, from: Data(text.utf8)) == report)
    }

    @Test func theSummaryCountsEveryVerdict() throws {
        let report = Diagnosis.report(
            kernel: DiagnosisFixtures.kernel, regulatory: DiagnosisFixtures.world,
            adapters: [DiagnosisFixtures.adapter()])
        #expect(report.summary.ok == 8)
        #expect(report.summary.warnings == 4)
        #expect(report.summary.failures == 0)
        #expect(
            try check("driver", in: report.adapters[0]).detail
                == "mac80211_hwsim, module mac80211_hwsim (no version, srcversion ABC123)")
    }

    private static let twoRadio = TwoRadioReport(
        radios: ["phy4", "phy5"], publisher: "02:00:00:00:04:00", subscriber: "02:00:00:00:05:00", discovered: true,
        discoverySeconds: 1.312, discoveryWindows: 2.5, signal: -30, frequency: 2437, followUpRoundTripSeconds: 0.61,
        followUpRoundTripWindows: 1.16, error: nil, remedy: nil, cleanedUp: true)

    @Test func aTwoRadioTestThatFoundAndGotAnAnswerIsOkWithItsTimesInSecondsAndWindows() throws {
        let report = Diagnosis.report(
            kernel: DiagnosisFixtures.kernel, regulatory: DiagnosisFixtures.us,
            adapters: [], twoRadio: Self.twoRadio)
        let check = try #require(report.checks.first { $0.name == "two-radio" })
        #expect(check.verdict == .ok)
        #expect(
            check.detail
                == "two simulated radios (phy4 and phy5): discovered after 1.312 s (2.5 DW) on 2437 MHz, -30 dBm, "
                + "follow-up answered in 0.610 s (1.16 DW), radios removed")
    }

    @Test func aTwoRadioTestWithoutHwsimFailsSayingHowToLoadIt() throws {
        let test = TwoRadioReport.notRun(
            "the mac80211_hwsim module is not loaded", remedy: "load it: 'modprobe mac80211_hwsim radios=0'")
        let check = Diagnosis.twoRadioCheck(test)
        #expect(check.verdict == .fail)
        #expect(check.detail == "the mac80211_hwsim module is not loaded")
        #expect(check.remedy == "load it: 'modprobe mac80211_hwsim radios=0'")
    }

    @Test func aTwoRadioTestThatLeftRadiosBehindSaysSo() {
        var test = Self.twoRadio
        test.cleanedUp = false
        #expect(Diagnosis.twoRadioCheck(test).verdict == .warning)
        test.error = "the subscriber did not discover the publisher within 10.000 s"
        test.followUpRoundTripSeconds = nil
        let check = Diagnosis.twoRadioCheck(test)
        #expect(check.verdict == .fail)
        #expect(
            check.detail.hasPrefix(
                "the subscriber did not discover the publisher within 10.000 s (phy4 and phy5); the radios"))
    }

    @Test func aTwoRadioReportIsInTheJSONOnlyWhenAskedFor() throws {
        let report = Diagnosis.report(
            kernel: DiagnosisFixtures.kernel, regulatory: DiagnosisFixtures.us,
            adapters: [], twoRadio: Self.twoRadio)
        let text = try AdapterFixtures.json(report)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let two = try #require(object["twoRadio"] as? [String: Any])
        #expect(two["discoveryWindows"] as? Double == 2.5)
        #expect(two["cleanedUp"] as? Bool == true)
        #expect(try JSONDecoder().decode(DiagnosisReport.self, from: Data(text.utf8)) == report)
    }

    @Test func windowsPrintToTheHundredth() {
        #expect(Diagnosis.formatWindows(2) == "2")
        #expect(Diagnosis.formatWindows(2.5) == "2.5")
        #expect(Diagnosis.formatWindows(1.05) == "1.05")
        #expect(TwoRadioReport.windows(0.524288) == 1)
    }
}

/// The verdicts of `waware diagnose`: from the facts gathered about the machine and each adapter, one
/// ``DiagnosisCheck`` per thing that NAN needs, each failure or warning with what to do. Pure: no I/O.
enum Diagnosis {
    /// The NAN discovery channels checked: channel 6 (mandatory), 44 and 149 (5 GHz).
    static let nanChannels: [(channel: Int, frequency: Int)] = [(6, 2437), (44, 5220), (149, 5745)]

    /// The remedy for a world regulatory domain.
    static let setCountry = "set a country with 'iw reg set XX' (your ISO country code) and install wireless-regdb"

    /// The report with every verdict filled in and counted.
    static func report(
        kernel: KernelFacts?, regulatory: RegulatoryReport?, adapters: [AdapterDiagnosis],
        twoRadio: TwoRadioReport? = nil, daemon: DaemonReport? = nil
    ) -> DiagnosisReport {
        var machine = machineChecks(kernel: kernel, regulatory: regulatory, adapterCount: adapters.count)
        if let twoRadio { machine.append(twoRadioCheck(twoRadio)) }
        if let daemon { machine.append(DaemonDiagnosis.check(daemon)) }
        let examined = adapters.map { adapter in
            var adapter = adapter
            adapter.checks = checks(for: adapter, global: regulatory)
            return adapter
        }
        return DiagnosisReport(
            kernel: kernel, regulatory: regulatory, checks: machine, adapters: examined, twoRadio: twoRadio,
            daemon: daemon, summary: DiagnosisSummary(machine + examined.flatMap(\.checks)))
    }

    /// The checks about the machine: kernel release, global regulatory domain, whether there are adapters.
    static func machineChecks(
        kernel: KernelFacts?, regulatory: RegulatoryReport?, adapterCount: Int
    ) -> [DiagnosisCheck] {
        var checks: [DiagnosisCheck] = []
        if let kernel {
            if let (major, minor) = majorMinor(kernel.release), (major, minor) < (7, 2) {
                checks.append(
                    DiagnosisCheck(
                        name: "kernel", verdict: .warning,
                        detail:
                            "Linux \(kernel.release) is older than 7.2, whose nl80211 has the NAN commands waware uses",
                        remedy: "install Linux 7.2 or newer"))
            } else {
                checks.append(
                    DiagnosisCheck(name: "kernel", verdict: .ok, detail: "Linux \(kernel.release) (\(kernel.machine))"))
            }
        } else {
            checks.append(
                DiagnosisCheck(
                    name: "kernel", verdict: .warning, detail: "uname did not answer",
                    remedy: "run 'uname -a' and add it to the report"))
        }
        checks.append(regulatoryCheck(regulatory, name: "regulatory"))
        if adapterCount == 0 {
            checks.append(
                DiagnosisCheck(
                    name: "adapters", verdict: .fail, detail: "no Wi-Fi adapter found",
                    remedy: "load the adapter's driver (see 'dmesg'); for simulated radios: "
                        + "'modprobe mac80211_hwsim radios=0' then 'waware sim add'"))
        }
        return checks
    }

    /// The verdict on a regulatory domain.
    static func regulatoryCheck(_ regulatory: RegulatoryReport?, name: String) -> DiagnosisCheck {
        guard let regulatory else {
            return DiagnosisCheck(
                name: name, verdict: .warning, detail: "the kernel reported no regulatory domain",
                remedy: setCountry)
        }
        if regulatory.country == "00" {
            return DiagnosisCheck(
                name: name, verdict: .warning,
                detail: "regulatory domain is world (00): 5 GHz NAN channels are not allowed", remedy: setCountry)
        }
        let region = regulatory.dfsRegion.map { ", DFS \($0)" } ?? ""
        let managed = regulatory.selfManaged ? ", managed by the driver" : ""
        return DiagnosisCheck(
            name: name, verdict: .ok,
            detail: "country \(regulatory.country)\(region)\(managed), \(regulatory.rules.count) rules")
    }

    /// The checks about one adapter, in the order printed.
    static func checks(for adapter: AdapterDiagnosis, global: RegulatoryReport?) -> [DiagnosisCheck] {
        var checks = [
            driverCheck(adapter), firmwareCheck(adapter), nanCheck(adapter), dataPathCheck(adapter),
            secureCheck(adapter),
        ]
        if let own = adapter.regulatory { checks.append(regulatoryCheck(own, name: "regulatory (\(adapter.phy))")) }
        let domain = adapter.regulatory ?? global
        checks += adapter.channels.map { channelCheck($0, adapter: adapter, domain: domain) }
        checks.append(rfkillCheck(adapter.rfkill))
        checks.append(combinationsCheck(adapter))
        if let test = adapter.selfTest { checks.append(selfTestCheck(test)) }
        return checks
    }

    static func driverCheck(_ adapter: AdapterDiagnosis) -> DiagnosisCheck {
        guard let driver = adapter.driver else {
            return DiagnosisCheck(
                name: "driver", verdict: .warning, detail: "unknown: \(adapter.phy) has no device link in sysfs",
                remedy: "name the driver in the bug report ('lsmod', 'dmesg')")
        }
        var detail = driver
        if let module = adapter.module {
            if let name = module.name {
                let version =
                    module.version.map { "version \($0)" }
                    ?? module.sourceVersion.map { "no version, srcversion \($0)" } ?? "no version"
                detail += ", module \(name) (\(version))"
            } else {
                detail += ", built into the kernel"
            }
        }
        return DiagnosisCheck(name: "driver", verdict: .ok, detail: detail)
    }

    static func firmwareCheck(_ adapter: AdapterDiagnosis) -> DiagnosisCheck {
        guard let firmware = adapter.firmware else {
            return DiagnosisCheck(
                name: "firmware", verdict: .ok,
                detail: "not asked: \(adapter.phy) has no network interface in this namespace for ethtool")
        }
        guard let version = firmware.version else {
            return DiagnosisCheck(
                name: "firmware", verdict: .ok,
                detail: "the driver reports no firmware version (on \(firmware.interface))")
        }
        let bus = firmware.busInfo.map { ", bus \($0)" } ?? ""
        return DiagnosisCheck(name: "firmware", verdict: .ok, detail: "\(version) (on \(firmware.interface)\(bus))")
    }

    static func nanCheck(_ adapter: AdapterDiagnosis) -> DiagnosisCheck {
        guard adapter.nan.supported else {
            return DiagnosisCheck(
                name: "nan", verdict: .fail, detail: "no NAN: \(adapter.nan.summary)",
                remedy: "this driver cannot run NAN: use an adapter whose driver offers it (see 'waware list'), "
                    + "or a newer driver or firmware")
        }
        return DiagnosisCheck(name: "nan", verdict: .ok, detail: adapter.nan.summary)
    }

    static func dataPathCheck(_ adapter: AdapterDiagnosis) -> DiagnosisCheck {
        guard adapter.nan.supported else {
            return DiagnosisCheck(
                name: "data path", verdict: .fail, detail: "no NAN, so no NAN data path",
                remedy: "see the nan check")
        }
        guard adapter.nan.dataPath else {
            return DiagnosisCheck(
                name: "data path", verdict: .warning,
                detail: "no NAN data interface type (NAN_DATA): discovery works, data paths do not",
                remedy: "data paths need a driver that offers NAN_DATA interfaces")
        }
        let together = adapter.interfaceCombinations.filter { combination in
            combination.limits.contains { $0.types.contains("NAN") }
                && combination.limits.contains { $0.types.contains("NAN_DATA") }
        }
        if !adapter.interfaceCombinations.isEmpty && together.isEmpty {
            return DiagnosisCheck(
                name: "data path", verdict: .warning,
                detail: "no interface combination allows a NAN and a NAN data interface at the same time",
                remedy: "data paths need a driver whose combinations allow NAN + NAN_DATA")
        }
        let most = together.flatMap(\.limits).filter { $0.types.contains("NAN_DATA") }.map(\.max).max()
        return DiagnosisCheck(
            name: "data path", verdict: .ok,
            detail: "NAN_DATA interfaces" + (most.map { ", up to \($0) with NAN" } ?? ""))
    }

    static func secureCheck(_ adapter: AdapterDiagnosis) -> DiagnosisCheck {
        guard adapter.nan.supported else {
            return DiagnosisCheck(
                name: "secure NAN", verdict: .fail, detail: "no NAN, so no secure NAN",
                remedy: "see the nan check")
        }
        guard adapter.nan.secure else {
            return DiagnosisCheck(
                name: "secure NAN", verdict: .warning,
                detail: "no SECURE_NAN extended feature: pairing and secure data paths are not available",
                remedy: "they need a driver that reports SECURE_NAN")
        }
        return DiagnosisCheck(
            name: "secure NAN", verdict: .ok, detail: "SECURE_NAN: pairing and keys on NAN interfaces")
    }

    static func channelCheck(
        _ channel: NANChannelReport, adapter: AdapterDiagnosis, domain: RegulatoryReport?
    ) -> DiagnosisCheck {
        let name = "channel \(channel.channel)"
        let label = "\(channel.frequency) MHz"
        let mandatory = channel.frequency < 3000
        if channel.state == "enabled" {
            return DiagnosisCheck(name: name, verdict: .ok, detail: "\(label): enabled")
        }
        let nanUses5GHz = adapter.nan.bands.contains("5GHz")
        if !mandatory && (channel.state == "absent" || !nanUses5GHz) {
            let why = channel.state == "absent" ? "not offered by this radio" : channel.state
            return DiagnosisCheck(name: name, verdict: .ok, detail: "\(label): \(why) (NAN runs on 2.4 GHz here)")
        }
        let remedy: String
        if channel.state == "absent" {
            remedy = "NAN needs channel 6; use an adapter with the 2.4 GHz band"
        } else if domain?.country == "00" {
            remedy = "the regulatory domain is world (00): " + setCountry
        } else {
            remedy = setCountry + "; check 'iw reg get' and 'iw phy \(adapter.phy) channels'"
        }
        let meaning = channel.state == "no-IR" ? " (NAN may not transmit first there, so cannot beacon)" : ""
        return DiagnosisCheck(
            name: name, verdict: mandatory ? .fail : .warning,
            detail: "\(label): \(channel.state)\(meaning)", remedy: remedy)
    }

    static func rfkillCheck(_ switches: [RFKillReport]) -> DiagnosisCheck {
        if switches.isEmpty { return DiagnosisCheck(name: "rfkill", verdict: .ok, detail: "no kill switch") }
        let hard = switches.filter(\.hard).map(\.name)
        let soft = switches.filter(\.soft).map(\.name)
        if !hard.isEmpty {
            return DiagnosisCheck(
                name: "rfkill", verdict: .fail, detail: "hard-blocked (\(hard.joined(separator: ", ")))",
                remedy: "turn on the Wi-Fi switch or key, or enable Wi-Fi in the firmware setup (BIOS)"
                    + (soft.isEmpty ? "" : "; then run 'rfkill unblock wifi'"))
        }
        if !soft.isEmpty {
            return DiagnosisCheck(
                name: "rfkill", verdict: .fail, detail: "soft-blocked (\(soft.joined(separator: ", ")))",
                remedy: "run 'rfkill unblock wifi'")
        }
        return DiagnosisCheck(
            name: "rfkill", verdict: .ok, detail: "not blocked (\(switches.map(\.name).joined(separator: ", ")))")
    }

    static func combinationsCheck(_ adapter: AdapterDiagnosis) -> DiagnosisCheck {
        let count = adapter.interfaceCombinations.count
        guard count > 0 else {
            return DiagnosisCheck(
                name: "combinations", verdict: .ok,
                detail: adapter.nan.supported ? "none mentions NAN: NAN runs alone on the radio" : "none with NAN")
        }
        let first = adapter.interfaceCombinations[0].text
        return DiagnosisCheck(
            name: "combinations", verdict: .ok,
            detail: "\(count) with NAN" + (count == 1 ? ": \(first)" : "; #1: \(first)"))
    }

    static func selfTestCheck(_ test: SelfTestReport) -> DiagnosisCheck {
        if test.joined {
            let seconds = test.joinSeconds.map { " after \(formatSeconds($0)) s" } ?? ""
            return DiagnosisCheck(
                name: "self-test", verdict: .ok,
                detail: "NAN started, cluster \(test.clusterID ?? "?") joined\(seconds), NAN stopped")
        }
        if test.permissionDenied {
            return DiagnosisCheck(
                name: "self-test", verdict: .fail, detail: test.error ?? "not permitted",
                remedy: "run as root or with CAP_NET_ADMIN")
        }
        return DiagnosisCheck(
            name: "self-test", verdict: .fail, detail: test.error ?? "no cluster event",
            remedy: "look at 'dmesg' for the driver's messages and add them and this report to a driver bug")
    }

    /// The verdict on the two-radio test: ok when the publisher was discovered, its answer to a follow-up
    /// came back and every radio made for the test is gone again.
    static func twoRadioCheck(_ test: TwoRadioReport) -> DiagnosisCheck {
        let radios = test.radios.isEmpty ? "" : " (\(test.radios.joined(separator: " and ")))"
        guard test.error == nil, let seconds = test.discoverySeconds, let windows = test.discoveryWindows,
            let roundTrip = test.followUpRoundTripSeconds, let roundTripWindows = test.followUpRoundTripWindows
        else {
            let cleanup =
                test.cleanedUp
                ? "" : "; the radios made for the test were not all removed: 'waware sim list', 'waware sim remove ID'"
            return DiagnosisCheck(
                name: "two-radio", verdict: .fail,
                detail: (test.error ?? "no figures") + radios + cleanup,
                remedy: test.remedy
                    ?? "look at 'dmesg' for mac80211_hwsim's messages and add them and this report to a bug")
        }
        let signal = test.signal.map { ", \($0) dBm" } ?? ""
        let frequency = test.frequency.map { " on \($0) MHz" } ?? ""
        let detail =
            "two simulated radios\(radios): discovered after \(formatSeconds(seconds)) s (\(formatWindows(windows)) DW)"
            + "\(frequency)\(signal), follow-up answered in \(formatSeconds(roundTrip)) s (\(formatWindows(roundTripWindows)) DW)"
        guard test.cleanedUp else {
            return DiagnosisCheck(
                name: "two-radio", verdict: .warning,
                detail: detail + "; the radios made for the test were not all removed",
                remedy: "remove them with 'waware sim list' and 'waware sim remove ID'")
        }
        return DiagnosisCheck(name: "two-radio", verdict: .ok, detail: detail + ", radios removed")
    }

    /// DW periods to the hundredth: `3.25`, `1`.
    static func formatWindows(_ windows: Double) -> String {
        let hundredths = Int((windows * 100).rounded())
        let whole = String(hundredths / 100)
        let fraction = hundredths % 100
        if fraction == 0 { return whole }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `7.2.13+deb14-amd64` → (7, 2).
    static func majorMinor(_ release: String) -> (Int, Int)? {
        guard release.first?.isNumber == true else { return nil }
        let parts = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    /// Seconds to the millisecond: `0.123`.
    static func formatSeconds(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

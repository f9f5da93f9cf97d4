public import NANLogging
import NANDaemon
import NANEngine
import NANSystem
import NANWire

/// Gathers the facts of `waware diagnose` from the kernel and sysfs, and runs the self-test; the verdicts
/// are ``Diagnosis``'s.
@_spi(Tools) public enum DiagnosisProbe {
    /// Examines the adapter `reference` names, or every adapter, and returns the report; with `selfTest`
    /// starts NAN on each, with `twoRadio` runs ``TwoRadioTest`` (tracing to `logger`), each wait at most
    /// `timeout`; asks wawared at `daemonSocket` (default `/run/waware/wawared.socket`) for its status.
    /// - Throws: NANSystem's `NetlinkError` `familyNotFound` without nl80211; ``WAError`` `adapterNotFound`
    ///   when the named adapter does not exist.
    public static func report(
        adapter reference: String?, selfTest: Bool, twoRadio: Bool, timeout: Duration, logger: Logger,
        daemonSocket: String? = nil
    ) async throws -> DiagnosisReport {
        let (adapters, domains, channels) = try await NL80211.withSession { session in
            let adapters = try await session.adapters().sorted { $0.wiphy < $1.wiphy }
            // Only diagnostics: a kernel that refuses these still gets a report.
            let domains = (try? await session.regulatoryDomains()) ?? []
            let channels = (try? await session.radioChannels()) ?? [:]
            return (adapters, domains, channels)
        }
        let chosen = try reference.map { [try AdapterSelection.select($0, from: adapters)] } ?? adapters
        var examined: [AdapterDiagnosis] = []
        for adapter in chosen {
            var diagnosis = facts(of: adapter, domains: domains, channels: channels[adapter.wiphy] ?? [])
            if selfTest {
                diagnosis.selfTest = await Self.selfTest(adapter, report: AdapterReport(adapter), timeout: timeout)
            }
            examined.append(diagnosis)
        }
        let kernel = KernelRelease.current().map {
            KernelFacts(release: $0.release, version: $0.version, machine: $0.machine)
        }
        let global = domains.first { $0.wiphy == nil }.map { regulatoryReport($0) }
        // After the adapters are examined, so the radios it makes do not show up among them.
        var test: TwoRadioReport?
        if twoRadio {
            test =
                (try? await SignalCancellation.run { await TwoRadioTest.run(timeout: timeout, logger: logger) })
                ?? .notRun("interrupted", remedy: TwoRadioTest.interruptedRemedy)
        }
        let daemon = await DaemonDiagnosis.probe(socket: daemonSocket ?? DaemonProtocol.defaultSocketPath)
        return Diagnosis.report(kernel: kernel, regulatory: global, adapters: examined, twoRadio: test, daemon: daemon)
    }

    /// What sysfs, ethtool and nl80211 say about one adapter (no verdicts yet).
    static func facts(of adapter: Adapter, domains: [RegulatoryDomain], channels: [RadioChannel]) -> AdapterDiagnosis {
        let report = AdapterReport(adapter)
        let module = DriverModule.of(phy: adapter.name).map {
            ModuleReport(name: $0.name, version: $0.version, sourceVersion: $0.sourceVersion)
        }
        var firmware: FirmwareReport?
        if let interface = EthtoolDriverInfo.networkInterfaces(ofPhy: adapter.name).first {
            let info = try? EthtoolDriverInfo.query(interface: interface)
            firmware = FirmwareReport(
                interface: interface,
                version: info.flatMap { $0.firmwareVersion.isEmpty ? nil : $0.firmwareVersion },
                busInfo: info.flatMap { $0.busInfo.isEmpty ? nil : $0.busInfo })
        }
        let nanChannels = Diagnosis.nanChannels.map { entry in
            NANChannelReport(
                channel: entry.channel, frequency: entry.frequency,
                state: state(of: Frequency(megahertz: UInt32(entry.frequency)), in: channels))
        }
        return AdapterDiagnosis(
            phy: adapter.name, wiphy: adapter.wiphy.rawValue, driver: adapter.driver, module: module,
            firmware: firmware,
            interfaceTypes: report.interfaceTypes, nan: report.nan, interfaceCombinations: report.interfaceCombinations,
            regulatory: domains.first { $0.wiphy == adapter.wiphy }.map { regulatoryReport($0) },
            channels: nanChannels,
            rfkill: RFKillSwitch.of(phy: adapter.name).map {
                RFKillReport(name: $0.name, soft: $0.softBlocked, hard: $0.hardBlocked)
            },
            selfTest: nil, checks: [])
    }

    /// `enabled`, `no-IR`, `disabled` or `absent`.
    static func state(of frequency: Frequency, in channels: [RadioChannel]) -> String {
        guard let channel = channels.first(where: { $0.frequency == frequency }) else { return "absent" }
        if channel.disabled { return "disabled" }
        if channel.noIR { return "no-IR" }
        return "enabled"
    }

    /// The tool's view of a regulatory domain, rules as `iw reg get` shows them.
    static func regulatoryReport(_ domain: RegulatoryDomain) -> RegulatoryReport {
        let regions = ["unset", "FCC", "ETSI", "JP"]
        return RegulatoryReport(
            country: domain.countryCode,
            dfsRegion: domain.dfsRegion.map { Int($0) < regions.count ? regions[Int($0)] : "region \($0)" },
            selfManaged: domain.selfManaged,
            rules: domain.rules.map { rule in
                let power = Double(rule.maxEIRPmBm) / 100
                let dBm = power == power.rounded() ? String(Int(power)) : String(power)
                let flags = rule.flags.names
                return
                    "\(rule.startKHz / 1000) - \(rule.endKHz / 1000) @ \(rule.maxBandwidthKHz / 1000) MHz, \(dBm) dBm"
                    + (flags.isEmpty ? "" : ", " + flags.joined(separator: ", "))
            })
    }

    /// Starts NAN on the adapter through the runtime, waits for the cluster event, stops NAN and deletes the
    /// interface. Never throws: a failure is the test's outcome.
    static func selfTest(_ adapter: Adapter, report: AdapterReport, timeout: Duration) async -> SelfTestReport {
        guard report.nan.supported else {
            return SelfTestReport(
                joined: false, joinSeconds: nil, clusterID: nil,
                error: "not run: \(report.phy) has no NAN", permissionDenied: false)
        }
        if let inUse = report.nanInterfaceInUse {
            return SelfTestReport(
                joined: false, joinSeconds: nil, clusterID: nil, error: "not run: \(inUse)", permissionDenied: false)
        }
        do {
            return try await NANRuntime.run(on: adapter) { runtime in
                var options = NANStartOptions()
                options.bands = .kernelDefault
                options.clusterID = .randomIfConfigurable
                let clock = ContinuousClock()
                let start = clock.now
                _ = try await runtime.start(options)
                let cluster = await runtime.waitForCluster(timeout: timeout)
                let elapsed = clock.now - start
                try await runtime.stop(deleteInterface: true)
                guard let cluster else {
                    return SelfTestReport(
                        joined: false, joinSeconds: nil, clusterID: nil,
                        error:
                            "NAN started but no cluster event came within \(Diagnosis.formatSeconds(ClusterSession.seconds(timeout))) s",
                        permissionDenied: false)
                }
                return SelfTestReport(
                    joined: true, joinSeconds: ClusterSession.seconds(elapsed),
                    clusterID: cluster.description, error: nil, permissionDenied: false)
            }
        } catch {
            let failure = WAError.tool(error)
            return SelfTestReport(
                joined: false, joinSeconds: nil, clusterID: nil, error: failure.message,
                permissionDenied: failure.code == .permissionDenied)
        }
    }
}

/// Everything `waware diagnose` found, as plain values: the machine (kernel, global regulatory domain) and
/// each adapter examined, with a verdict per check. The field names are the JSON schema (docs/cli.md).
/// Built from the system in `System/DiagnosisProbe.swift`; the verdicts come from ``Diagnosis``; tests
/// build it directly.
struct DiagnosisReport: Codable, Equatable, Sendable {
    /// The running kernel, if `uname` answered.
    var kernel: KernelFacts?
    /// The global regulatory domain, if the kernel reported it.
    var regulatory: RegulatoryReport?
    /// The checks about the machine as a whole (kernel, regulatory domain, adapters present).
    var checks: [DiagnosisCheck]
    /// One entry per adapter examined.
    var adapters: [AdapterDiagnosis]
    /// The two-radio test on simulated radios, when asked for (`--two-radio`); its check is in ``checks``.
    var twoRadio: TwoRadioReport?
    /// How many checks, of every adapter and of the machine, ended with each verdict.
    var summary: DiagnosisSummary
}

/// `uname`: the kernel release, build and machine.
struct KernelFacts: Codable, Equatable, Sendable {
    /// `7.2.13+deb14-amd64`.
    var release: String
    /// `#1 SMP PREEMPT_DYNAMIC Debian 7.2.13-1`.
    var version: String
    /// `x86_64`.
    var machine: String
}

/// A regulatory domain: its country and rules.
struct RegulatoryReport: Codable, Equatable, Sendable {
    /// `00` (world), `US`, `DE`, ...
    var country: String
    /// `FCC`, `ETSI`, `JP` or `unset`, if reported.
    var dfsRegion: String?
    /// Whether the radio manages its domain itself (only for an adapter's own domain).
    var selfManaged: Bool
    /// The rules, as `iw reg get` prints them: `2402-2472 @ 40 MHz, 20 dBm, NO-IR`.
    var rules: [String]
}

/// Everything examined on one adapter.
struct AdapterDiagnosis: Codable, Equatable, Sendable {
    /// The phy name.
    var phy: String
    /// The wiphy index.
    var wiphy: UInt32
    /// The driver (sysfs), if known.
    var driver: String?
    /// The driver's module and its version, if the radio has a device.
    var module: ModuleReport?
    /// What ethtool reports (firmware version), if the radio has a network interface here.
    var firmware: FirmwareReport?
    /// The interface types the driver offers.
    var interfaceTypes: [String]
    /// NAN capabilities, as `waware info` reports them.
    var nan: NANReport
    /// The interface combinations that include NAN or NAN data interfaces.
    var interfaceCombinations: [CombinationReport]
    /// The radio's own regulatory domain, when it manages one.
    var regulatory: RegulatoryReport?
    /// The NAN discovery channels and whether the regulatory rules let NAN use them.
    var channels: [NANChannelReport]
    /// The radio's kill switches.
    var rfkill: [RFKillReport]
    /// The NAN start/stop self-test, when asked for (`--self-test`).
    var selfTest: SelfTestReport?
    /// The verdicts about this adapter, in the order printed.
    var checks: [DiagnosisCheck]
}

/// A driver's kernel module.
struct ModuleReport: Codable, Equatable, Sendable {
    /// The module name; `nil` when the driver is built into the kernel.
    var name: String?
    /// `MODULE_VERSION`, if the module declares one.
    var version: String?
    /// The module's `srcversion`, if any.
    var sourceVersion: String?
}

/// What the driver reports through ethtool on one of the radio's network interfaces.
struct FirmwareReport: Codable, Equatable, Sendable {
    /// The network interface asked (`wlan0`).
    var interface: String
    /// The firmware version; `nil` when the driver reports none.
    var version: String?
    /// The bus address (`0000:00:14.3`), if any.
    var busInfo: String?
}

/// One NAN discovery channel and what the regulatory rules allow there.
struct NANChannelReport: Codable, Equatable, Sendable {
    /// The channel number (6, 44, 149).
    var channel: Int
    /// Its centre frequency in MHz.
    var frequency: Int
    /// `enabled`, `no-IR` (passive only: NAN cannot beacon there), `disabled`, or `absent` (the radio has no
    /// such channel).
    var state: String
}

/// One kill switch.
struct RFKillReport: Codable, Equatable, Sendable {
    /// `rfkill0`.
    var name: String
    /// Blocked by software.
    var soft: Bool
    /// Blocked by hardware.
    var hard: Bool
}

/// The outcome of the NAN start/stop self-test.
struct SelfTestReport: Codable, Equatable, Sendable {
    /// Whether NAN started and a cluster was joined (or created) within the time limit.
    var joined: Bool
    /// Seconds from the start request to the cluster event, when there was one.
    var joinSeconds: Double?
    /// The cluster joined.
    var clusterID: String?
    /// Why it failed, when it did.
    var error: String?
    /// Whether the failure was a refusal for lack of privilege.
    var permissionDenied: Bool
}

/// One check's verdict.
struct DiagnosisCheck: Codable, Equatable, Sendable {
    /// How a check ended.
    enum Verdict: String, Codable, Sendable {
        /// Nothing to do.
        case ok
        /// Works, with a limitation worth knowing.
        case warning
        /// Something NAN needs is missing or blocked; ``DiagnosisCheck/remedy`` says what to do.
        case fail
    }

    /// What was checked: `kernel`, `driver`, `firmware`, `nan`, `data path`, `secure NAN`, `regulatory`,
    /// `channel 6`, `channel 44`, `channel 149`, `rfkill`, `combinations`, `self-test`, `two-radio`.
    var name: String
    /// The verdict.
    var verdict: Verdict
    /// What was found, in words.
    var detail: String
    /// What to do about a warning or failure.
    var remedy: String?
}

/// How many checks ended with each verdict.
struct DiagnosisSummary: Codable, Equatable, Sendable {
    /// Checks that passed.
    var ok: Int
    /// Checks with a warning.
    var warnings: Int
    /// Checks that failed.
    var failures: Int

    /// Counts the verdicts of `checks`.
    init(_ checks: [DiagnosisCheck]) {
        ok = checks.filter { $0.verdict == .ok }.count
        warnings = checks.filter { $0.verdict == .warning }.count
        failures = checks.filter { $0.verdict == .fail }.count
    }
}

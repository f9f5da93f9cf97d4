/// Everything `waware diagnose` found, as plain values: the machine (kernel, global regulatory domain) and
/// each adapter examined, with a verdict per check. The field names are the JSON schema (docs/cli.md).
/// Built from the system in `DiagnosisProbe.swift`; the verdicts come from ``Diagnosis``; tests
/// build it directly.
@_spi(Tools) public struct DiagnosisReport: Codable, Equatable, Sendable {
    /// The running kernel, if `uname` answered.
    public var kernel: KernelFacts?
    /// The global regulatory domain, if the kernel reported it.
    public var regulatory: RegulatoryReport?
    /// The checks about the machine as a whole (kernel, regulatory domain, adapters present).
    public var checks: [DiagnosisCheck]
    /// One entry per adapter examined.
    public var adapters: [AdapterDiagnosis]
    /// The two-radio test on simulated radios, when asked for (`--two-radio`); its check is in ``checks``.
    public var twoRadio: TwoRadioReport?
    /// wawared at its socket: whether it answers, its version and what it serves; its check is in ``checks``.
    public var daemon: DaemonReport? = nil
    /// How many checks, of every adapter and of the machine, ended with each verdict.
    public var summary: DiagnosisSummary
}

/// `uname`: the kernel release, build and machine.
@_spi(Tools) public struct KernelFacts: Codable, Equatable, Sendable {
    /// `7.2.13+deb14-amd64`.
    public var release: String
    /// `#1 SMP PREEMPT_DYNAMIC Debian 7.2.13-1`.
    public var version: String
    /// `x86_64`.
    public var machine: String
}

/// A regulatory domain: its country and rules.
@_spi(Tools) public struct RegulatoryReport: Codable, Equatable, Sendable {
    /// `00` (world), `US`, `DE`, ...
    public var country: String
    /// `FCC`, `ETSI`, `JP` or `unset`, if reported.
    public var dfsRegion: String?
    /// Whether the radio manages its domain itself (only for an adapter's own domain).
    public var selfManaged: Bool
    /// The rules, as `iw reg get` prints them: `2402-2472 @ 40 MHz, 20 dBm, NO-IR`.
    public var rules: [String]
}

/// Everything examined on one adapter.
@_spi(Tools) public struct AdapterDiagnosis: Codable, Equatable, Sendable {
    /// The phy name.
    public var phy: String
    /// The wiphy index.
    public var wiphy: UInt32
    /// The driver (sysfs), if known.
    public var driver: String?
    /// The driver's module and its version, if the radio has a device.
    public var module: ModuleReport?
    /// What ethtool reports (firmware version), if the radio has a network interface here.
    public var firmware: FirmwareReport?
    /// The interface types the driver offers.
    public var interfaceTypes: [String]
    /// NAN capabilities, as `waware info` reports them.
    public var nan: NANReport
    /// The interface combinations that include NAN or NAN data interfaces.
    public var interfaceCombinations: [CombinationReport]
    /// The radio's own regulatory domain, when it manages one.
    public var regulatory: RegulatoryReport?
    /// The NAN discovery channels and whether the regulatory rules let NAN use them.
    public var channels: [NANChannelReport]
    /// The radio's kill switches.
    public var rfkill: [RFKillReport]
    /// The NAN start/stop self-test, when asked for (`--self-test`).
    public var selfTest: SelfTestReport?
    /// The verdicts about this adapter, in the order printed.
    public var checks: [DiagnosisCheck]
}

/// A driver's kernel module.
@_spi(Tools) public struct ModuleReport: Codable, Equatable, Sendable {
    /// The module name; `nil` when the driver is built into the kernel.
    public var name: String?
    /// `MODULE_VERSION`, if the module declares one.
    public var version: String?
    /// The module's `srcversion`, if any.
    public var sourceVersion: String?
}

/// What the driver reports through ethtool on one of the radio's network interfaces.
@_spi(Tools) public struct FirmwareReport: Codable, Equatable, Sendable {
    /// The network interface asked (`wlan0`).
    public var interface: String
    /// The firmware version; `nil` when the driver reports none.
    public var version: String?
    /// The bus address (`0000:00:14.3`), if any.
    public var busInfo: String?
}

/// One NAN discovery channel and what the regulatory rules allow there.
@_spi(Tools) public struct NANChannelReport: Codable, Equatable, Sendable {
    /// The channel number (6, 44, 149).
    public var channel: Int
    /// Its centre frequency in MHz.
    public var frequency: Int
    /// `enabled`, `no-IR` (passive only: NAN cannot beacon there), `disabled`, or `absent` (the radio has no
    /// such channel).
    public var state: String
}

/// One kill switch.
@_spi(Tools) public struct RFKillReport: Codable, Equatable, Sendable {
    /// `rfkill0`.
    public var name: String
    /// Blocked by software.
    public var soft: Bool
    /// Blocked by hardware.
    public var hard: Bool
}

/// The outcome of the NAN start/stop self-test.
@_spi(Tools) public struct SelfTestReport: Codable, Equatable, Sendable {
    /// Whether NAN started and a cluster was joined (or created) within the time limit.
    public var joined: Bool
    /// Seconds from the start request to the cluster event, when there was one.
    public var joinSeconds: Double?
    /// The cluster joined.
    public var clusterID: String?
    /// Why it failed, when it did.
    public var error: String?
    /// Whether the failure was a refusal for lack of privilege.
    public var permissionDenied: Bool
}

/// One check's verdict.
@_spi(Tools) public struct DiagnosisCheck: Codable, Equatable, Sendable {
    /// How a check ended.
    public enum Verdict: String, Codable, Sendable {
        /// Nothing to do.
        case ok
        /// Works, with a limitation worth knowing.
        case warning
        /// Something NAN needs is missing or blocked; ``DiagnosisCheck/remedy`` says what to do.
        case fail
    }

    /// What was checked: `kernel`, `driver`, `firmware`, `nan`, `data path`, `secure NAN`, `regulatory`,
    /// `channel 6`, `channel 44`, `channel 149`, `rfkill`, `combinations`, `self-test`, `two-radio`, `wawared`.
    public var name: String
    /// The verdict.
    public var verdict: Verdict
    /// What was found, in words.
    public var detail: String
    /// What to do about a warning or failure.
    public var remedy: String?
}

/// How many checks ended with each verdict.
@_spi(Tools) public struct DiagnosisSummary: Codable, Equatable, Sendable {
    /// Checks that passed.
    public var ok: Int
    /// Checks with a warning.
    public var warnings: Int
    /// Checks that failed.
    public var failures: Int

    /// Counts the verdicts of `checks`.
    init(_ checks: [DiagnosisCheck]) {
        ok = checks.filter { $0.verdict == .ok }.count
        warnings = checks.filter { $0.verdict == .warning }.count
        failures = checks.filter { $0.verdict == .fail }.count
    }
}

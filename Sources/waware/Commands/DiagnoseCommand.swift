@_spi(Tools) import WiFiAware

/// `waware diagnose [<adapter>]`: the hardware diagnostics a driver bug report needs, with a verdict and a
/// remedy per check.
struct DiagnoseCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "diagnose",
        abstract: "Check the kernel, driver, firmware, NAN support, regulatory domain and rfkill, and say what to fix.",
        discussion: [
            "Each check prints ok, warning or fail; a warning or failure says what to do after a dash. Checked: the "
                + "kernel release, the driver and its module version, the firmware version (ethtool, on a network "
                + "interface of the radio), NAN capabilities and what is missing for NAN, the data path and secure "
                + "NAN, the regulatory domain (global, and the radio's own when it manages one) and whether it "
                + "allows the NAN channels 6, 44 and 149, rfkill, the interface combinations, and wawared: whether "
                + "it answers on its socket (WAWARED_SOCKET, default /run/waware/wawared.socket), its version and "
                + "protocol, the adapters it holds and its clients, or why not (not running, not in group "
                + "wawared, not answering).",
            "Without an adapter, every adapter is examined. --self-test also starts NAN on each NAN adapter, waits "
                + "for the cluster event, reports the time it took, and stops NAN (this needs CAP_NET_ADMIN).",
            "--two-radio also makes two simulated NAN radios (mac80211_hwsim), publishes on one and subscribes on the "
                + "other, and reports the discovery time (seconds and discovery windows) and a follow-up's round trip; "
                + "the two talk over the simulated medium only (no IP, so no loopback). The radios are removed at the "
                + "end, on failure and on Ctrl-C (the kernel removes them if waware dies). Needs CAP_NET_ADMIN and the "
                + "mac80211_hwsim module ('modprobe mac80211_hwsim radios=0').",
            "Exits 0 whenever the report was made, whatever it says; 69 without nl80211, 10 when the named adapter "
                + "does not exist, 77 when the self-test or the two-radio test was not permitted (after the report).",
        ],
        examples: [
            Example("waware diagnose", "Examine every adapter."),
            Example("waware diagnose phy0 --self-test", "Examine phy0 and start and stop NAN on it."),
            Example("waware diagnose --two-radio", "Also test discovery and follow-ups between two simulated radios."),
            Example("waware diagnose --json", "The whole report as one JSON object."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        Self.adapterPositional.spec,
        Self.selfTestFlag.spec,
        Self.twoRadioFlag.spec,
        Self.timeoutOption.spec,
        .json,
    ]

    /// The default limit of the self-test's wait for the cluster event.
    static let defaultTimeout: Duration = .seconds(10)

    /// What the user typed to name the adapter, if anything.
    var adapter: String?
    /// Whether to run the NAN start/stop self-test.
    var selfTest: Bool
    /// Whether to run the two-radio test on simulated radios.
    var twoRadio: Bool
    /// How long the self-test waits for the cluster event, and the two-radio test for each step.
    var timeout: Duration
    /// Whether to print JSON.
    var json: Bool

    init(from values: ParsedValues) throws {
        adapter = values.positional(Self.adapterPositional)
        selfTest = values.flag(Self.selfTestFlag)
        twoRadio = values.flag(Self.twoRadioFlag)
        timeout =
            try values.option(
                Self.timeoutOption, expected: "a whole number of seconds from 1 to 600",
                ArgumentValues.integer(in: 1...600)
            ).map { Duration.seconds($0) } ?? Self.defaultTimeout
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        let report = try await DiagnosisProbe.report(
            adapter: adapter, selfTest: selfTest, twoRadio: twoRadio, timeout: timeout, logger: Diagnostics.logger(),
            daemonSocket: Diagnostics.daemonSocket())
        try output.write(report, json: json, lines: DiagnosisText.lines(report))
        if report.adapters.contains(where: { $0.selfTest?.permissionDenied == true })
            || report.twoRadio?.remedy == TwoRadioTest.needsPrivilege
        {
            throw CommandFailure(
                "the self-test was not permitted; run as root or with CAP_NET_ADMIN", code: .permissionDenied)
        }
    }
}

/// The typed keys of the arguments `DiagnoseCommand` declares: listed in `arguments` by their `spec`, read with them.
extension DiagnoseCommand {
    static let adapterPositional = PositionalKey(
        "adapter", optional: true, help: "Phy name (phy0), wiphy index or interface name; default: every adapter.")
    static let selfTestFlag = FlagKey(
        "self-test", help: "Also start NAN, time the cluster join, and stop it (needs CAP_NET_ADMIN).")
    static let twoRadioFlag = FlagKey(
        "two-radio",
        help:
            "Also test discovery and a follow-up between two simulated radios made for it (needs mac80211_hwsim, CAP_NET_ADMIN)."
    )
    static let timeoutOption = OptionKey(
        "timeout", value: "seconds",
        help:
            "How long the self-test waits for the cluster event, and the two-radio test for its clusters and for its exchange (default 10)."
    )
}

@_spi(Tools) import WiFiAware

/// `waware probe <device>`: NAN capability as `KEY=VALUE` lines for udev's `IMPORT{program}`.
struct ProbeCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print an adapter's NAN capability as KEY=VALUE lines (for udev rules).",
        discussion: [
            "Exits 0 whenever the adapter could be examined, printing WAWARE_NAN=0 if it has no NAN; exits "
                + "non-zero only on a real error (no nl80211, no such adapter, not permitted). See udev/ for the rule "
                + "that runs it.",
            "A just-added phy can be seen in sysfs a moment before nl80211 reports it, so probe retries for up to "
                + "one second before it gives up on a name.",
        ],
        examples: [
            Example("waware probe phy0", "WAWARE_PHY=phy0, WAWARE_NAN=1, WAWARE_NAN_BANDS=2.4GHz,5GHz, ..."),
            Example("waware probe /sys/class/ieee80211/phy0", "The same, named by its sysfs path."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        Self.devicePositional.spec,
        .json,
    ]

    /// What names the adapter.
    var device: String
    /// Whether to print JSON.
    var json: Bool

    init(from values: ParsedValues) throws {
        device = values.positional(Self.devicePositional) ?? ""
        json = values.flag(FlagKey.json)
    }

    func validate() throws {
        if device.isEmpty { throw ValidationError("the device name is empty") }
    }

    func run(_ output: Output) async throws {
        let adapter = try await Self.find(device)
        try output.write(ProbeProperties.dictionary(of: adapter), json: json, lines: ProbeProperties.lines(of: adapter))
    }

    /// Looks `device` up, retrying briefly while it is not yet known to nl80211.
    private static func find(_ device: String) async throws -> AdapterReport {
        var attempt = 0
        while true {
            do {
                return try await AdapterDirectory.report(for: device)
            } catch let error as WAError where error.code == .adapterNotFound && attempt < 10 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}

/// The typed keys of the arguments `ProbeCommand` declares: listed in `arguments` by their `spec`, read with them.
extension ProbeCommand {
    static let devicePositional = PositionalKey(
        "device", help: "Phy name (phy0, udev's %k), sysfs path, wiphy index or interface name.")
}

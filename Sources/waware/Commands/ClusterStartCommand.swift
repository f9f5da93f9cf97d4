@_spi(Tools) import WiFiAware

/// `waware cluster start`: create a NAN interface, start NAN, print cluster events until SIGINT/SIGTERM.
struct ClusterStartCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Start NAN on an adapter and print cluster events until interrupted.",
        discussion: [
            "Creates a NAN interface owned by this process (the kernel deletes it if waware dies), starts NAN "
                + "and prints when the adapter joins or creates a cluster. On Ctrl-C (SIGINT) or SIGTERM it stops "
                + "NAN, deletes the interface and exits 0. If the adapter disappears meanwhile, it exits with the "
                + "'device removed' status (13).",
            "A master preference from 2 to 254 is usual; 1 and 255 are reserved for certification testing. "
                + "The 2.4 GHz band is always used; --bands 2.4,5 adds 5 GHz where the adapter supports it.",
        ],
        examples: [
            Example("waware cluster start", "NAN on the only NAN adapter, default settings."),
            Example(
                "waware cluster start --adapter phy1 --master-pref 100 --bands 2.4,5",
                "Prefer becoming master, use both bands."),
            Example(
                "waware cluster start --cluster-id 50:6f:9a:01:12:34 --verbose",
                "Create this cluster if none is heard; also print every discovery window."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        OptionKey.adapter.spec,
        Self.masterPrefOption.spec,
        Self.bandsOption.spec,
        Self.clusterIdOption.spec,
        Self.notifyDwFlag.spec,
        Self.verboseFlag.spec,
        .json,
    ]

    /// The master preference used when `--master-pref` is not given.
    static let defaultMasterPreference: UInt8 = 2

    /// What the user typed to name the adapter, if anything.
    var adapter: String?
    /// The NAN master preference.
    var masterPreference: UInt8
    /// The bands to use; `nil` lets the kernel choose (2.4 GHz).
    var bands: Set<ArgumentValues.Band>?
    /// The cluster ID to create if none is heard.
    var clusterID: [UInt8]?
    /// Whether to request discovery-window notifications.
    var notifyDW: Bool
    /// Whether to print discovery-window notifications.
    var verbose: Bool
    /// Whether to print JSON lines.
    var json: Bool

    init(from values: ParsedValues) throws {
        adapter = values.option(OptionKey.adapter)
        masterPreference =
            try values.option(
                Self.masterPrefOption, expected: "a number from 1 to 255", ArgumentValues.masterPreference)
            ?? Self.defaultMasterPreference
        bands = try values.option(Self.bandsOption, expected: "a list such as 2.4,5", ArgumentValues.bands)
        clusterID = try values.option(
            Self.clusterIdOption, expected: "50:6f:9a:01:xx:xx or its last two bytes xx:xx", ArgumentValues.clusterID)
        verbose = values.flag(Self.verboseFlag)
        notifyDW = values.flag(Self.notifyDwFlag) || verbose
        json = values.flag(FlagKey.json)
    }

    func validate() throws {
        if let bands, !bands.contains(.ghz2_4) {
            throw ValidationError("--bands must include 2.4: NAN always runs on the 2.4 GHz band")
        }
    }

    func run(_ output: Output) async throws {
        try await SignalCancellation.run {
            try await ClusterSession.run(
                adapter: adapter, masterPreference: masterPreference, bands: bands, clusterID: clusterID,
                notifyDW: notifyDW, verbose: verbose, json: json, output: output)
        }
    }
}

/// The typed keys of the arguments `ClusterStartCommand` declares: listed in `arguments` by their `spec`, read with them.
extension ClusterStartCommand {
    static let masterPrefOption = OptionKey(
        "master-pref", value: "1-255", help: "NAN master preference (default \(defaultMasterPreference)).")
    static let bandsOption = OptionKey(
        "bands", value: "bands", help: "Comma-separated bands: 2.4 (always), 5, 6 (default: 2.4).")
    static let clusterIdOption = OptionKey(
        "cluster-id", value: "id", help: "Cluster to create if none is found: 50:6f:9a:01:xx:xx or xx:xx.")
    static let notifyDwFlag = FlagKey(
        "notify-dw", help: "Ask the kernel for a notification before each discovery window.")
    static let verboseFlag = FlagKey(
        "verbose", short: "v", help: "Also print discovery-window notifications (implies --notify-dw).")
}

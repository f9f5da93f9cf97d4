@_spi(Tools) import WiFiAware

/// `waware info [<adapter>]`: everything the library reports about one adapter.
struct InfoCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show an adapter's capabilities, NAN support, interface combinations and interfaces.",
        discussion: [
            "Without an adapter, shows the only adapter, or else the only NAN-capable one."
        ],
        examples: [
            Example("waware info phy0", "Everything about phy0."),
            Example("waware info wlan0 --json", "The adapter that owns wlan0, as one JSON object."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        Self.adapterPositional.spec,
        .json,
    ]

    /// What the user typed to name the adapter, if anything.
    var adapter: String?
    /// Whether to print JSON.
    var json: Bool

    init(from values: ParsedValues) throws {
        adapter = values.positional(Self.adapterPositional)
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        let report = try await AdapterDirectory.report(for: adapter)
        try output.write(report, json: json, lines: AdapterText.info(report))
    }
}

/// The typed keys of the arguments `InfoCommand` declares: listed in `arguments` by their `spec`, read with them.
extension InfoCommand {
    static let adapterPositional = PositionalKey(
        "adapter", optional: true, help: "Phy name (phy0), wiphy index or interface name.")
}

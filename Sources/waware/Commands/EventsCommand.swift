@_spi(Tools) import WiFiAware

/// `waware events`: watch NAN-related nl80211 events until interrupted.
struct EventsCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print NAN-related nl80211 events until interrupted.",
        discussion: [
            "Shows cluster joins, discovery windows, NAN function matches and terminations, schedule and "
                + "channel events, and adapters and interfaces coming and going. The kernel sends a NAN interface's "
                + "events only to the process that owns it when it was created with an owner (as 'waware cluster "
                + "start' does), so those are not visible here; events of interfaces created by iw are."
        ],
        examples: [
            Example("waware events", "Events of every adapter."),
            Example("waware events --adapter phy0 --json", "Events of phy0, one JSON object per line."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        Self.adapterOption.spec,
        .json,
    ]

    /// What the user typed to name the adapter, if anything.
    var adapter: String?
    /// Whether to print JSON lines.
    var json: Bool

    init(from values: ParsedValues) throws {
        adapter = values.option(Self.adapterOption)
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        try await SignalCancellation.run {
            try await EventWatch.run(adapter: adapter, json: json, output: output)
        }
    }
}

/// The typed keys of the arguments `EventsCommand` declares: listed in `arguments` by their `spec`, read with them.
extension EventsCommand {
    static let adapterOption = OptionKey("adapter", short: "a", value: "adapter", help: "Only events of this adapter.")
}

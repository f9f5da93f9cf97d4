@_spi(Tools) import WiFiAware

/// `waware cluster stop`: stop NAN that another tool left running.
struct ClusterStopCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Stop NAN on an adapter where another tool (iw, a crashed program) left it running.",
        discussion: [
            "Looks for NAN interfaces on the adapter and stops NAN on each. With --delete it also deletes them. "
                + "If there is nothing to stop it says so and exits 0. A 'waware cluster start' stops by itself on "
                + "Ctrl-C; interfaces it owns vanish when it exits."
        ],
        examples: [
            Example("waware cluster stop", "Stop NAN on the only NAN adapter."),
            Example("waware cluster stop --adapter phy1 --delete", "Stop NAN on phy1 and delete its NAN interfaces."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        OptionKey.adapter.spec,
        Self.deleteFlag.spec,
        .json,
    ]

    /// What the user typed to name the adapter, if anything.
    var adapter: String?
    /// Whether to delete the NAN interfaces after stopping them.
    var delete: Bool
    /// Whether to print JSON.
    var json: Bool

    init(from values: ParsedValues) throws {
        adapter = values.option(OptionKey.adapter)
        delete = values.flag(Self.deleteFlag)
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        try await ClusterSession.stop(adapter: adapter, delete: delete, json: json, output: output)
    }
}

/// The typed keys of the arguments `ClusterStopCommand` declares: listed in `arguments` by their `spec`, read with them.
extension ClusterStopCommand {
    static let deleteFlag = FlagKey("delete", help: "Also delete the NAN interfaces.")
}

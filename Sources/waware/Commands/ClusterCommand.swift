/// `waware cluster`: the group for starting and stopping NAN.
struct ClusterCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Start or stop NAN (join or create a NAN cluster).",
        examples: [
            Example("waware cluster start", "Run NAN on the only NAN adapter until Ctrl-C."),
            Example("waware cluster stop --adapter phy0", "Stop NAN that another tool left running on phy0."),
        ],
        subcommands: [ClusterStartCommand.self, ClusterStopCommand.self]
    )

    init(from values: ParsedValues) throws {}
}

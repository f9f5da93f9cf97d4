/// The root command: `waware`, Wi-Fi Aware (NAN) on Linux from the command line.
struct Waware: Command {
    /// The version `waware --version` prints.
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "waware",
        abstract: "Wi-Fi Aware (NAN) on Linux: find NAN adapters, publish and discover services, exchange messages.",
        discussion: [
            "Adapters are named by phy name (phy0), wiphy index (0) or the name of one of their interfaces (wlan0). "
                + "Without one, commands use the only adapter, or else the only NAN-capable one. Results go to standard output "
                + "(add --json for one JSON object per line); a failure prints one line 'waware: <message>' on "
                + "standard error and exits with a documented status (see EXIT CODES in the README or docs/cli.md).",
            "Most commands need CAP_NET_ADMIN (run as root). No NAN card? 'waware sim add --count 2' creates "
                + "simulated NAN radios when the mac80211_hwsim module of Linux 7.2 or newer is loaded.",
        ],
        examples: [
            Example("waware list", "Show every Wi-Fi adapter and whether it can do NAN."),
            Example("waware cluster start --adapter phy0", "Join or create a NAN cluster until Ctrl-C."),
            Example("waware sim add --count 2", "Create two simulated NAN radios (mac80211_hwsim)."),
        ],
        version: version,
        subcommands: [
            ListCommand.self, InfoCommand.self, DiagnoseCommand.self, ClusterCommand.self, EventsCommand.self,
            ProbeCommand.self, SimCommand.self,
            PublishCommand.self, SubscribeCommand.self, DataPathsCommand.self, PerfCommand.self, ListenCommand.self,
            ConnectCommand.self, PeersCommand.self, PairCommand.self, DevicesCommand.self, DecodeCommand.self,
            CompletionsCommand.self, ManualCommand.self,
        ]
    )

    init(from values: ParsedValues) throws {}
}

/// `waware sim`: the group for simulated NAN radios (mac80211_hwsim).
struct SimCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Create, list and remove simulated NAN radios (mac80211_hwsim).",
        discussion: [
            "Needs the mac80211_hwsim module of Linux 7.2 or newer, loaded without default radios "
                + "('modprobe mac80211_hwsim radios=0': radios created at module load have no NAN), and CAP_NET_ADMIN."
        ],
        examples: [
            Example("waware sim add --count 2", "Two NAN radios that stay until removed."),
            Example("waware sim list", "The simulated radios."),
            Example("waware sim remove all", "Remove every simulated radio."),
        ],
        subcommands: [SimAddCommand.self, SimListCommand.self, SimRemoveCommand.self]
    )

    init(from values: ParsedValues) throws {}
}

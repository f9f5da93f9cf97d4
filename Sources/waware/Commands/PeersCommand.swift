import NANWire
@_spi(Tools) import WiFiAware

/// `waware peers`: listen for a while and list every NAN peer heard, with radio facts from its frames.
struct PeersCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "peers",
        abstract: "Listen on NAN for a while and list the peers heard, with signal and frequency.",
        discussion: [
            "Starts NAN, listens to service discovery frames for --duration seconds (default 5) and prints one "
                + "line per peer: its NMI address, the signal and frequency of its last frame, and in how many "
                + "discovery windows it was heard. Only peers that send discovery frames (publishers, active "
                + "subscribers, follow-ups) are heard."
        ],
        examples: [
            Example("waware peers", "Listen for 5 seconds on the only NAN adapter."),
            Example("waware peers --duration 20 --json", "Listen for 20 seconds, JSON lines."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        OptionKey.adapter.spec,
        Self.durationOption.spec,
        .json,
    ]

    var adapter: String?
    var duration: Double
    var json: Bool

    init(from parsed: ParsedValues) throws {
        adapter = parsed.option(OptionKey.adapter)
        duration =
            try parsed.option(
                Self.durationOption, expected: "a number of seconds above 0 and below 1000000, such as 5",
                ArgumentValues.seconds { $0 > 0 && $0 < 1e6 }) ?? 5
        json = parsed.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        try await SignalCancellation.run {
            try await DiscoveryRun.withSystem(adapter: adapter, masterPreference: 2) { system, _ in
                try? await Task.sleep(for: .milliseconds(Int64(duration * 1000)))
                let clock = ContinuousClock()
                for peer in await system.peers() {
                    var r = DiscoveryRecord("peer")
                    r.peer = peer.address.description
                    r.describe(peer.performance)
                    r.statisticsSource = peer.performance.statisticsSource.rawValue
                    r.elapsed = ClusterSession.seconds(clock.now - peer.performance.lastHeard)
                    try r.write(json: json, to: output)
                }
            }
        }
    }
}

/// The typed keys of the arguments `PeersCommand` declares: listed in `arguments` by their `spec`, read with them.
extension PeersCommand {
    static let durationOption = OptionKey("duration", value: "seconds", help: "How long to listen (default 5).")
}

@_spi(Tools) import WiFiAware

/// `waware sim list`: the simulated radios.
struct SimListCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the simulated radios and whether each has NAN.",
        examples: [
            Example("waware sim list", "One line per radio: id, name, phy, NAN."),
            Example("waware sim list --json", "{\"radios\":[...]}"),
        ]
    )

    static let arguments: [ArgumentSpec] = [.json]

    /// Whether to print JSON.
    var json: Bool

    init(from values: ParsedValues) throws {
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        try await Simulator.list(json: json, output: output)
    }
}

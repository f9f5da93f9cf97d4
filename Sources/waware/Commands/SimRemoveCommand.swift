@_spi(Tools) import WiFiAware

/// `waware sim remove`: delete simulated radios.
struct SimRemoveCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a simulated radio by id or name, or all of them.",
        examples: [
            Example("waware sim remove 3", "Remove radio 3."),
            Example("waware sim remove nanA", "Remove the radio named nanA."),
            Example("waware sim remove all", "Remove every simulated radio."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        Self.radioPositional.spec,
        .json,
    ]

    /// Which radio to remove: an id, a name or `all`.
    var radio: String
    /// Whether to print JSON.
    var json: Bool

    init(from values: ParsedValues) throws {
        radio = values.positional(Self.radioPositional) ?? ""
        json = values.flag(FlagKey.json)
    }

    func validate() throws {
        if radio.isEmpty { throw ValidationError("name the radio to remove: an id, a name or 'all'") }
    }

    func run(_ output: Output) async throws {
        try await Simulator.remove(radio, json: json, output: output)
    }
}

/// The typed keys of the arguments `SimRemoveCommand` declares: listed in `arguments` by their `spec`, read with them.
extension SimRemoveCommand {
    static let radioPositional = PositionalKey("radio", help: "Radio id, radio name, or 'all'.")
}

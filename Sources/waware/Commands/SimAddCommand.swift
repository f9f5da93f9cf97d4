@_spi(Tools) import WiFiAware

/// `waware sim add`: create simulated NAN radios.
struct SimAddCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Create simulated NAN radios.",
        discussion: [
            "By default the radios stay after waware exits (--keep) until 'waware sim remove'. With --temporary "
                + "they are tied to this process: waware stays in the foreground and the kernel deletes them when it "
                + "exits (Ctrl-C).",
            "--name sets the radio name, which mac80211_hwsim also uses as the phy name; with --count above 1 the "
                + "radios are named NAME0, NAME1, ...",
        ],
        examples: [
            Example("waware sim add --count 2", "Two NAN radios, named phyN by the kernel."),
            Example("waware sim add --name nanA --channels 3", "One radio called nanA with 3 concurrent channels."),
            Example("waware sim add --temporary", "One radio that lasts until Ctrl-C."),
            Example(
                "waware sim add --no-nan",
                "One radio without NAN, like an ordinary Wi-Fi card (to see 'waware diagnose' say so)."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        Self.countOption.spec,
        Self.nameOption.spec,
        Self.channelsOption.spec,
        Self.keepFlag.spec,
        Self.temporaryFlag.spec,
        Self.noNanFlag.spec,
        .json,
    ]

    /// The most radios one command creates.
    static let maxCount = 64
    /// The most concurrent channels accepted per radio.
    static let maxChannels = 16
    /// Concurrent channels per radio when `--channels` is not given (as hostap's NAN tests use).
    static let defaultChannels = 3

    /// How many radios to create.
    var count: Int
    /// The base name, if any.
    var name: String?
    /// Concurrent channels per radio.
    var channels: Int
    /// Whether the radios disappear when waware exits.
    var temporary: Bool
    /// Whether `--keep` was given (only to reject it with `--temporary`).
    var keep: Bool
    /// Whether the radios get NAN (and NAN data) interface support; `--no-nan` makes ordinary radios.
    var nan: Bool
    /// Whether to print JSON.
    var json: Bool

    init(from values: ParsedValues) throws {
        count =
            try values.option(
                Self.countOption, expected: "a number from 1 to \(Self.maxCount)",
                ArgumentValues.integer(in: 1...Self.maxCount)) ?? 1
        name = values.option(Self.nameOption)
        channels =
            try values.option(
                Self.channelsOption, expected: "a number from 1 to \(Self.maxChannels)",
                ArgumentValues.integer(in: 1...Self.maxChannels)) ?? Self.defaultChannels
        keep = values.flag(Self.keepFlag)
        temporary = values.flag(Self.temporaryFlag)
        nan = !values.flag(Self.noNanFlag)
        json = values.flag(FlagKey.json)
    }

    func validate() throws {
        if keep && temporary { throw ValidationError("--keep and --temporary exclude each other") }
        if let name {
            let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            // A phy name must fit the kernel's 32-byte limit with room for the appended number.
            if name.isEmpty || !allowed || name.count > 28 {
                throw ValidationError(
                    "invalid --name '\(name)': use 1 to 28 letters, digits, '-' or '_'")
            }
        }
    }

    /// The radio names to request, or `nil` entries to let the kernel name them.
    var radioNames: [String?] {
        guard let name else { return Array(repeating: nil, count: count) }
        if count == 1 { return [name] }
        return (0..<count).map { "\(name)\($0)" }
    }

    func run(_ output: Output) async throws {
        try await Simulator.add(
            radioNames: radioNames, channels: channels, nan: nan, temporary: temporary, json: json, output: output)
    }
}

/// The typed keys of the arguments `SimAddCommand` declares: listed in `arguments` by their `spec`, read with them.
extension SimAddCommand {
    static let countOption = OptionKey(
        "count", short: "n", value: "n", help: "How many radios to create (1-\(maxCount), default 1).")
    static let nameOption = OptionKey(
        "name", value: "name", help: "Radio and phy name (a number is appended when --count > 1).")
    static let channelsOption = OptionKey(
        "channels", value: "n", help: "Concurrent channels per radio (1-\(maxChannels), default \(defaultChannels)).")
    static let keepFlag = FlagKey("keep", help: "Keep the radios after waware exits (the default).")
    static let noNanFlag = FlagKey("no-nan", help: "Create radios without NAN support, like an ordinary Wi-Fi card.")
    static let temporaryFlag = FlagKey("temporary", help: "Delete the radios when waware exits; waits for Ctrl-C.")
}

/// The strings a command line gave each declared argument, before conversion to typed values.
struct ParsedValues: Sendable, Equatable {
    /// The words that led to the command (`["waware", "cluster", "start"]`).
    var commandPath: [String] = []
    /// Option values by long name; the last occurrence wins.
    var options: [String: String] = [:]
    /// Long names of the flags that were given.
    var flags: Set<String> = []
    /// Positional values by declared name.
    var positionals: [String: String] = [:]

    /// Whether the flag was given.
    func flag(_ key: FlagKey) -> Bool { flags.contains(key.spec.name) }

    /// The option's raw value, if given.
    func option(_ key: OptionKey) -> String? { options[key.spec.name] }

    /// The positional argument, if given.
    func positional(_ key: PositionalKey) -> String? { positionals[key.spec.name] }

    /// The option's value converted with `convert`.
    /// - Parameters:
    ///   - key: the option.
    ///   - expected: what a valid value looks like, for the error message (`"a number from 2 to 254"`).
    ///   - convert: returns `nil` for a value it cannot accept.
    /// - Returns: `nil` when the option was not given.
    /// - Throws: ``ValidationError`` naming the option when `convert` rejects the value.
    func option<T>(_ key: OptionKey, expected: String, _ convert: (String) -> T?) throws -> T? {
        let name = key.spec.name
        guard let raw = options[name] else { return nil }
        guard let value = convert(raw) else {
            throw ValidationError("invalid value '\(raw)' for --\(name): expected \(expected)")
        }
        return value
    }
}

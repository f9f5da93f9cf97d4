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

    /// Whether the flag `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The raw value of `--name`, if given.
    func option(_ name: String) -> String? { options[name] }

    /// The positional argument declared as `name`, if given.
    func positional(_ name: String) -> String? { positionals[name] }

    /// The value of `--name` converted with `convert`.
    /// - Parameters:
    ///   - name: the option's long name.
    ///   - expected: what a valid value looks like, for the error message (`"a number from 2 to 254"`).
    ///   - convert: returns `nil` for a value it cannot accept.
    /// - Returns: `nil` when the option was not given.
    /// - Throws: ``ValidationError`` naming the option when `convert` rejects the value.
    func option<T>(_ name: String, expected: String, _ convert: (String) -> T?) throws -> T? {
        guard let raw = options[name] else { return nil }
        guard let value = convert(raw) else {
            throw ValidationError("invalid value '\(raw)' for --\(name): expected \(expected)")
        }
        return value
    }
}

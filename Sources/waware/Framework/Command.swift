/// One `waware` command: how it is named and described, what arguments it takes, and what it does.
///
/// The shape follows swift-argument-parser without depending on it: a static ``configuration``, the
/// declared ``arguments``, an initialiser that converts parsed strings to typed values, ``validate()``
/// for checks across values, and ``run(_:)`` for the work. A command with subcommands and no work of its
/// own (`waware cluster`) keeps the default ``run(_:)``, which shows its help.
protocol Command: Sendable {
    /// Name, abstract, examples and subcommands.
    static var configuration: CommandConfiguration { get }
    /// The options, flags and positional arguments the command accepts, in the order help lists them.
    static var arguments: [ArgumentSpec] { get }
    /// Builds the command from the parsed command line.
    /// - Throws: ``ValidationError`` when a value cannot be converted.
    init(from values: ParsedValues) throws
    /// Checks the values together before anything runs.
    /// - Throws: ``ValidationError`` with a message naming the offending option.
    func validate() throws
    /// Does the work, writing results to `output`.
    /// - Throws: ``CommandFailure`` (or a library error, which the runner translates) on failure.
    func run(_ output: Output) async throws
}

extension Command {
    static var arguments: [ArgumentSpec] { [] }

    func validate() throws {}

    func run(_ output: Output) async throws {
        output.write(HelpFormatter.help(for: Self.self, path: Self.configuration.commandName))
    }
}

/// How a command presents itself in help and where it sits in the command tree.
struct CommandConfiguration: Sendable {
    /// The word that selects the command (`list`, `start`).
    var commandName: String
    /// One line saying what the command does.
    var abstract: String
    /// Longer explanation shown in the command's help, one paragraph per element.
    var discussion: [String] = []
    /// Worked examples shown in the command's help.
    var examples: [Example] = []
    /// The tool's version; only the root command has one, which makes `--version` available.
    var version: String? = nil
    /// Nested commands (`cluster start`, `sim add`).
    var subcommands: [any Command.Type] = []
}

/// A command line with a sentence saying what it does, for help output.
struct Example: Sendable, Equatable {
    /// The full command line, starting with `waware`.
    var command: String
    /// What running it does.
    var explanation: String

    /// Creates an example.
    init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}

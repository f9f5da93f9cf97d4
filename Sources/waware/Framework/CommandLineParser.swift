/// What a command line asks for, once the parser has read it.
enum Invocation {
    /// Run `command`, which was reached through `path` (`waware cluster start`).
    case run(any Command, path: String)
    /// Show the help of `command`.
    case help(any Command.Type, path: String)
    /// Print the version string.
    case version(String)
}

/// A command line the parser could not make sense of: a one-line message plus the command whose help
/// would explain it.
struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong (`unknown option '--frob'`).
    let message: String
    /// The command path to suggest `--help` for (`waware cluster start`).
    let helpPath: String

    var description: String { "\(message) (see '\(helpPath) --help')" }
}

/// Reads a command line against a tree of ``Command`` types.
///
/// Rules: subcommand words come first; then options (`--name value`, `--name=value`, `-n value`), flags and
/// positionals in any order; `--` ends options; `-h`/`--help` anywhere shows the help of the command reached
/// so far; `--version` is accepted by the root only.
enum CommandLineParser {
    /// Parses `arguments` (without the program name) starting at `root`.
    /// - Throws: ``UsageError`` for unknown commands and options and missing values, ``ValidationError``
    ///   when the command rejects a value.
    static func parse(_ arguments: [String], root: any Command.Type) throws -> Invocation {
        var command = root
        var path = [root.configuration.commandName]
        var index = 0

        // Walk down the subcommand tree.
        while !command.configuration.subcommands.isEmpty, index < arguments.count {
            let word = arguments[index]
            if isHelp(word) { return .help(command, path: path.joined(separator: " ")) }
            if word == "--version", let version = command.configuration.version { return .version(version) }
            if word.hasPrefix("-") {
                throw unknownOption(word, of: command, path: path)
            }
            let names = command.configuration.subcommands.map { $0.configuration.commandName }
            guard let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == word })
            else {
                var message = "unknown command '\(word)'"
                if let guess = closest(to: word, among: names) { message += "; did you mean '\(guess)'?" }
                throw UsageError(message: message, helpPath: path.joined(separator: " "))
            }
            command = next
            path.append(word)
            index += 1
        }

        let pathText = path.joined(separator: " ")
        if !command.configuration.subcommands.isEmpty { return .help(command, path: pathText) }

        let rest = Array(arguments[index...])
        if rest.prefix(while: { $0 != "--" }).contains(where: isHelp) { return .help(command, path: pathText) }

        var values = try readArguments(rest, of: command, path: path)
        values.commandPath = path
        let instance = try command.init(from: values)
        try instance.validate()
        return .run(instance, path: pathText)
    }

    /// Assigns each word after the command path to a declared option, flag or positional.
    static func readArguments(_ words: [String], of command: any Command.Type, path: [String]) throws -> ParsedValues {
        let specs = command.arguments
        let positionals = specs.filter { !$0.isNamed }
        let pathText = path.joined(separator: " ")
        var values = ParsedValues()
        var nextPositional = 0
        var optionsEnded = false
        var index = 0

        func takePositional(_ word: String) throws {
            guard nextPositional < positionals.count else {
                throw UsageError(message: "unexpected argument '\(word)'", helpPath: pathText)
            }
            values.positionals[positionals[nextPositional].name] = word
            nextPositional += 1
        }

        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                try takePositional(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }

            // Split "--name=value"; a short option never carries "=".
            var name: Substring
            var inlineValue: String?
            let spec: ArgumentSpec?
            if word.hasPrefix("--") {
                name = word.dropFirst(2)
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = name[..<equals]
                }
                spec = specs.first { $0.isNamed && $0.name == name }
            } else {
                name = word.dropFirst()
                spec = name.count == 1 ? specs.first { $0.isNamed && $0.short == name.first } : nil
            }
            guard let spec else { throw unknownOption(word, of: command, path: path) }

            switch spec.kind {
            case .flag:
                if inlineValue != nil {
                    throw UsageError(message: "flag '--\(spec.name)' takes no value", helpPath: pathText)
                }
                values.flags.insert(spec.name)
            case .option(let valueName):
                if let inlineValue {
                    values.options[spec.name] = inlineValue
                } else if index < words.count {
                    values.options[spec.name] = words[index]
                    index += 1
                } else {
                    throw UsageError(message: "missing value <\(valueName)> for '--\(spec.name)'", helpPath: pathText)
                }
            case .positional:
                throw unknownOption(word, of: command, path: path)
            }
        }

        if let missing = positionals.dropFirst(nextPositional).first(where: { $0.kind == .positional(optional: false) })
        {
            throw UsageError(message: "missing argument <\(missing.name)>", helpPath: pathText)
        }
        return values
    }

    private static func isHelp(_ word: String) -> Bool { word == "-h" || word == "--help" }

    private static func unknownOption(_ word: String, of command: any Command.Type, path: [String]) -> UsageError {
        var names = command.arguments.filter(\.isNamed).map { "--\($0.name)" } + ["--help"]
        if command.configuration.version != nil { names.append("--version") }
        let bare = String(word.split(separator: "=", maxSplits: 1).first ?? "")
        var message = "unknown option '\(bare)'"
        if let guess = closest(to: bare, among: names) { message += "; did you mean '\(guess)'?" }
        return UsageError(message: message, helpPath: path.joined(separator: " "))
    }

    /// The candidate nearest to `word` by edit distance, if it is near enough to be a plausible typo.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, min(word.count, best.0.count) / 3) ? best.0 : nil
    }

    /// Edit distance between two strings, by characters: insertions, deletions, substitutions and swaps of
    /// two neighbours each count 1 (optimal string alignment), so `lsit` is one edit from `list`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}

/// Renders a command's `--help` text from its configuration and declared arguments.
enum HelpFormatter {
    /// Column where option and subcommand descriptions start.
    private static let column = 28

    /// The full help of `command`, reached through `path` (`waware cluster start`).
    static func help(for command: any Command.Type, path: String) -> String {
        let configuration = command.configuration
        var lines: [String] = []
        lines.append("OVERVIEW: \(configuration.abstract)")
        lines.append("")
        lines.append("USAGE: \(usage(for: command, path: path))")
        for paragraph in configuration.discussion {
            lines.append("")
            lines.append(contentsOf: wrap(paragraph, width: 100, indent: ""))
        }

        let positionals = command.arguments.filter { !$0.isNamed }
        if !positionals.isEmpty {
            lines.append("")
            lines.append("ARGUMENTS:")
            for spec in positionals { lines.append(row("<\(spec.name)>", spec.help)) }
        }

        lines.append("")
        lines.append("OPTIONS:")
        for spec in command.arguments where spec.isNamed {
            var label = spec.short.map { "-\($0), " } ?? ""
            label += "--\(spec.name)"
            if case .option(let value) = spec.kind { label += " <\(value)>" }
            lines.append(row(label, spec.help))
        }
        if configuration.version != nil { lines.append(row("--version", "Show the version.")) }
        lines.append(row("-h, --help", "Show help information."))

        if !configuration.subcommands.isEmpty {
            lines.append("")
            lines.append("SUBCOMMANDS:")
            for sub in configuration.subcommands {
                lines.append(row(sub.configuration.commandName, sub.configuration.abstract))
            }
            lines.append("")
            lines.append("  See '\(path) <subcommand> --help' for detailed help.")
        }

        if !configuration.examples.isEmpty {
            lines.append("")
            lines.append("EXAMPLES:")
            for example in configuration.examples {
                lines.append("  \(example.command)")
                lines.append(contentsOf: wrap(example.explanation, width: 100, indent: "      "))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The one-line synopsis: `waware cluster start [--adapter <adapter>] ...` or `waware sim <subcommand>`.
    static func usage(for command: any Command.Type, path: String) -> String {
        if !command.configuration.subcommands.isEmpty {
            let version = command.configuration.version != nil ? " [--version]" : ""
            return "\(path) <subcommand>\(version)"
        }
        let named = command.arguments.filter(\.isNamed).map(\.usageFragment)
        let positional = command.arguments.filter { !$0.isNamed }.map(\.usageFragment)
        return ([path] + positional + named).joined(separator: " ")
    }

    private static func row(_ label: String, _ text: String) -> String {
        let lead = "  " + label
        if lead.count < column - 1 {
            return lead + String(repeating: " ", count: column - lead.count) + text
        }
        return lead + "\n" + String(repeating: " ", count: column) + text
    }

    /// Splits `text` into lines of at most `width` characters at spaces, each prefixed with `indent`.
    static func wrap(_ text: String, width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !current.isEmpty, indent.count + current.count + 1 + word.count > width {
                lines.append(indent + current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(indent + current) }
        return lines
    }
}

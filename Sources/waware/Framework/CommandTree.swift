/// One command of the tree as a user types it: the words that reach it and its type.
struct CommandTreeEntry: Sendable {
    /// The words from the root, the root included (`["waware", "cluster", "start"]`).
    let path: [String]
    /// The command those words select.
    let command: any Command.Type

    /// The path as typed (`waware cluster start`).
    var pathText: String { path.joined(separator: " ") }
    /// The words after the root (`["cluster", "start"]`); empty for the root.
    var subcommandWords: [String] { Array(path.dropFirst()) }
}

/// Walks the command tree declared by ``CommandConfiguration/subcommands``, so that help, shell completions
/// and the manual page all come from the same declarations.
enum CommandTree {
    /// Every command under `root`, the root first, each parent before its subcommands, siblings in
    /// declaration order.
    static func entries(from root: any Command.Type) -> [CommandTreeEntry] {
        var result: [CommandTreeEntry] = []
        func visit(_ command: any Command.Type, _ path: [String]) {
            result.append(CommandTreeEntry(path: path, command: command))
            for sub in command.configuration.subcommands {
                visit(sub, path + [sub.configuration.commandName])
            }
        }
        visit(root, [root.configuration.commandName])
        return result
    }
}

/// `waware completions`: prints a shell completion script generated from the command declarations.
struct CompletionsCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "completions",
        abstract: "Print a completion script for bash, zsh or fish.",
        discussion: [
            "The script is generated from the same declarations as --help, so it always knows every command and "
                + "option of this version. It completes subcommands and options; option values complete as file names."
        ],
        examples: [
            Example(
                "waware completions bash > /etc/bash_completion.d/waware", "Install bash completion for every user."),
            Example("waware completions zsh > /usr/local/share/zsh/site-functions/_waware", "Install zsh completion."),
            Example(
                "waware completions fish > ~/.config/fish/completions/waware.fish", "Install fish completion for you."),
        ]
    )

    static let arguments: [ArgumentSpec] = [Self.shellPositional.spec]

    static let shellPositional = PositionalKey("shell", help: "bash, zsh or fish.")

    /// The shell to generate for.
    var shell: CompletionScript.Shell

    init(from values: ParsedValues) throws {
        let word = values.positional(Self.shellPositional) ?? ""
        guard let shell = CompletionScript.Shell(rawValue: word) else {
            let known = CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError(
                "unknown shell '\(TerminalText.escaped(String(word.prefix(40))))': expected one of \(known)")
        }
        self.shell = shell
    }

    func run(_ output: Output) async throws {
        output.write(CompletionScript.script(for: shell, root: Waware.self))
    }
}

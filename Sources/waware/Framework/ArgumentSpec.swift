/// The declaration of one option, flag or positional argument of a command.
struct ArgumentSpec: Sendable, Equatable {
    /// What kind of argument this is.
    enum Kind: Sendable, Equatable {
        /// `--name <value>` or `--name=<value>`; `valueName` is shown in help.
        case option(valueName: String)
        /// `--name` with no value.
        case flag
        /// A bare word in a fixed position; an optional one may be left out.
        case positional(optional: Bool)
    }

    /// The long name without dashes (`master-pref`), or the positional's name as help shows it.
    let name: String
    /// The one-letter alias (`-a`), if any.
    let short: Character?
    /// Option, flag or positional.
    let kind: Kind
    /// One line for the help text.
    let help: String

    /// The `--json` flag shared by every command that prints data.
    static let json = FlagKey.json.spec

    /// `true` for options and flags, `false` for positionals.
    var isNamed: Bool {
        if case .positional = kind { return false }
        return true
    }

    /// How the argument appears in a usage line: `[--json]`, `[--adapter <adapter>]`, `<adapter>`.
    var usageFragment: String {
        switch kind {
        case .flag: return "[--\(name)]"
        case .option(let value): return "[--\(name) <\(value)>]"
        case .positional(let optional): return optional ? "[<\(name)>]" : "<\(name)>"
        }
    }
}

/// A declared `--name <value>` option: declared once as a static value, listed in a command's
/// `arguments` by its ``spec`` and read with ``ParsedValues/option(_:)``. A misspelt key does not compile.
struct OptionKey: Sendable {
    /// The declaration (name, alias, help).
    let spec: ArgumentSpec

    /// Declares `--name <value>`.
    init(_ name: String, short: Character? = nil, value: String, help: String) {
        spec = ArgumentSpec(name: name, short: short, kind: .option(valueName: value), help: help)
    }

    /// The `--adapter` option shared by the commands that run on one adapter.
    static let adapter = OptionKey(
        "adapter", short: "a", value: "adapter", help: "Phy name, wiphy index or interface name.")
}

/// A declared `--name` flag: see ``OptionKey``; read with ``ParsedValues/flag(_:)``.
struct FlagKey: Sendable {
    /// The declaration (name, alias, help).
    let spec: ArgumentSpec

    /// Declares `--name`.
    init(_ name: String, short: Character? = nil, help: String) {
        spec = ArgumentSpec(name: name, short: short, kind: .flag, help: help)
    }

    /// The `--json` flag shared by every command that prints data.
    static let json = FlagKey("json", help: "Print JSON (one object per line) instead of text.")
}

/// A declared positional argument: see ``OptionKey``; read with ``ParsedValues/positional(_:)``.
struct PositionalKey: Sendable {
    /// The declaration (name, help).
    let spec: ArgumentSpec

    /// Declares a positional argument; an optional one may be left out.
    init(_ name: String, optional: Bool = false, help: String) {
        spec = ArgumentSpec(name: name, short: nil, kind: .positional(optional: optional), help: help)
    }
}

internal import FoundationEssentials

/// The XDG base directories waware uses, resolved from an environment (so tests can pass their own).
enum XDGDirectory {
    /// `$XDG_CONFIG_HOME`, default `~/.config`: the services file.
    case config
    /// `$XDG_STATE_HOME`, default `~/.local/state`: the paired-device store.
    case state

    /// The base directory, or `nil` if neither the XDG variable nor `HOME` gives an absolute path.
    func base(in environment: [String: String]) -> URL? {
        let (variable, fallback) =
            switch self {
            case .config: ("XDG_CONFIG_HOME", ".config")
            case .state: ("XDG_STATE_HOME", ".local/state")
            }
        // The XDG spec says relative paths in these variables are invalid and must be ignored.
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback, isDirectory: true)
        }
        return nil
    }
}

import FoundationEssentials
@_spi(Tools) import WiFiAware

/// Where the tool takes secrets from besides the command line, which every local user can read
/// (`/proc/PID/cmdline`): a file, the environment (`WAWARE_PASSPHRASE`, `WAWARE_PMK`, `WAWARE_PIN`), and where
/// it warns. Commands use ``current``; tests give their own.
struct SecretInput: Sendable {
    /// The process environment.
    var environment: [String: String]
    /// Prints one warning line (without `waware: warning: `).
    var warn: @Sendable (String) -> Void

    /// This process: its environment, warnings on standard error.
    static var current: SecretInput {
        SecretInput(environment: ProcessInfo.processInfo.environment) { message in
            try? ToolStream.standardError.write("waware: warning: \(message)\n")
        }
    }

    /// The largest secret file read: a passphrase is at most 63 bytes, a PMK 64 hex digits.
    static let maximumFileSize = 4096

    /// The environment variable `name`, nil when unset or empty.
    func variable(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// The contents of the file `path` given to `option` (a symbolic link is followed; a FIFO, device or
    /// folder is refused, and so is anything over ``maximumFileSize``).
    ///
    /// - Throws: ``ValidationError`` in one line naming the option, the path and why (a usage error).
    func file(_ path: String, for option: String) throws -> [UInt8] {
        guard !path.isEmpty else { throw ValidationError("\(option) needs the path of a file") }
        do {
            return try ToolFile.read(path, limit: Self.maximumFileSize, what: option)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// A file's text: UTF-8, without one trailing line break (`\n` or `\r\n`).
    ///
    /// - Throws: ``ValidationError`` when it is not UTF-8.
    func textFile(_ path: String, for option: String) throws -> String {
        var bytes = try file(path, for: option)
        if bytes.last == 0x0a { bytes.removeLast(); if bytes.last == 0x0d { bytes.removeLast() } }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ValidationError("\(option) \(path) is not UTF-8 text")
        }
        return text
    }

    /// Warns that `option` put a secret where every local user can read it, and says what to use instead.
    func warnCommandLine(_ option: String, instead: String) {
        warn(
            "\(option) on the command line can be read by every local user (/proc/PID/cmdline); use \(instead) instead")
    }
}

@_spi(Tools) import WiFiAware

/// Turns any error a command throws into the one line the user sees and the status the tool exits with.
///
/// Every library error comes as a ``WAError`` (``WAError/tool(_:)`` words the failures of the layers below);
/// here each code that a user or script may want to tell apart gets its own ``ExitCode``.
enum ErrorTranslation {
    /// The message and exit code for `error`.
    static func failure(for error: any Error) -> CommandFailure {
        switch error {
        case let failure as CommandFailure:
            return failure
        case let validation as ValidationError:
            return CommandFailure(validation.message, code: .usage)
        case let usage as UsageError:
            return CommandFailure(usage.description, code: .usage)
        case is CancellationError:
            return CommandFailure("interrupted", code: .failure)
        default:
            // A library error: its message, and the exit code its code stands for (the code says it all).
            let error = WAError.tool(error)
            return CommandFailure(error.message, code: exitCode(for: error.code))
        }
    }

    /// The documented exit code of a WAError code.
    static func exitCode(for code: WAError.Code) -> ExitCode {
        switch code {
        case .permissionDenied: .permissionDenied
        case .adapterNotFound: .adapterNotFound
        case .wifiAwareUnsupported: .nanUnsupported
        case .deviceRemoved: .deviceRemoved
        case .nl80211Unavailable: .nl80211Unavailable
        case .alreadyRunning: .nanAlreadyRunning
        case .ambiguousAdapter: .usage
        case .hwsimNotLoaded: .hwsimNotLoaded
        case .hwsimWithoutNAN: .hwsimWithoutNAN
        default: .failure
        }
    }
}

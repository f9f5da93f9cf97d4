import NANSystem
import WiFiAware

/// Turns any error a command throws into the one line the user sees and the status the tool exits with.
///
/// The library's ``NetlinkError`` carries a code, the errno and the kernel's own message; here each code
/// that a user or script may want to tell apart gets its own ``ExitCode`` and a message saying what to do.
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
        case let netlink as NetlinkError:
            return failure(for: netlink)
        case let error as WAError:
            return failure(for: error)
        case is CancellationError:
            return CommandFailure("interrupted", code: .failure)
        default:
            return CommandFailure(String(describing: error), code: .failure)
        }
    }

    /// A library error: its message, and the exit code its code stands for (nothing is unwrapped: the
    /// code says it all).
    static func failure(for error: WAError) -> CommandFailure {
        CommandFailure(error.message, code: exitCode(for: error.code))
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
        default: .failure
        }
    }

    static func failure(for error: NetlinkError) -> CommandFailure {
        let kernelSays = error.kernelMessage.map { " (kernel: \($0))" } ?? ""
        switch error.code {
        case .familyNotFound:
            return CommandFailure(
                "this kernel has no nl80211 (cfg80211 is not loaded or not built), so there is no Wi-Fi to use",
                code: .nl80211Unavailable)
        case .permissionDenied:
            return CommandFailure(
                "\(error.call) was refused: not permitted; run as root or with CAP_NET_ADMIN\(kernelSays)",
                code: .permissionDenied)
        case .hwsimNotLoaded:
            return CommandFailure(
                "the mac80211_hwsim module is not loaded; run 'modprobe mac80211_hwsim radios=0' first",
                code: .hwsimNotLoaded)
        case .hwsimWithoutNAN:
            return CommandFailure(
                "this kernel's mac80211_hwsim cannot create NAN radios; it needs Linux 7.2 or newer",
                code: .hwsimWithoutNAN)
        case .alreadyRunning:
            return CommandFailure(
                "NAN is already running on this adapter; stop it with 'waware cluster stop'\(kernelSays)",
                code: .nanAlreadyRunning)
        case .noSuchDevice:
            return CommandFailure(
                "the adapter or interface is gone (removed or renamed); see 'waware list'\(kernelSays)",
                code: .adapterNotFound)
        default:
            return CommandFailure(error.description, code: .failure)
        }
    }
}

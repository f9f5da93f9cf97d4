import NANEngine
import NANSystem

extension WAError {
    /// Turns an error from the layers below (netlink, the discovery engine) into a WAError; a WAError
    /// passes through, anything else becomes a `kernel` error carrying it.
    ///
    /// - Parameters:
    ///   - error: The error thrown below.
    ///   - operation: What was being done, e.g. "start NAN on phy0".
    static func from(_ error: any Error, while operation: String) -> WAError {
        switch error {
        case let error as WAError:
            return error
        case let error as NetlinkError:
            return from(error, while: operation)
        case let error as DiscoveryError:
            return from(error)
        case let error as DataPathError:
            return from(error, while: operation)
        default:
            return WAError(.kernel, message: "cannot \(operation): \(error)", underlying: error)
        }
    }

    /// Maps a netlink failure: by errno where the kernel gave one (see ``kernel(_:errno:kernelMessage:underlying:)``),
    /// otherwise by the netlink error's code.
    static func from(_ error: NetlinkError, while operation: String) -> WAError {
        if error.code == .familyNotFound {
            return WAError(
                .nl80211Unavailable,
                message:
                    "cannot \(operation): this kernel has no nl80211 (cfg80211 is not loaded), so no Wi-Fi adapter "
                    + "can be used", underlying: error)
        }
        if let number = error.errno ?? Self.errno(for: error.code) {
            if error.code == .alreadyRunning {
                return WAError(
                    .alreadyRunning,
                    message: "cannot \(operation): NAN is already running on this adapter (another program uses it); "
                        + "stop it first", errno: number.rawValue, kernelMessage: error.kernelMessage, underlying: error
                )
            }
            return kernel(operation, errno: number, kernelMessage: error.kernelMessage, underlying: error)
        }
        return WAError(
            .kernel, message: "cannot \(operation): \(error)", kernelMessage: error.kernelMessage, underlying: error)
    }

    /// Maps a data-path failure by its code; a kernel step's keeps its errno.
    static func from(_ error: DataPathError, while operation: String) -> WAError {
        let code: Code =
            switch error.code {
            case .notSupported, .noSecureNAN: .wifiAwareUnsupported
            case .tooManyDataPaths: .noRadioResources
            case .stopped: .connectionTerminated
            default: error.errno.map { $0.isPermissionDenied ? .permissionDenied : .kernel } ?? .kernel
            }
        return WAError(code, message: "cannot \(operation): \(error)", errno: error.errno?.rawValue, underlying: error)
    }

    /// The errno a netlink code stands for, when the error did not carry one.
    private static func errno(for code: NetlinkError.Code) -> Errno? {
        switch code {
        case .permissionDenied: .notPermitted
        case .noSuchDevice: .noSuchDevice
        case .notSupported: .notSupported
        case .busy: .busy
        case .alreadyRunning: .fileExists
        default: nil
        }
    }

    /// Maps a discovery engine failure.
    static func from(_ error: DiscoveryError) -> WAError {
        let code: Code
        switch error.code {
        case .tooManyServices: code = .noRadioResources
        case .sessionEnded, .engineStopped: code = .connectionTerminated
        case .offloadUnavailable: code = .wifiAwareUnsupported
        case .noCluster: code = .kernel
        default: code = .invalidArgument  // too long, no publish type: values the caller chose
        }
        return WAError(code, message: error.message, underlying: error)
    }
}

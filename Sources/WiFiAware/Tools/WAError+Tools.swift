import NANSystem

extension WAError {
    /// `error` in the tool's words: a WAError as it is; a netlink failure saying what to do, with the code a
    /// user or script may want to tell apart (the simulated radios' own ones too); anything else with its
    /// description, as a `kernel` error.
    @_spi(Tools) public static func tool(_ error: any Error) -> WAError {
        guard let netlink = error as? NetlinkError else {
            return error as? WAError ?? WAError(.kernel, message: String(describing: error), underlying: error)
        }
        let kernelSays = netlink.kernelMessage.map { " (kernel: \($0))" } ?? ""
        switch netlink.code {
        case .familyNotFound:
            return WAError(.nl80211Unavailable, underlying: netlink)
        case .permissionDenied:
            return WAError(
                .permissionDenied,
                message: "\(netlink.call) was refused: not permitted; run as root or with CAP_NET_ADMIN\(kernelSays)",
                underlying: netlink)
        case .hwsimNotLoaded:
            return WAError(.hwsimNotLoaded, underlying: netlink)
        case .hwsimWithoutNAN:
            return WAError(.hwsimWithoutNAN, underlying: netlink)
        case .alreadyRunning:
            return WAError(
                .alreadyRunning,
                message: "NAN is already running on this adapter; stop it with 'waware cluster stop'\(kernelSays)",
                underlying: netlink)
        case .noSuchDevice:
            return WAError(
                .adapterNotFound,
                message: "the adapter or interface is gone (removed or renamed); see 'waware list'\(kernelSays)",
                underlying: netlink)
        default:
            return WAError(.kernel, message: netlink.description, underlying: netlink)
        }
    }
}

internal import NANSystem

extension WAError {
    /// Turns a failed kernel request into a WAError a user can act on. Errnos with a clear meaning
    /// get their own code (permission, missing adapter, no NAN support); the rest are `kernel` errors.
    ///
    /// - Parameters:
    ///   - operation: What was asked of the kernel, e.g. "start NAN on wdev 0x1".
    ///   - errno: The errno the kernel returned.
    ///   - kernelMessage: The kernel's extended-ack text, if any.
    ///   - underlying: The lower-level error.
    static func kernel(
        _ operation: String, errno: Errno, kernelMessage: String?, underlying: (any Error)? = nil
    ) -> WAError {
        let said = kernelMessage.map { "; the kernel says: \($0)" } ?? ""
        let code: Code
        let advice: String
        switch errno {
        case .notPermitted, .accessDenied:
            code = .permissionDenied
            advice = "; this needs CAP_NET_ADMIN: run as root or `sudo setcap cap_net_admin+ep <program>`"
        case .noSuchDevice:
            code = .adapterNotFound
            advice = "; the adapter is gone or was never there: list adapters with `waware list`"
        case .notSupported:
            code = .wifiAwareUnsupported
            advice = "; the driver does not support this NAN operation"
        default:
            code = .kernel
            advice = ""
        }
        return WAError(
            code, message: "cannot \(operation): \(errno)\(said)\(advice)",
            errno: errno.rawValue, kernelMessage: kernelMessage, underlying: underlying)
    }
}

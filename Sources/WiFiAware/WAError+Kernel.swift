extension WAError {
    /// Turns a failed kernel request into a WAError a user can act on. Errnos with a clear meaning
    /// get their own code (permission, missing adapter, no NAN support); the rest are `kernel` errors.
    ///
    /// - Parameters:
    ///   - operation: What was asked of the kernel, e.g. "start NAN on wdev 0x1".
    ///   - errno: The positive errno the kernel returned.
    ///   - kernelMessage: The kernel's extended-ack text, if any.
    ///   - underlying: The lower-level error.
    static func kernel(
        _ operation: String, errno: Int32, kernelMessage: String?, underlying: (any Error)? = nil
    ) -> WAError {
        let said = kernelMessage.map { "; the kernel says: \($0)" } ?? ""
        let code: Code
        let advice: String
        switch errno {
        case 1, 13:  // EPERM, EACCES
            code = .permissionDenied
            advice = "; this needs CAP_NET_ADMIN: run as root or `sudo setcap cap_net_admin+ep <program>`"
        case 19:  // ENODEV
            code = .adapterNotFound
            advice = "; the adapter is gone or was never there: list adapters with `waware list`"
        case 95:  // EOPNOTSUPP
            code = .wifiAwareUnsupported
            advice = "; the driver does not support this NAN operation"
        default:
            code = .kernel
            advice = ""
        }
        return WAError(
            code, message: "cannot \(operation): \(errnoText(errno))\(said)\(advice)",
            errno: errno, kernelMessage: kernelMessage, underlying: underlying)
    }
}

import NANSystem

/// How a ``WASystem`` discovers services: in a NAN cluster, or by unsynchronized service discovery (USD).
public enum WATransport: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Synchronized NAN: join a cluster, discovery windows, data paths, pairing. Needs a driver with NAN.
    case synchronized
    /// Unsynchronized service discovery (Wi-Fi Aware 4.0 USD): publish, subscribe and follow-ups in action
    /// frames on an ordinary station interface, on one channel (2437 MHz), without a cluster. Needs only
    /// remain-on-channel and action frames, which nearly every driver has; no data path, no pairing.
    case unsynchronized
    /// Synchronized when the adapter has NAN, unsynchronized otherwise.
    case automatic

    /// `synchronized`, `unsynchronized`, `automatic`.
    public var description: String { rawValue }

    /// The transport to use on `adapter`: `.automatic` resolved, and the adapter checked for it.
    /// - Throws: ``WAError`` `wifiAwareUnsupported` with the reason when the adapter cannot do it.
    func resolved(for adapter: Adapter) throws(WAError) -> WATransport {
        switch self {
        case .synchronized:
            try AdapterSelection.requireNAN(adapter)
            return .synchronized
        case .unsynchronized:
            if let reason = adapter.usd.unsupportedReason {
                throw WAError(.wifiAwareUnsupported, message: "\(adapter.name) cannot do USD: \(reason)")
            }
            return .unsynchronized
        case .automatic:
            if adapter.nan.isSupported { return .synchronized }
            if let reason = adapter.usd.unsupportedReason {
                throw WAError(
                    .wifiAwareUnsupported,
                    message:
                        "\(adapter.name) has neither NAN (\(adapter.nan.unsupportedReason ?? "")) nor USD (\(reason))")
            }
            return .unsynchronized
        }
    }

    /// Checks that a publisher or subscriber (`role`) asking for this transport can run on a system that runs
    /// `system` on `adapter`. A ``WASystem`` runs one transport, so a session may ask for that one or for
    /// `.automatic` (whatever the system runs).
    /// - Throws: ``WAError`` `invalidArgument` naming both transports and how to get the one asked for.
    func admitSession(_ role: String, on system: WATransport, adapter: String) throws(WAError) {
        guard self != .automatic, self != system else { return }
        throw WAError(
            .invalidArgument,
            message:
                "this \(role) asks for the \(self) transport, but the system on \(adapter) runs \(system) "
                + "(\(system == .unsynchronized ? "USD" : "NAN")): a WASystem runs one transport; run another "
                + "WASystem with WASystemOptions.transport = .\(self) for it")
    }
}

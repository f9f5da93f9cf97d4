import NANSystem

/// Reads the adapters from the kernel for `waware list`, `info` and `probe`.
@_spi(Tools) public enum AdapterDirectory {
    /// Every adapter as the tool reports it, in wiphy order.
    /// - Throws: NANSystem's `NetlinkError` `familyNotFound` when the kernel has no nl80211 (``WAError/tool(_:)``
    ///   words it).
    public static func reports() async throws -> [AdapterReport] {
        try await NL80211.withSession { session in
            try await session.adapters().sorted { $0.wiphy < $1.wiphy }.map(AdapterReport.init)
        }
    }

    /// The adapter `reference` names, or the default one, by ``WASystem``'s rule.
    /// - Throws: ``WAError`` `adapterNotFound`, `wifiAwareUnsupported` or `ambiguousAdapter` (the message says
    ///   which adapters there are); what ``reports()`` throws.
    public static func report(for reference: String?) async throws -> AdapterReport {
        try await NL80211.withSession { session in
            AdapterReport(try AdapterSelection.select(reference, from: try await session.adapters()))
        }
    }
}

import NANSystem

/// Reads the adapters from the kernel for `list`, `info` and `probe`.
enum AdapterDirectory {
    /// Every adapter as the tool reports it, in wiphy order.
    /// - Throws: ``NetlinkError`` `familyNotFound` when the kernel has no nl80211.
    static func reports() async throws -> [AdapterReport] {
        try await NL80211.withSession { session in
            try await session.adapters().sorted { $0.wiphy < $1.wiphy }.map(AdapterReport.init)
        }
    }
}

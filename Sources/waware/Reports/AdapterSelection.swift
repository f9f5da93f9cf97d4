/// Picks the adapter a command should act on, from what the user typed and the adapters present.
///
/// `--adapter` (or a positional) may be a phy name (`phy0`), a wiphy index (`0`), an interface name
/// (`wlan0`, `nan0`) or a sysfs path ending in one of those (`/sys/class/ieee80211/phy0`). Without it, the
/// only adapter is used if there is exactly one, else the only NAN-capable one.
enum AdapterSelection {
    /// The adapter `reference` names, or the default one when `reference` is `nil`.
    /// - Throws: ``CommandFailure`` with ``ExitCode/adapterNotFound`` when nothing matches or there are no
    ///   adapters, ``ExitCode/nanUnsupported`` when a default is needed and no adapter has NAN, and
    ///   ``ExitCode/usage`` when several NAN adapters make the default ambiguous (the message lists them).
    static func select(_ reference: String?, from adapters: [AdapterReport]) throws -> AdapterReport {
        guard let reference else { return try defaultAdapter(from: adapters) }
        let name = lastPathComponent(of: reference)

        if let match = adapters.first(where: { $0.phy == name }) { return match }
        if let index = UInt32(name), let match = adapters.first(where: { $0.wiphy == index }) { return match }
        if let match = adapters.first(where: { $0.interfaces.contains { $0.name == name } }) { return match }

        let known = adapters.isEmpty ? "there are no Wi-Fi adapters" : "adapters: \(names(adapters))"
        throw CommandFailure(
            "no adapter '\(reference)': not a phy name, wiphy index or interface name (\(known))",
            code: .adapterNotFound)
    }

    /// The only adapter, or else the only NAN-capable adapter.
    static func defaultAdapter(from adapters: [AdapterReport]) throws -> AdapterReport {
        if adapters.isEmpty {
            throw CommandFailure(
                "no Wi-Fi adapters found (for simulated ones: 'waware sim add')", code: .adapterNotFound)
        }
        if adapters.count == 1, let only = adapters.first { return only }
        let capable = adapters.filter(\.nan.supported)
        if capable.count == 1, let only = capable.first { return only }
        if capable.isEmpty {
            throw CommandFailure(
                "none of the adapters has NAN (\(names(adapters))); see 'waware list'", code: .nanUnsupported)
        }
        throw CommandFailure(
            "several adapters have NAN (\(names(capable))); choose one with --adapter", code: .usage)
    }

    /// Throws unless `adapter` can run NAN.
    /// - Throws: ``CommandFailure`` with ``ExitCode/nanUnsupported`` and the reason.
    static func requireNAN(_ adapter: AdapterReport) throws {
        guard adapter.nan.supported else {
            throw CommandFailure("\(adapter.phy) has no NAN: \(adapter.nan.summary)", code: .nanUnsupported)
        }
    }

    /// `reference` without any leading directories (`/sys/class/ieee80211/phy0/` → `phy0`).
    static func lastPathComponent(of reference: String) -> String {
        guard reference.contains("/") else { return reference }
        return reference.split(separator: "/").last.map(String.init) ?? reference
    }

    private static func names(_ adapters: [AdapterReport]) -> String {
        adapters.map(\.phy).joined(separator: ", ")
    }
}

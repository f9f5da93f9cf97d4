import NANSystem

/// The one rule for choosing the adapter a program acts on, for ``WASystem`` and the tool alike, with the one
/// wording of its failures: a reference may be a phy name (`phy0`), a wiphy index (`0`), an interface name
/// (`wlan0`, `nan0`) or a path ending in one of those (`/sys/class/ieee80211/phy0`), tried in that order.
/// Without one, the only adapter is chosen if there is exactly one, else the only NAN-capable one.
enum AdapterSelection {
    /// The adapter `reference` names, or the default one when `reference` is `nil`.
    /// - Throws: ``WAError`` `adapterNotFound` when nothing matches or there are no adapters,
    ///   `wifiAwareUnsupported` when a default is needed and no adapter has NAN, and `ambiguousAdapter` when
    ///   several NAN adapters make the default ambiguous (the message lists them).
    static func select(_ reference: String?, from adapters: [Adapter]) throws(WAError) -> Adapter {
        let names = { (list: [Adapter]) in list.map(\.name).joined(separator: ", ") }
        guard let reference else {
            if adapters.count == 1, let only = adapters.first { return only }
            let capable = adapters.filter(\.nan.isSupported)
            if capable.count == 1, let only = capable.first { return only }
            if adapters.isEmpty {
                throw WAError(
                    .adapterNotFound, message: "no Wi-Fi adapters found (for simulated ones: 'waware sim add')")
            }
            if capable.isEmpty {
                throw WAError(
                    .wifiAwareUnsupported,
                    message: "none of the adapters has NAN (\(names(adapters))); see 'waware list'")
            }
            throw WAError(
                .ambiguousAdapter, message: "several adapters have NAN (\(names(capable))); choose one with --adapter")
        }
        let name =
            reference.contains("/") ? reference.split(separator: "/").last.map(String.init) ?? reference : reference
        if let match = adapters.first(where: { $0.name == name }) { return match }
        if let index = UInt32(name), let match = adapters.first(where: { $0.wiphy.rawValue == index }) { return match }
        if let match = adapters.first(where: { $0.interfaces.contains { $0.name == name } }) { return match }
        let known = adapters.isEmpty ? "there are no Wi-Fi adapters" : "adapters: \(names(adapters))"
        throw WAError(
            .adapterNotFound,
            message: "no adapter '\(reference)': not a phy name, wiphy index or interface name (\(known))")
    }

    /// Throws unless `adapter` can run NAN.
    /// - Throws: ``WAError`` `wifiAwareUnsupported` with the reason.
    static func requireNAN(_ adapter: Adapter) throws(WAError) {
        if let reason = adapter.nan.unsupportedReason {
            throw WAError(.wifiAwareUnsupported, message: "\(adapter.name) has no NAN: \(reason)")
        }
    }
}

import NANSystem

/// Picks the adapter a command should act on, from what the user typed and the adapters present, with the
/// rule the WiFiAware API uses too (`NANSystem.AdapterChoice`): `--adapter` (or a positional) may be a phy
/// name (`phy0`), a wiphy index (`0`), an interface name (`wlan0`, `nan0`) or a sysfs path ending in one of
/// those (`/sys/class/ieee80211/phy0`). Without it, the only adapter is used if there is exactly one, else
/// the only NAN-capable one. Here the failures get the CLI's words and exit codes.
enum AdapterSelection {
    /// The adapter `reference` names, or the default one when `reference` is `nil`.
    /// - Throws: ``CommandFailure`` with ``ExitCode/adapterNotFound`` when nothing matches or there are no
    ///   adapters, ``ExitCode/nanUnsupported`` when a default is needed and no adapter has NAN, and
    ///   ``ExitCode/usage`` when several NAN adapters make the default ambiguous (the message lists them).
    static func select(_ reference: String?, from adapters: [AdapterReport]) throws -> AdapterReport {
        switch AdapterChoice.choose(reference, from: adapters) {
        case .chosen(let adapter):
            return adapter
        case .notFound(let reference):
            let known = adapters.isEmpty ? "there are no Wi-Fi adapters" : "adapters: \(names(adapters))"
            throw CommandFailure(
                "no adapter '\(reference)': not a phy name, wiphy index or interface name (\(known))",
                code: .adapterNotFound)
        case .noAdapters:
            throw CommandFailure(
                "no Wi-Fi adapters found (for simulated ones: 'waware sim add')", code: .adapterNotFound)
        case .noneWithNAN:
            throw CommandFailure(
                "none of the adapters has NAN (\(names(adapters))); see 'waware list'", code: .nanUnsupported)
        case .severalWithNAN(let capable):
            throw CommandFailure(
                "several adapters have NAN (\(names(capable))); choose one with --adapter", code: .usage)
        }
    }

    /// Throws unless `adapter` can run NAN.
    /// - Throws: ``CommandFailure`` with ``ExitCode/nanUnsupported`` and the reason.
    static func requireNAN(_ adapter: AdapterReport) throws {
        guard adapter.nan.supported else {
            throw CommandFailure("\(adapter.phy) has no NAN: \(adapter.nan.summary)", code: .nanUnsupported)
        }
    }

    private static func names(_ adapters: [AdapterReport]) -> String {
        adapters.map(\.phy).joined(separator: ", ")
    }
}

extension AdapterReport: AdapterCandidate {
    var candidatePhyName: String { phy }
    var candidateWiphy: UInt32 { wiphy }
    var candidateInterfaceNames: [String] { interfaces.compactMap(\.name) }
    var candidateSupportsNAN: Bool { nan.supported }
}

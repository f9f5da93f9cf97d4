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
        let choice = AdapterChoice.choose(reference, from: adapters)
        let code: ExitCode
        switch choice {
        case .chosen(let adapter): return adapter
        case .notFound, .noAdapters: code = .adapterNotFound
        case .noneWithNAN: code = .nanUnsupported
        case .severalWithNAN: code = .usage
        }
        throw CommandFailure(choice.failureMessage(among: adapters) ?? "no adapter was chosen", code: code)
    }

    /// Throws unless `adapter` can run NAN.
    /// - Throws: ``CommandFailure`` with ``ExitCode/nanUnsupported`` and the reason.
    static func requireNAN(_ adapter: AdapterReport) throws {
        guard adapter.nan.supported else {
            throw CommandFailure("\(adapter.phy) has no NAN: \(adapter.nan.summary)", code: .nanUnsupported)
        }
    }
}

extension AdapterReport: AdapterCandidate {
    var candidatePhyName: String { phy }
    var candidateWiphy: UInt32 { wiphy }
    var candidateInterfaceNames: [String] { interfaces.compactMap(\.name) }
    var candidateSupportsNAN: Bool { nan.supported }
}

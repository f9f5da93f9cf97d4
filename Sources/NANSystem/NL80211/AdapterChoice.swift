/// What the adapter-choice rule needs to know of an adapter, whatever describes it (nl80211's
/// ``Adapter``, or a program's own report of it).
public protocol AdapterCandidate {
    /// The phy name, e.g. `phy0`.
    var candidatePhyName: String { get }
    /// The wiphy index.
    var candidateWiphy: UInt32 { get }
    /// The names of its interfaces, e.g. `wlan0`, `nan0`.
    var candidateInterfaceNames: [String] { get }
    /// Whether it can run NAN.
    var candidateSupportsNAN: Bool { get }
}

/// The one rule for choosing the adapter a program acts on, shared by the WiFiAware API and the CLI, with
/// the one wording of its failures (``failureMessage(among:)``); each gives them its own error code.
///
/// A reference may be a phy name (`phy0`), a wiphy index (`0`), an interface name (`wlan0`, `nan0`) or a
/// path ending in one of those (`/sys/class/ieee80211/phy0`), tried in that order. Without one, the only
/// adapter is chosen if there is exactly one, else the only NAN-capable one.
public enum AdapterChoice<Candidate: AdapterCandidate> {
    /// This one.
    case chosen(Candidate)
    /// Nothing matches the reference.
    case notFound(reference: String)
    /// No reference, and there are no adapters.
    case noAdapters
    /// No reference, several adapters, none with NAN.
    case noneWithNAN
    /// No reference, and several adapters have NAN.
    case severalWithNAN([Candidate])

    /// Applies the rule.
    public static func choose(_ reference: String?, from adapters: [Candidate]) -> AdapterChoice {
        guard let reference else {
            if adapters.isEmpty { return .noAdapters }
            if adapters.count == 1, let only = adapters.first { return .chosen(only) }
            let capable = adapters.filter(\.candidateSupportsNAN)
            if capable.count == 1, let only = capable.first { return .chosen(only) }
            return capable.isEmpty ? .noneWithNAN : .severalWithNAN(capable)
        }
        let name =
            reference.contains("/") ? reference.split(separator: "/").last.map(String.init) ?? reference : reference
        if let match = adapters.first(where: { $0.candidatePhyName == name }) { return .chosen(match) }
        if let index = UInt32(name), let match = adapters.first(where: { $0.candidateWiphy == index }) {
            return .chosen(match)
        }
        if let match = adapters.first(where: { $0.candidateInterfaceNames.contains(name) }) { return .chosen(match) }
        return .notFound(reference: reference)
    }

    /// Why no adapter was chosen, in one line a user can act on; nil for ``chosen(_:)``. `adapters` are all
    /// the adapters present (the message names them).
    public func failureMessage(among adapters: [Candidate]) -> String? {
        let names = { (list: [Candidate]) in list.map(\.candidatePhyName).joined(separator: ", ") }
        switch self {
        case .chosen:
            return nil
        case .notFound(let reference):
            let known = adapters.isEmpty ? "there are no Wi-Fi adapters" : "adapters: \(names(adapters))"
            return "no adapter '\(reference)': not a phy name, wiphy index or interface name (\(known))"
        case .noAdapters:
            return "no Wi-Fi adapters found (for simulated ones: 'waware sim add')"
        case .noneWithNAN:
            return "none of the adapters has NAN (\(names(adapters))); see 'waware list'"
        case .severalWithNAN(let capable):
            return "several adapters have NAN (\(names(capable))); choose one with --adapter"
        }
    }
}

extension Adapter: AdapterCandidate {
    /// ``name``.
    public var candidatePhyName: String { name }
    /// ``wiphy``'s index.
    public var candidateWiphy: UInt32 { wiphy.rawValue }
    /// The names of ``interfaces``.
    public var candidateInterfaceNames: [String] { interfaces.compactMap(\.name) }
    /// ``NANSupport/isSupported``.
    public var candidateSupportsNAN: Bool { nan.isSupported }
}

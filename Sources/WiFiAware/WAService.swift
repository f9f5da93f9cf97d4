/// A Wi-Fi Aware service this program declared in its services file, as Apple apps declare
/// theirs in Info.plist under `WiFiAwareServices`.
///
/// The two kinds are ``WAPublishableService`` (offered to peers) and ``WASubscribableService``
/// (looked for on peers). Each carries the defaults declared for it.
public protocol WAService: Hashable, Identifiable, Sendable where ID == String {
    /// The validated service name, e.g. `_file-share._tcp`.
    var name: WAServiceName { get }
    /// Service-specific information sent with discovery frames (at most 255 bytes); empty for none.
    var serviceInfo: [UInt8] { get }
    /// The match filter: a list of elements compared with the peer's filter (empty element = wildcard).
    var matchFilter: [[UInt8]] { get }
    /// Whether a NAN data path (a network connection to the peer) is wanted, not discovery alone.
    var wantsDataPath: Bool { get }

    /// Every service of this kind declared in the default services file, keyed by name; empty when the file
    /// is missing or invalid (the lookups by name throw and say why).
    static var allServices: [String: Self] { get }
}

extension WAService {
    /// The service name as written; Apple's `id`.
    public var id: String { name.rawValue }
}

/// The longest service-specific information NAN carries (`NL80211_NAN_FUNC_SERVICE_SPEC_INFO_MAX_LEN`).
let maximumServiceInfoLength = 255

/// The longest encoded match filter: each element is a length byte plus its bytes.
let maximumMatchFilterLength = 255

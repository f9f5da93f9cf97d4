/// The type of a wireless interface.
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_IFTYPE` (u32, `enum nl80211_iftype`).
/// Values the kernel adds later are kept as they are.
public struct InterfaceType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `nl80211_iftype` value.
    public let rawValue: UInt32
    /// Wraps an `nl80211_iftype` value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(_ code: NL80211InterfaceTypeCode) { rawValue = code.rawValue }

    /// Unspecified.
    public static let unspecified = Self(.unspecified)
    /// Ad-hoc (IBSS).
    public static let adhoc = Self(.adhoc)
    /// Managed station.
    public static let station = Self(.station)
    /// Access point.
    public static let accessPoint = Self(.ap)
    /// AP VLAN.
    public static let accessPointVLAN = Self(.apVlan)
    /// WDS.
    public static let wds = Self(.wds)
    /// Monitor.
    public static let monitor = Self(.monitor)
    /// Mesh point.
    public static let meshPoint = Self(.meshPoint)
    /// P2P client.
    public static let p2pClient = Self(.p2pClient)
    /// P2P group owner.
    public static let p2pGroupOwner = Self(.p2pGo)
    /// P2P device (no netdev).
    public static let p2pDevice = Self(.p2pDevice)
    /// Outside the context of a BSS.
    public static let ocb = Self(.ocb)
    /// NAN management interface (NMI; no netdev, addressed by wdev).
    public static let nan = Self(.nan)
    /// NAN data interface (NDI; a netdev).
    public static let nanData = Self(.nanData)
    /// Proximity detection.
    public static let proximityDetection = Self(.pd)

    /// The name `iw` uses (`managed`, `AP`, `NAN`, `NAN_DATA`, …), or `type N`.
    public var description: String {
        switch NL80211InterfaceTypeCode(rawValue: rawValue) {
        case .unspecified: "unspecified"
        case .adhoc: "IBSS"
        case .station: "managed"
        case .ap: "AP"
        case .apVlan: "AP/VLAN"
        case .wds: "WDS"
        case .monitor: "monitor"
        case .meshPoint: "mesh point"
        case .p2pClient: "P2P-client"
        case .p2pGo: "P2P-GO"
        case .p2pDevice: "P2P-device"
        case .ocb: "outside context of a BSS"
        case .nan: "NAN"
        case .nanData: "NAN_DATA"
        case .pd: "PD"
        case nil: "type \(rawValue)"
        }
    }
}

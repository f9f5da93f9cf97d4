public import NANWire
/// One wireless interface of a radio: a netdev such as `wlan0`, or a device without a netdev such
/// as the NAN management interface.
public struct WirelessInterface: Sendable, Hashable {
    /// The radio it belongs to.
    public var wiphy: WiphyIndex
    /// The wireless device id (every interface has one).
    public var wdev: WirelessDeviceID
    /// The netdev index; nil for the NAN interface and other interfaces without a netdev.
    public var index: InterfaceIndex?
    /// The interface name.
    public var name: String?
    /// The interface type.
    public var type: InterfaceType
    /// The interface address.
    public var address: MACAddress?
    /// The channel the interface operates on, when it has one (a station connected to an access point, say).
    public var frequency: Frequency?

    /// Creates a value (mostly for tests).
    public init(
        wiphy: WiphyIndex, wdev: WirelessDeviceID, index: InterfaceIndex?, name: String?,
        type: InterfaceType, address: MACAddress?, frequency: Frequency? = nil
    ) {
        self.wiphy = wiphy
        self.wdev = wdev
        self.index = index
        self.name = name
        self.type = type
        self.address = address
        self.frequency = frequency
    }
}

extension WirelessInterface {
    /// Decodes a `GET_INTERFACE` / `NEW_INTERFACE` message.
    init(decoding attributes: NetlinkAttributes) throws(NetlinkError) {
        typealias A = NL80211Attribute
        self.init(
            wiphy: WiphyIndex(rawValue: try attributes.required(A.wiphy, as: UInt32.self)),
            wdev: WirelessDeviceID(rawValue: try attributes.required(A.wdev, as: UInt64.self)),
            index: try attributes.integer(A.ifindex, as: UInt32.self).map(InterfaceIndex.init(rawValue:)),
            name: attributes.string(A.ifname),
            type: InterfaceType(rawValue: try attributes.integer(A.iftype, as: UInt32.self) ?? 0),
            address: attributes.bytes(A.mac).flatMap { MACAddress(bytes: $0) },
            frequency: try attributes.integer(A.wiphyFreq, as: UInt32.self).map(Frequency.init(rawValue:)))
    }
}

/// The NAN management interface (NMI) created by ``NL80211Session/createNANInterface(on:name:address:ownedBySession:)``.
public struct NANInterface: Sendable, Hashable {
    /// The radio.
    public var wiphy: WiphyIndex
    /// The wireless device id; every NAN command addresses the interface by it.
    public var wdev: WirelessDeviceID
    /// The interface name given at creation.
    public var name: String
    /// The NMI address.
    public var address: MACAddress
}

/// A 48-bit IEEE 802 MAC address (NMI, NDI, cluster ID, BSSID).
public struct MACAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The six octets, first octet first (as transmitted).
    public let octets: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    /// Creates an address from six octets.
    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ e: UInt8, _ f: UInt8) {
        octets = (a, b, c, d, e, f)
    }

    /// Creates an address from exactly six bytes; `nil` for any other count.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 6 else { return nil }
        var i = bytes.startIndex
        var o = [UInt8](repeating: 0, count: 6)
        for k in 0..<6 { o[k] = bytes[i]; i = bytes.index(after: i) }
        self.init(o[0], o[1], o[2], o[3], o[4], o[5])
    }

    /// Parses `aa:bb:cc:dd:ee:ff` (also `-` separated, either case, two digits per byte); `nil` if
    /// malformed (a sign such as `+2` is not a hex digit).
    public init?(_ text: String) {
        let parts = text.split(separator: text.contains("-") ? "-" : ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var o = [UInt8]()
        for part in parts {
            guard part.utf8.count == 2, let value = Hex.byte(part) else { return nil }
            o.append(value)
        }
        self.init(o[0], o[1], o[2], o[3], o[4], o[5])
    }

    /// The six octets as an array.
    public var bytes: [UInt8] { [octets.0, octets.1, octets.2, octets.3, octets.4, octets.5] }

    /// `ff:ff:ff:ff:ff:ff`.
    public static let broadcast = MACAddress(0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
    /// `00:00:00:00:00:00`.
    public static let zero = MACAddress(0, 0, 0, 0, 0, 0)
    /// The NAN Network ID `51:6f:9a:01:00:00`, the address 3 of SDFs sent outside a cluster.
    public static let nanNetworkID = MACAddress(0x51, 0x6f, 0x9a, 0x01, 0x00, 0x00)

    /// Whether this is the broadcast address.
    public var isBroadcast: Bool { self == .broadcast }
    /// Whether the group bit (least significant bit of the first octet) is set; true for broadcast too.
    public var isMulticast: Bool { octets.0 & 0x01 != 0 }
    /// Whether the locally-administered bit is set (random and NAN-generated addresses).
    public var isLocallyAdministered: Bool { octets.0 & 0x02 != 0 }

    /// Lower-case colon-separated form, `aa:bb:cc:dd:ee:ff`.
    public var description: String { Hex.string(bytes, separator: ":") }

    /// Compares addresses as 48-bit big-endian numbers.
    public static func < (lhs: MACAddress, rhs: MACAddress) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    /// Equality by octets.
    public static func == (lhs: MACAddress, rhs: MACAddress) -> Bool {
        lhs.octets == rhs.octets
    }

    /// Hashes the octets.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(octets.0); hasher.combine(octets.1); hasher.combine(octets.2)
        hasher.combine(octets.3); hasher.combine(octets.4); hasher.combine(octets.5)
    }
}

/// The IPv6 interface identifier carried in the NDPE attribute (TLV type 0).
public struct InterfaceIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The 8 bytes.
    public var bytes: [UInt8]

    /// Wraps 8 bytes; nil for another length.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 8 else { return nil }
        self.bytes = Array(bytes)
    }

    /// The modified EUI-64 identifier of a MAC address (U/L bit flipped, `ff:fe` in the middle): the one
    /// Linux gives an interface's link-local address by default, so carrying it names that address.
    public init(eui64Of mac: MACAddress) {
        let m = mac.bytes
        bytes = [m[0] ^ 0x02, m[1], m[2], 0xff, 0xfe, m[3], m[4], m[5]]
    }

    /// The link-local address `fe80::…` with this identifier.
    public var linkLocalAddress: IPv6Address {
        // The identifier is 8 bytes by construction.
        IPv6Address.linkLocal(interfaceIdentifier: bytes) ?? .unspecified
    }

    /// `fe80::…`.
    public var description: String { linkLocalAddress.description }
}

/// A NAN cluster ID: a MAC address of the form `50:6f:9a:01:xx:xx`.
public struct ClusterID: Hashable, Sendable, CustomStringConvertible {
    /// The cluster ID as an address.
    public let address: MACAddress

    /// Accepts only addresses with the NAN cluster prefix `50:6f:9a:01`.
    public init?(_ address: MACAddress) {
        let o = address.octets
        guard o.0 == 0x50, o.1 == 0x6f, o.2 == 0x9a, o.3 == 0x01 else { return nil }
        self.address = address
    }

    /// The cluster `50:6f:9a:01:hi:lo`.
    public init(low: UInt16) {
        address = MACAddress(0x50, 0x6f, 0x9a, 0x01, UInt8(low >> 8), UInt8(truncatingIfNeeded: low))
    }

    /// The variable last two octets as a number.
    public var low: UInt16 { UInt16(address.octets.4) << 8 | UInt16(address.octets.5) }

    /// The address text.
    public var description: String { address.description }
}

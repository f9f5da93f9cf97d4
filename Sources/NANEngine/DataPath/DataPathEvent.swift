public import NANWire

/// A data path that is up.
public struct DataPathConnection: Hashable, Sendable {
    /// Which data path.
    public var id: NDPIdentifier
    /// The local NDI netdev name, e.g. `nan0data`.
    public var interfaceName: String
    /// Our NDI address.
    public var localNDI: MACAddress
    /// The peer's NDI address.
    public var peerNDI: MACAddress
    /// Our IPv6 link-local address on the NDI.
    public var localAddress: IPv6Address
    /// The peer's IPv6 link-local address (from the interface identifier it sent, else its NDI address).
    public var peerAddress: IPv6Address
    /// The suite that keys the data path; nil for an open one.
    public var cipherSuite: NDPCipherSuite?
    /// The service info the peer sent in its NDP message.
    public var peerServiceInfo: [UInt8]
    /// Whether we initiated it.
    public var isInitiator: Bool
}

/// What happens to data paths.
public enum DataPathEvent: Hashable, Sendable {
    /// A peer asks for a data path to our publish (we answer by our acceptance policy).
    case requested(NDPIdentifier, serviceInfo: [UInt8])
    /// The data path is up.
    case connected(DataPathConnection)
    /// The data path is over (or never came up).
    case terminated(NDPIdentifier, DataPathEndReason)
    /// The data path, up, can carry packets (`true`: its peer answers again) or not for now (`false`: its
    /// peer missed keepalives but is not lost yet). Apple's connection viability.
    case viability(NDPIdentifier, isViable: Bool)
}

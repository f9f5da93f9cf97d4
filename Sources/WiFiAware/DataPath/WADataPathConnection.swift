import NANEngine
public import NANWire

/// A data path that is up: an IPv6 link between our NAN data interface and the peer's.
public struct WADataPathConnection: Hashable, Sendable, CustomStringConvertible {
    /// The peer's NAN management interface (NMI) address.
    public var peer: MACAddress
    /// The NDP ID (with the initiator's NDI, it names the data path on the air).
    public var ndpID: UInt8
    /// The local NAN data interface, e.g. `nan0data`: bind sockets to it.
    public var interfaceName: String
    /// Our NDI address.
    public var localInterfaceAddress: MACAddress
    /// The peer's NDI address.
    public var peerInterfaceAddress: MACAddress
    /// Our IPv6 link-local address on the interface.
    public var localAddress: String
    /// The peer's IPv6 link-local address (connect to `peerAddress%interfaceName`).
    public var peerAddress: String
    /// `open`, `NCS-SK-128`, `NCS-SK-256` or `NCS-PK-PASN-128`.
    public var cipherSuite: String
    /// The service info the peer sent with the data path.
    public var peerServiceInfo: [UInt8]

    init(_ c: DataPathConnection) {
        peer = c.id.peer
        ndpID = c.id.ndpID
        interfaceName = c.interfaceName
        localInterfaceAddress = c.localNDI
        peerInterfaceAddress = c.peerNDI
        localAddress = c.localAddress
        peerAddress = c.peerAddress
        cipherSuite = c.cipherSuite
        peerServiceInfo = c.peerServiceInfo
    }

    /// `nan0data fe80::… → fe80::… (open)`.
    public var description: String { "\(interfaceName) \(localAddress) -> \(peerAddress) (\(cipherSuite))" }
}

/// Why a data path ended or failed.
public struct WADataPathEndReason: Hashable, Sendable, CustomStringConvertible {
    /// `local-request`, `peer-request`, `rejected`, `timeout`, `peer-lost`, `idle`, `kernel-failure`,
    /// `protocol-error`, `resource-limit`.
    public var name: String
    /// The NAN reason code (0 when none was given).
    public var reasonCode: UInt8
    /// What failed locally, if anything (e.g. the kernel's error).
    public var detail: String?

    init(_ reason: DataPathEndReason) {
        name = reason.name
        reasonCode = reason.code.rawValue
        detail = reason.detail
    }

    init(name: String, reasonCode: UInt8, detail: String?) {
        self.name = name
        self.reasonCode = reasonCode
        self.detail = detail
    }

    /// `rejected (NAN reason 10)`.
    public var description: String {
        (reasonCode == 0 ? name : "\(name) (NAN reason \(reasonCode))") + (detail.map { ": \($0)" } ?? "")
    }
}

/// What happens to data paths of a publisher or a request.
public enum WADataPathEvent: Hashable, Sendable {
    /// A peer asks for a data path (publisher side).
    case requested(peer: MACAddress)
    /// A data path is up.
    case connected(WADataPathConnection)
    /// A data path ended, or never came up.
    case terminated(peer: MACAddress, ndpID: UInt8, reason: WADataPathEndReason)

    init(_ event: DataPathEvent, connections: inout [NDPIdentifier: WADataPathConnection]) {
        switch event {
        case .requested(let id, _):
            self = .requested(peer: id.peer)
        case .connected(let c):
            let connection = WADataPathConnection(c)
            connections[c.id] = connection
            self = .connected(connection)
        case .terminated(let id, let reason):
            connections[id] = nil
            self = .terminated(peer: id.peer, ndpID: id.ndpID, reason: WADataPathEndReason(reason))
        }
    }
}

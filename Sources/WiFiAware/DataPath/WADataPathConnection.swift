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
    public var localAddress: IPv6Address
    /// The peer's IPv6 link-local address (connect to `peerAddress%interfaceName`).
    public var peerAddress: IPv6Address
    /// The suite that keys the data path (NCS-SK or NCS-PK-PASN, 128 or 256); nil for an open one.
    public var cipherSuite: WACipherSuite?
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
        cipherSuite = c.cipherSuite.map(WACipherSuite.init)
        peerServiceInfo = c.peerServiceInfo
    }

    /// Whether the data path is open (unencrypted).
    public var isOpen: Bool { cipherSuite == nil }

    /// `nan0data fe80::… → fe80::… (open)`.
    public var description: String {
        "\(interfaceName) \(localAddress) -> \(peerAddress) (\(cipherSuite?.description ?? "open"))"
    }
}

/// Why a data path ended or failed.
public struct WADataPathEndReason: Hashable, Sendable, CustomStringConvertible {
    /// What happened; its raw value is the name the CLI prints.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// This side ended it (an API call, the scope left, the process ending).
        case localRequest = "local-request"
        /// The peer sent a Data Path Termination.
        case peerRequest = "peer-request"
        /// The peer rejected the request, or our confirm.
        case rejected
        /// The peer did not answer in time.
        case timeout
        /// No frame came from the peer for too long.
        case peerLost = "peer-lost"
        /// No packet either way for the idle timeout.
        case idle
        /// The kernel refused a step (interface, station, key, schedule).
        case kernelFailure = "kernel-failure"
        /// A schedule change (a channel evacuated, or the peer's Schedule Update) left no slot in common.
        case scheduleChanged = "schedule-changed"
        /// The peer's messages did not follow the protocol.
        case protocolError = "protocol-error"
        /// Too many data paths at once.
        case resourceLimit = "resource-limit"
        /// Both devices asked each other at once; the request of the device with the larger NMI is kept.
        case crossedRequests = "crossed-requests"
        /// The peer's NDI address is held by another data path that this one may not displace.
        case addressInUse = "address-in-use"
        /// The security handshake or pairing verification failed: another passphrase, PMK or pairing on the
        /// other side, a suite it does not take, open against secure, or a forged frame.
        case securityFailure = "security-failure"
    }

    /// What happened.
    public var kind: Kind
    /// The NAN reason code (0 when none was given).
    public var reasonCode: UInt8
    /// What failed locally, if anything (e.g. the kernel's error).
    public var detail: String?

    /// The kind's name: `local-request`, `peer-request`, `rejected`, … (``Kind``'s raw values).
    public var name: String { kind.rawValue }

    /// Whether the failure was one of security: the kind, or the peer's NAN reason code 'security policy'.
    public var isSecurityFailure: Bool {
        kind == .securityFailure || reasonCode == NANReasonCode.securityPolicy.rawValue
    }

    init(_ reason: DataPathEndReason) {
        kind = Kind(reason.kind)
        reasonCode = reason.code.rawValue
        detail = reason.detail
    }

    init(_ kind: Kind, reasonCode: UInt8 = 0, detail: String? = nil) {
        self.kind = kind
        self.reasonCode = reasonCode
        self.detail = detail
    }

    /// `rejected (NAN reason 10)`.
    public var description: String {
        (reasonCode == 0 ? name : "\(name) (NAN reason \(reasonCode))") + (detail.map { ": \($0)" } ?? "")
    }
}

extension WADataPathEndReason.Kind {
    /// The engine's kind, one for one.
    init(_ kind: DataPathEndReason.Kind) {
        self =
            switch kind {
            case .localRequest: .localRequest
            case .peerRequest: .peerRequest
            case .rejected: .rejected
            case .timeout: .timeout
            case .peerLost: .peerLost
            case .idle: .idle
            case .kernelFailure: .kernelFailure
            case .scheduleChanged: .scheduleChanged
            case .protocolError: .protocolError
            case .resourceLimit: .resourceLimit
            case .crossedRequests: .crossedRequests
            case .addressInUse: .addressInUse
            case .securityFailure: .securityFailure
            }
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
    /// A data path that is up can carry packets (`true`, its peer answers again) or not for now (`false`,
    /// its peer missed keepalives but is not lost yet): Apple's connection viability.
    case viability(peer: MACAddress, ndpID: UInt8, isViable: Bool)

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
        case .viability(let id, let isViable):
            self = .viability(peer: id.peer, ndpID: id.ndpID, isViable: isViable)
        }
    }
}

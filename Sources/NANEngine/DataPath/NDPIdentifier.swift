public import NANWire

/// What names one NAN data path on the air: the peer's NMI, the initiator's NDI and the NDP ID the
/// initiator chose.
public struct NDPIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The peer's NAN management interface address.
    public var peer: MACAddress
    /// The initiator's NAN data interface address.
    public var initiatorNDI: MACAddress
    /// The NDP ID (1…255).
    public var ndpID: UInt8

    /// Creates an identifier.
    public init(peer: MACAddress, initiatorNDI: MACAddress, ndpID: UInt8) {
        self.peer = peer
        self.initiatorNDI = initiatorNDI
        self.ndpID = ndpID
    }

    /// `ndp 1 peer 42:00:00:00:00:00 initiator 52:…`.
    public var description: String { "ndp \(ndpID) peer \(peer) initiator \(initiatorNDI)" }
}

/// Why a data path ended or failed, with the NAN reason code when the air said one.
public struct DataPathEndReason: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// We ended it (API call, scope left, process ending).
        case localRequest = "local-request"
        /// The peer sent a Data Path Termination.
        case peerRequest = "peer-request"
        /// The peer rejected the request, or our confirm.
        case rejected = "rejected"
        /// No answer in time.
        case timeout = "timeout"
        /// No frame from the peer for too long.
        case peerLost = "peer-lost"
        /// No traffic for the idle timeout.
        case idle = "idle"
        /// The kernel refused a step (interface, station, schedule).
        case kernelFailure = "kernel-failure"
        /// A schedule change left no slot in common: a channel we evacuated, or the peer's Schedule Update
        /// Notification.
        case scheduleChanged = "schedule-changed"
        /// The peer's messages did not follow the protocol.
        case protocolError = "protocol-error"
        /// Too many data paths at once.
        case resourceLimit = "resource-limit"
        /// Both devices asked each other for a data path at once: the one asked for by the device with the
        /// larger NMI is kept, the other is declined (there is one NDI station, so one pairwise key, per peer).
        case crossedRequests = "crossed-requests"
        /// The peer's NDI address is held by another data path that this one may not displace: one with
        /// another NMI, or a secure one when this one is open or keyed by another PMK. The new one is
        /// refused; the one up stays.
        case addressInUse = "address-in-use"
        /// The NCS-SK handshake failed: another passphrase or PMK on the other side (the PMKID or a MIC
        /// does not match), a suite the other side does not take, open against secure, or a forged frame.
        case securityFailure = "security-failure"
    }

    /// What happened.
    public var kind: Kind
    /// The NAN reason code carried or sent, `.none` if none.
    public var code: NANReasonCode

    /// What failed, for a local failure (e.g. the kernel's error); not sent on the air.
    public var detail: String?

    /// Creates a reason.
    public init(_ kind: Kind, code: NANReasonCode = .none, detail: String? = nil) {
        self.kind = kind
        self.code = code
        self.detail = detail
    }

    /// The kind's name: `local-request`, `peer-request`, `rejected`, `timeout`, …
    public var name: String { kind.rawValue }

    /// `rejected (reason 10)`.
    public var description: String {
        (code == .none ? kind.rawValue : "\(kind.rawValue) (reason \(code.rawValue))")
            + (detail.map { ": \($0)" } ?? "")
    }
}

/// Where a ``WAConnection`` stands (Apple's `NetworkConnection.State`), reported by
/// ``WAConnection/states``.
public enum WAConnectionState: Hashable, Sendable, CustomStringConvertible {
    /// Made, not started yet.
    case setup
    /// Setting up: the data path, then TCP, then (by default) the TLS handshake and the preface.
    case preparing
    /// Usable: messages (or bytes) flow.
    case ready
    /// Not usable yet, trying again (the reason says why, e.g. the peer's address is not ready).
    case waiting(String)
    /// Could not be set up, or ended by a failure; nothing follows.
    case failed(WAError)
    /// Ended by this side (``WAConnection/cancel()`` or the scope ended) or closed by the peer; nothing follows.
    case cancelled

    /// `setup`, `preparing`, `ready`, `waiting: ...`, `failed: ...`, `cancelled`.
    public var description: String {
        switch self {
        case .setup: "setup"
        case .preparing: "preparing"
        case .ready: "ready"
        case .waiting(let reason): "waiting: \(reason)"
        case .failed(let error): "failed: \(error.message)"
        case .cancelled: "cancelled"
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    var isFinal: Bool {
        switch self {
        case .failed, .cancelled: true
        default: false
        }
    }
}

/// How a connection carries data: framed messages (the default) or a raw byte stream, as both ends agree
/// in the connection preface.
public enum WAConnectionMode: String, Hashable, Sendable {
    /// Length-framed messages (``WAConnection/send(_:)``, ``WAConnection/receive()``) and resources.
    case messages
    /// The bytes as they are (``WAConnection/write(_:)``, ``WAConnection/read(maximum:)``).
    case byteStream = "byte-stream"
}

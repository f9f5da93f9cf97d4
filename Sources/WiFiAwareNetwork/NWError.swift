/// Why a ``NetworkConnection``, ``NetworkListener`` or ``NetworkBrowser`` failed or waits (Apple's `NWError`
/// for Wi-Fi Aware): a code, a message for people, and the WiFiAware error underneath when there is one.
public struct NWError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String

        /// Wi-Fi Aware failed underneath (the data path, TCP, TLS, the radio): see ``NWError/wifiAware``.
        public static let wifiAware = Code(name: "wifiAware")
        /// The peer sent bytes that are not a message of the connection's framing (TLV or Coder).
        public static let malformedMessage = Code(name: "malformedMessage")
        /// A message could not be encoded, or a received one not decoded into the expected type.
        public static let coding = Code(name: "coding")
        /// The protocol stack asks for something this layer does not offer.
        public static let unsupported = Code(name: "unsupported")
        /// A protocol's options cannot be used (e.g. a QUIC ALPN list that is empty or too long).
        public static let invalidArgument = Code(name: "invalidArgument")
        /// The peer ended the connection; nothing more will come.
        public static let closed = Code(name: "closed")
        /// This side cancelled it.
        public static let cancelled = Code(name: "cancelled")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure.
    public let code: Code
    /// What happened, for people.
    public let message: String
    /// The WiFiAware error underneath (code ``Code/wifiAware``); nil for the others. Apple's
    /// `NWError.wifiAware`.
    public let wifiAware: WAError?

    /// An error of this layer.
    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
        wifiAware = nil
    }

    /// A WiFiAware error, passed on.
    public init(_ error: WAError) {
        code = .wifiAware
        message = error.message
        wifiAware = error
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// Any error as an `NWError`: itself, a WiFiAware error wrapped, cancellation as ``Code/cancelled``.
    static func from(_ error: any Error) -> NWError {
        switch error {
        case let error as NWError: error
        case let error as WAError: NWError(error)
        case is CancellationError: NWError(.cancelled, message: "cancelled")
        default: NWError(.wifiAware, message: "\(error)")
        }
    }
}

/// Where a connection, listener or browser stands (Apple's `NetworkChannel.State` and the listener's and
/// browser's `State`; listeners and browsers never report `preparing`).
public enum NetworkState: Hashable, Sendable, CustomStringConvertible {
    /// Made, not started.
    case setup
    /// Not usable yet, trying again.
    case waiting(NWError)
    /// Setting up (a connection: the data path, TCP, the TLS handshake).
    case preparing
    /// Usable.
    case ready
    /// Ended by a failure; nothing follows.
    case failed(NWError)
    /// Ended by this side or closed by the peer; nothing follows.
    case cancelled

    /// `setup`, `waiting: ...`, `preparing`, `ready`, `failed: ...`, `cancelled`.
    public var description: String {
        switch self {
        case .setup: "setup"
        case .waiting(let error): "waiting: \(error)"
        case .preparing: "preparing"
        case .ready: "ready"
        case .failed(let error): "failed: \(error)"
        case .cancelled: "cancelled"
        }
    }

    /// The state of a WiFiAware connection, in this layer's terms.
    init(_ state: WAConnectionState) {
        switch state {
        case .setup: self = .setup
        case .preparing: self = .preparing
        case .ready: self = .ready
        case .waiting(let reason): self = .waiting(NWError(.wifiAware, message: reason))
        case .failed(let error): self = .failed(NWError(error))
        case .cancelled: self = .cancelled
        }
    }
}

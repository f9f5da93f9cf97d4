public import FoundationEssentials

/// The daemon's protocol (docs/daemon.md): one JSON object per line over a Unix stream socket, each with
/// the protocol version `v`. A client sends requests (`id`, `method`, the method's fields); the daemon
/// answers each with a reply or an error carrying the same `id`, and sends the events of the client's own
/// sessions (no `id`) in between. Every message is at most ``maximumLineLength`` bytes.
public enum DaemonProtocol {
    /// The version this build speaks; a message of another version is refused with `unsupportedVersion`.
    public static let version = 1
    /// The longest line either side accepts, newline included; a longer one ends the connection.
    public static let maximumLineLength = 65_536
    /// Where the daemon listens unless told otherwise.
    public static let defaultSocketPath = "/run/waware/wawared.socket"
    /// The group whose members (with root) may use the daemon.
    public static let group = "wawared"
    /// The release of waware this daemon was built from, as `status` reports it (the CLI's `Waware.version`;
    /// a CLI test keeps the two equal).
    public static let softwareVersion = "0.1.0"
}

/// What a client asks.
public enum DaemonMethod: String, Codable, Sendable, Hashable {
    /// Opens the conversation on an adapter: the reply names it and our NMI address.
    case hello
    /// Starts a publish (`publish`); the reply gives the session and its instance ID.
    case publish
    /// Starts a subscribe (`subscribe`); the reply gives the session and its instance ID.
    case subscribe
    /// Sends a follow-up from one of the client's sessions (`session`, `send`); the reply gives its status.
    case send
    /// Stops one of the client's sessions (`session`).
    case stop
    /// Every peer heard, with its radio facts.
    case peers
    /// The daemon's state: adapters, clients, sessions (for `waware diagnose`).
    case status
}

/// One request from a client.
public struct DaemonRequest: Codable, Sendable, Hashable {
    /// The protocol version (``DaemonProtocol/version``).
    public var v: Int
    /// The client's number for the request; the answer carries it back.
    public var id: UInt64
    /// What is asked.
    public var method: DaemonMethod
    /// `hello`: the adapter's phy name.
    public var adapter: String?
    /// `publish`: what to publish.
    public var publish: WirePublish?
    /// `subscribe`: what to look for.
    public var subscribe: WireSubscribe?
    /// `send`, `stop`: the client's session.
    public var session: UInt32?
    /// `send`: the follow-up.
    public var send: WireSend?

    /// Makes a request of this version.
    public init(id: UInt64, method: DaemonMethod) {
        v = DaemonProtocol.version
        self.id = id
        self.method = method
    }
}

/// A follow-up to send.
public struct WireSend: Codable, Sendable, Hashable {
    /// The peer's NMI address (`02:00:00:00:01:00`).
    public var peer: String
    /// The peer's instance ID.
    public var peerInstance: UInt8
    /// The message (at most 255 bytes).
    public var payload: [UInt8]

    /// Makes one.
    public init(peer: String, peerInstance: UInt8, payload: [UInt8]) {
        self.peer = peer
        self.peerInstance = peerInstance
        self.payload = payload
    }
}

/// One message from the daemon: a reply, an error, or an event of one of the client's sessions.
public struct DaemonMessage: Codable, Sendable, Hashable {
    /// The protocol version.
    public var v: Int
    /// The request answered; nil for events and for errors about the connection itself.
    public var id: UInt64?
    /// A request's result.
    public var reply: DaemonReply?
    /// Why a request (or the connection) failed.
    public var error: DaemonError?
    /// A session's event.
    public var event: WireEvent?

    /// A reply to request `id`.
    public static func reply(_ id: UInt64, _ reply: DaemonReply) -> DaemonMessage {
        DaemonMessage(v: DaemonProtocol.version, id: id, reply: reply)
    }

    /// An error answering request `id` (nil: about the connection).
    public static func error(_ id: UInt64?, _ error: DaemonError) -> DaemonMessage {
        DaemonMessage(v: DaemonProtocol.version, id: id, error: error)
    }

    /// An event.
    public static func event(_ event: WireEvent) -> DaemonMessage {
        DaemonMessage(v: DaemonProtocol.version, event: event)
    }
}

/// A request's result; which fields are set depends on the method.
public struct DaemonReply: Codable, Sendable, Hashable {
    /// `hello`: the adapter.
    public var adapter: String?
    /// `hello`: our NMI address.
    public var localAddress: String?
    /// `publish`, `subscribe`: the client's number for the new session.
    public var session: UInt32?
    /// `publish`, `subscribe`: the session's instance ID on the air.
    public var instance: UInt8?
    /// `send`: `acknowledged`, `notAcknowledged` or `handedToDriver`.
    public var status: String?
    /// `peers`: every peer heard.
    public var peers: [WirePeer]?
    /// `status`: one line per adapter, client and session.
    public var lines: [String]?
    /// `status`: the daemon's release (``DaemonProtocol/softwareVersion``).
    public var software: String?
    /// `status`: the adapters whose radio the daemon holds, by phy name.
    public var adapters: [String]?
    /// `status`: how many programs are connected, the one asking included.
    public var clients: Int?

    /// An empty reply.
    public init() {}
}

/// Why a request failed: a code (a `WAError` code's name where there is one) and one line for the user.
public struct DaemonError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The code, e.g. `permissionDenied`, `tooManySessions`, `invalidRequest`.
    public var code: String
    /// One line saying what went wrong.
    public var message: String

    /// Makes an error.
    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The client may not use the daemon (not root, not in the group).
    public static func permissionDenied(_ message: String) -> DaemonError { DaemonError("permissionDenied", message) }
    /// A line that is not a request of this protocol.
    public static func invalidRequest(_ message: String) -> DaemonError { DaemonError("invalidRequest", message) }
    /// Another protocol version.
    public static func unsupportedVersion(_ version: Int) -> DaemonError {
        DaemonError(
            "unsupportedVersion",
            "protocol version \(version) is not spoken here; this daemon speaks \(DaemonProtocol.version)")
    }
    /// A per-client limit was reached.
    public static func limit(_ message: String) -> DaemonError { DaemonError("limitReached", message) }
    /// A session number the client does not own.
    public static func noSuchSession(_ session: UInt32) -> DaemonError {
        DaemonError("noSuchSession", "session \(session) is not one of this client's")
    }
    /// The adapter cannot be had.
    public static func adapter(_ message: String) -> DaemonError { DaemonError("adapterUnavailable", message) }
    /// The engine refused.
    public static func engine(_ message: String) -> DaemonError { DaemonError("engine", message) }
}

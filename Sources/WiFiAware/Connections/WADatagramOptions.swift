/// Best-effort datagrams on a connection (TN3213's UDP beside the reliable connection): how large they
/// may be and how many received ones wait to be read. Set ``WAConnectionParameters/datagrams`` on both
/// ends; the UDP ports and keys are agreed over the connection while it is set up.
public struct WADatagramOptions: Hashable, Sendable {
    /// The largest datagram payload this side accepts, in bytes (the peer's sends are held to it; default
    /// 1200, which fits one packet on the NAN data interface; at most 8192).
    public var maximumSize: Int = 1200
    /// How many received datagrams wait to be read (default 64, at most 4096); when the queue is full the
    /// oldest is dropped and counted (``WADatagramStatistics/droppedOldest``).
    public var queueLimit: Int = 64

    /// The defaults: 1200 bytes, 64 waiting.
    public init() {}

    /// The largest ``maximumSize`` accepted.
    public static let largestSize = 8192

    func check() throws(WAError) {
        guard (1...Self.largestSize).contains(maximumSize) else {
            throw WAError(
                .invalidArgument, message: "the largest datagram is 1 to \(Self.largestSize) bytes, not \(maximumSize)")
        }
        guard (1...4096).contains(queueLimit) else {
            throw WAError(.invalidArgument, message: "the datagram queue holds 1 to 4096 datagrams, not \(queueLimit)")
        }
    }
}

/// What a connection's datagrams did so far (``WAConnection/datagramStatistics``).
public struct WADatagramStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Datagrams handed to the kernel.
    public var sent = 0
    /// Datagrams not sent: no room in the socket's buffer, or the peer's port unreachable (best effort).
    public var sendFailed = 0
    /// Datagrams received and authenticated (queued for reading).
    public var received = 0
    /// Received datagrams dropped because the queue was full (the oldest go first).
    public var droppedOldest = 0
    /// Datagrams refused: not from this connection's peer and keys (a stray or forged packet), a replay,
    /// malformed, or larger than agreed.
    public var rejected = 0

    /// Statistics with every count zero.
    public init() {}

    /// `sent 10 (0 failed), received 9, dropped 0, rejected 1`.
    public var description: String {
        "sent \(sent) (\(sendFailed) failed), received \(received), dropped \(droppedOldest), rejected \(rejected)"
    }
}

/// The retry rule of a frame that must arrive (a follow-up, a PASN frame, a data-path NAF): how many times it
/// is sent, and how long each attempt waits for its transmit status. The one loop that applies it is
/// ``deliver(before:attempt:)``; when an attempt is made (at once, at the next DW) is the caller's.
public struct TransmitPolicy: Sendable, Hashable {
    /// How many times the frame is sent at most.
    public var attempts: Int
    /// How long one attempt waits for its transmit status (a frame may first wait for the next DW).
    public var statusTimeout: Duration

    /// A policy of `attempts` sends (at least one), each waiting `statusTimeout` for its status.
    public init(attempts: Int, statusTimeout: Duration) {
        self.attempts = max(1, attempts)
        self.statusTimeout = statusTimeout
    }

    /// Follow-ups: three tries, a DW apart.
    public static let followUp = TransmitPolicy(attempts: 3, statusTimeout: .seconds(2))
    /// PASN Authentication frames: three tries; a frame waits in its peer station's queue for the next DW.
    public static let pairing = TransmitPolicy(attempts: 3, statusTimeout: .seconds(8))
    /// Data-path NAFs: sent again at the next DW until acknowledged, eight times before the data path is
    /// given up.
    public static let dataPath = TransmitPolicy(attempts: 8, statusTimeout: .seconds(2))

    /// Makes attempts until one is acknowledged, at most ``attempts``: `before` runs first (it may wait for
    /// the next DW; false stops the loop), then `attempt` sends once and waits for the status (true or
    /// false, nil when the radio refused the frame or no status came in ``statusTimeout``).
    /// Returns whether an attempt was acknowledged.
    public func deliver(
        isolation: isolated (any Actor)? = #isolation,
        before: (_ attempt: Int) async -> Bool, attempt: (_ statusTimeout: Duration) async -> Bool?
    ) async -> Bool {
        for number in 0..<attempts {
            guard await before(number), !Task.isCancelled else { return false }
            if await attempt(statusTimeout) == true { return true }
        }
        return false
    }
}

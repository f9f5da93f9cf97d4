/// Transmit statuses matched to what waits for them, by the kernel's cookie, whichever comes first.
///
/// The kernel answers `FRAME` with a cookie and later reports the frame's status under it, but on a loaded
/// machine the status can reach the reader thread before the sender has recorded its cookie. So a status
/// nobody waits for yet is kept (the last ``earlyLimit``), and a sender that records its cookie late takes
/// it. The one place this rule lives: its owner is the runtime's ``TransmitStatuses``, which every client
/// waits on. A value type with no I/O; its owner supplies the locking.
struct TransmitStatusBook<Waiting> {
    /// How many statuses nobody waited for are kept.
    let earlyLimit: Int
    /// How many waits are kept; the oldest cookie goes when there are more (a status that never comes).
    let waitingLimit: Int

    private var waiting: [UInt64: Waiting] = [:]
    private var early: [UInt64: Bool] = [:]
    private var earlyOrder: [UInt64] = []

    /// A book keeping at most `earlyLimit` unclaimed statuses and `waitingLimit` waits.
    init(earlyLimit: Int, waitingLimit: Int = .max) {
        self.earlyLimit = max(1, earlyLimit)
        self.waitingLimit = max(1, waitingLimit)
    }

    /// The status of `cookie` if it came before anyone waited for it; taken (it is answered once).
    mutating func takeEarly(_ cookie: UInt64) -> Bool? {
        guard let status = early.removeValue(forKey: cookie) else { return nil }
        earlyOrder.removeAll { $0 == cookie }
        return status
    }

    /// `waiter` waits for the status of `cookie` (call ``takeEarly(_:)`` first). Returns the wait that had
    /// to go to keep the book within ``waitingLimit`` (the oldest cookie's), if any.
    @discardableResult
    mutating func expect(_ cookie: UInt64, _ waiter: Waiting) -> Waiting? {
        waiting[cookie] = waiter
        guard waiting.count > waitingLimit, let oldest = waiting.keys.min() else { return nil }
        return waiting.removeValue(forKey: oldest)
    }

    /// The status of `cookie` came: returns who waited for it (no longer waiting), or nil, and then the
    /// status is kept for a late ``takeEarly(_:)``.
    mutating func arrived(_ cookie: UInt64, acknowledged: Bool) -> Waiting? {
        if let waiter = waiting.removeValue(forKey: cookie) { return waiter }
        if early.updateValue(acknowledged, forKey: cookie) == nil { earlyOrder.append(cookie) }
        if earlyOrder.count > earlyLimit { early[earlyOrder.removeFirst()] = nil }
        return nil
    }

    /// Stops waiting for `cookie` (a timeout); returns who waited, if anyone still did.
    mutating func cancel(_ cookie: UInt64) -> Waiting? {
        waiting.removeValue(forKey: cookie)
    }

    /// Ends every wait and forgets every status (the owner stops); returns who waited.
    mutating func removeAll() -> [Waiting] {
        defer {
            waiting.removeAll()
            early.removeAll()
            earlyOrder.removeAll()
        }
        return Array(waiting.values)
    }

    /// How many wait (diagnostics).
    var waitingCount: Int { waiting.count }
    /// How many statuses nobody has claimed yet (diagnostics).
    var earlyCount: Int { early.count }
}

extension TransmitStatusBook: Sendable where Waiting: Sendable {}

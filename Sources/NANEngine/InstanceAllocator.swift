import NANWire

/// Hands out NAN instance IDs (1...255), each unique while in use, reusing freed ones as late as possible.
struct InstanceAllocator: Sendable {
    private var inUse: Set<UInt8> = []
    private var next: UInt8 = 1

    /// A free instance ID, or nil when all 255 are taken.
    mutating func allocate() -> InstanceID? {
        guard inUse.count < 255 else { return nil }
        while inUse.contains(next) { advance() }
        let id = next
        inUse.insert(id)
        advance()
        return InstanceID(rawValue: id)
    }

    /// Marks an ID taken (one the driver chose on the offloaded path).
    mutating func reserve(_ id: InstanceID) { inUse.insert(id.rawValue) }

    /// Returns an ID to the pool.
    mutating func release(_ id: InstanceID) { inUse.remove(id.rawValue) }

    private mutating func advance() { next = next == 255 ? 1 : next + 1 }
}

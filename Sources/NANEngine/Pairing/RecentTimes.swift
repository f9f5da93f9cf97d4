extension Dictionary where Value == ContinuousClock.Instant {
    /// Notes `key` at `time` in a table of at most `capacity` keys: a new key makes room by dropping the one
    /// noted longest ago. The pairing engine's tables fed by received frames are bounded so.
    mutating func note(_ key: Key, at time: ContinuousClock.Instant = .now, capacity: Int) {
        if self[key] == nil, count >= capacity, let oldest = self.min(by: { $0.value < $1.value })?.key {
            self[oldest] = nil
        }
        self[key] = time
    }
}

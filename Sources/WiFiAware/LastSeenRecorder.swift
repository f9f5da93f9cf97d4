internal import FoundationEssentials
internal import Synchronization

/// Writes when paired devices were last recognised to the store, at most once per ``interval`` per
/// device: a session hears a paired publisher every discovery window, and the store is a file rewritten
/// whole. The table of last writes is bounded (``capacity`` devices; the oldest entry goes first).
final class LastSeenRecorder: Sendable {
    /// The shortest time between two writes for one device.
    let interval: Duration
    /// The most devices remembered.
    let capacity: Int
    private let written = Mutex<[WAPairedDevice.ID: ContinuousClock.Instant]>([:])

    init(interval: Duration = .seconds(60), capacity: Int = 256) {
        self.interval = interval
        self.capacity = max(1, capacity)
    }

    /// Whether a sighting of `id` at `now` is to be written (and, if so, remembers it as written).
    func shouldWrite(_ id: WAPairedDevice.ID, now: ContinuousClock.Instant = .now) -> Bool {
        written.withLock { written in
            if let last = written[id], now - last < interval { return false }
            if written[id] == nil, written.count >= capacity,
                let oldest = written.min(by: { $0.value < $1.value })?.key
            {
                written[oldest] = nil
            }
            written[id] = now
            return true
        }
    }

    /// Notes a sighting of `device` in `store`: written in the background when due, ignoring failures
    /// (a store briefly locked or unreadable only loses one sighting).
    func saw(_ device: WAPairedDevice, in store: WADeviceStore) {
        guard shouldWrite(device.id) else { return }
        let id = device.id
        Task.detached(priority: .utility) { try? store.noteSeen(id) }
    }
}

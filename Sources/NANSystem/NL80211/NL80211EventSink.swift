import Synchronization

/// Feeds the session's bounded event stream and makes lost events visible: whenever the stream's
/// buffer had to drop its oldest events, the next delivery is preceded by
/// ``NL80211Event/overrun(droppedEvents:)`` with how many were dropped.
final class NL80211EventSink: Sendable {
    private let continuation: AsyncThrowingStream<NL80211Event, any Error>.Continuation
    private let dropped = Mutex(0)

    /// Wraps the continuation of a stream made with `.bufferingNewest(n)`.
    init(_ continuation: AsyncThrowingStream<NL80211Event, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Delivers one event (reporting earlier drops first).
    func deliver(_ event: NL80211Event) {
        reportDrops()
        yield(event)
    }

    /// Ends the stream, reporting any drops not yet reported.
    func finish(throwing error: (any Error)? = nil) {
        reportDrops()
        continuation.finish(throwing: error)
    }

    private func reportDrops() {
        let lost = dropped.withLock { count -> Int in
            defer { count = 0 }
            return count
        }
        if lost > 0 { yield(.overrun(droppedEvents: lost)) }
    }

    private func yield(_ event: NL80211Event) {
        if case .dropped = continuation.yield(event) {
            dropped.withLock { $0 += 1 }
        }
    }
}

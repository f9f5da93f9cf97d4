import Synchronization

/// Feeds the session's bounded event stream and makes lost events visible: whenever the stream's
/// buffer had to drop its oldest events, the next delivery is preceded by
/// ``NL80211Event/overrun(droppedEvents:)`` with how many were dropped. Once redirected, it hands events
/// to the redirect's handler instead, on the thread that read them.
final class NL80211EventSink: Sendable {
    /// Where events go instead of the stream.
    struct Redirect: Sendable {
        let deliver: @Sendable (NL80211Event) -> Void
        let finished: @Sendable ((any Error)?) -> Void
    }

    private enum Route {
        case stream
        case redirected(Redirect)
        /// The session ended (with this failure, if any) before a redirect came.
        case ended((any Error)?)
    }

    private let continuation: AsyncThrowingStream<NL80211Event, any Error>.Continuation
    private let dropped = Mutex(0)
    private let route = Mutex(Route.stream)

    /// Wraps the continuation of a stream made with `.bufferingNewest(n)`.
    init(_ continuation: AsyncThrowingStream<NL80211Event, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Delivers one event (reporting earlier drops first).
    func deliver(_ event: NL80211Event) {
        if case .redirected(let redirect) = route.withLock({ $0 }) {
            redirect.deliver(event)
            return
        }
        reportDrops()
        yield(event)
    }

    /// Ends the stream (or tells the redirect), reporting any drops not yet reported.
    func finish(throwing error: (any Error)? = nil) {
        let redirect: Redirect? = route.withLock { route in
            switch route {
            case .redirected(let redirect):
                route = .ended(error)
                return redirect
            case .stream:
                route = .ended(error)
                return nil
            case .ended:
                return nil
            }
        }
        if let redirect {
            redirect.finished(error)
            return
        }
        reportDrops()
        continuation.finish(throwing: error)
    }

    /// Sends later events to `redirect` and ends the stream. If the session has already ended,
    /// `redirect` is told at once.
    func redirect(to redirect: Redirect) {
        let ended: (any Error)?? = route.withLock { route in
            if case .ended(let error) = route { return .some(error) }
            route = .redirected(redirect)
            return .none
        }
        if case .some(let error) = ended {
            redirect.finished(error)
        } else {
            continuation.finish()
        }
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

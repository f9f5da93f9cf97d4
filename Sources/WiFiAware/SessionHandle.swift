internal import Synchronization
import NANWire

/// Shared between a publisher or subscriber value and the task running its session: whether it was
/// iterated yet, and the engine session once started, so that `stop()` can reach it.
final class SessionHandle: Sendable {
    private struct State {
        var iterated = false
        var session: BackendSession?
        var stopRequested = false
        var ended = false
        var droppedEvents = 0
    }

    private let state = Mutex(State())

    /// Marks the sequence as iterated; returns false if it already was (sessions run once).
    func claimIteration() -> Bool {
        state.withLock { state in
            defer { state.iterated = true }
            return !state.iterated
        }
    }

    /// Records the running session; stops it at once if `stop()` came first.
    func started(_ session: BackendSession) {
        let stopNow = state.withLock { state in
            state.session = session
            return state.stopRequested
        }
        if stopNow { Task { await session.stop() } }
    }

    /// Records that the session is over.
    func ended() {
        state.withLock { state in
            state.session = nil
            state.ended = true
        }
    }

    /// Counts an event the consumer's full buffer dropped.
    func noteDroppedEvent() { state.withLock { $0.droppedEvents += 1 } }

    /// Events dropped so far because the consumer fell behind.
    var droppedEvents: Int { state.withLock { $0.droppedEvents } }

    /// Our instance ID while the session runs.
    var instanceID: InstanceID? { state.withLock { $0.session?.instanceID } }

    /// Stops the session (or, if it is still starting, stops it as soon as it has started).
    func stop() async {
        let session = state.withLock { state -> BackendSession? in
            state.stopRequested = true
            return state.session
        }
        await session?.stop()
    }
}

// Dispatch sources are thread-safe but not yet annotated Sendable.
@preconcurrency internal import Dispatch
internal import NANWire
internal import Synchronization

/// One wait until a socket descriptor is readable or writable, event-driven as ``NetlinkConnection``'s
/// reader: a Dispatch read or write source on the descriptor, and a Dispatch timer for the deadline. No
/// thread is held while it waits.
///
/// The first of the source's event, the timer and ``end(_:)`` decides the outcome, resumes the waiting task
/// (exactly once: the decision is taken under a lock) and cancels both sources. The read or write source's
/// cancel handler, which Dispatch runs once the descriptor is unregistered, holds the ``SocketDescriptor``
/// until then, so the descriptor is never closed (and its number reused) while Dispatch still watches it.
/// Used only through ``SocketDescriptor/wait(for:until:what:)``.
final class ReadinessWait: Sendable {
    /// What a wait waits for.
    enum Readiness: Sendable {
        case readable, writable
    }

    /// How a wait ended.
    enum Outcome: Sendable {
        case ready, timedOut, cancelled
    }

    /// Where every wait's handlers run: a serial queue of its own, so it gets a thread even while the global
    /// queues' few are busy with blocking work (their handlers are a lock and a resume).
    private static let queue = DispatchQueue(label: "waware.sockets")

    private let source: any DispatchSourceProtocol
    private let timer: (any DispatchSourceTimer)?
    private let state = Mutex<(outcome: Outcome?, waiting: CheckedContinuation<Outcome, Never>?)>((nil, nil))

    /// A wait on `descriptor` until it is `readiness` or `deadline` passes; started by ``run()``, which must be
    /// called once (Dispatch traps on releasing a source never resumed).
    init(on descriptor: SocketDescriptor, readiness: Readiness, deadline: ContinuousClock.Instant?) {
        let queue = Self.queue
        source =
            readiness == .readable
            ? DispatchSource.makeReadSource(fileDescriptor: descriptor.raw, queue: queue)
            : DispatchSource.makeWriteSource(fileDescriptor: descriptor.raw, queue: queue)
        timer = deadline.map { deadline in
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: (deadline - .now).inNanoseconds)))
            return timer
        }
        source.setEventHandler { self.end(.ready) }
        timer?.setEventHandler { self.end(.timedOut) }
        source.setCancelHandler { withExtendedLifetime(descriptor) {} }
    }

    /// Ends the wait with `outcome`, unless it has ended already. Safe from any thread, at any time.
    func end(_ outcome: Outcome) {
        let (first, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Outcome, Never>?) in
            guard state.outcome == nil else { return (false, nil) }
            state.outcome = outcome
            defer { state.waiting = nil }
            return (true, state.waiting)
        }
        guard first else { return }
        // Cancelling a source that is not resumed yet is allowed: it is cancelled once it is.
        source.cancel()
        timer?.cancel()
        waiting?.resume(returning: outcome)  // nil: the wait is not running yet, run() returns the outcome
    }

    /// Waits until the outcome is decided.
    func run() async -> Outcome {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state in
                if state.outcome == nil { state.waiting = continuation }
                return state.outcome
            }
            source.resume()
            timer?.resume()
            if let ended { continuation.resume(returning: ended) }
        }
    }
}

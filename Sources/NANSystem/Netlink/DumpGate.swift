import Synchronization

/// Lets one dump at a time run on a netlink socket.
///
/// The kernel runs at most one dump per socket and refuses a second with `EBUSY` (seen on Linux 7.2
/// when two `adapters()` calls overlapped), so dump requests wait here in arrival order. Plain
/// requests do not need the gate.
final class DumpGate: Sendable {
    private struct State {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits until no other dump is running, then marks one as running.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let runNow = state.withLock { state -> Bool in
                if state.busy {
                    state.waiters.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if runNow { continuation.resume() }
        }
    }

    /// Ends the running dump and lets the next waiter start.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.busy = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

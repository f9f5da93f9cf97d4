import Synchronization

/// The transmit statuses of a radio's frames, for whoever waits on one: the one place a sent frame meets its
/// status. The runtime's router feeds it every `FRAME_TX_STATUS` of the session; discovery (follow-ups), the
/// data path (NAFs, keepalives) and pairing (PASN frames) wait here through ``NANRuntime/acknowledgement(of:within:)``
/// and no client reads statuses itself.
///
/// A status can reach the reader thread before its sender has its cookie back from `FRAME`: a status nobody
/// waits for yet is kept (the last ``TransmitStatusBook/earlyLimit``) for a wait that comes late. Waits are
/// bounded too: beyond the limit the oldest ends with no status, as does every wait when the radio stops.
final class TransmitStatuses: Sendable {
    private struct State {
        var book: TransmitStatusBook<CheckedContinuation<Bool?, Never>>
        var finished = false
    }

    private let state: Mutex<State>

    /// Keeps at most `earlyLimit` statuses nobody waited for and `waitingLimit` waits.
    init(earlyLimit: Int = 64, waitingLimit: Int = 256) {
        state = Mutex(State(book: TransmitStatusBook(earlyLimit: earlyLimit, waitingLimit: waitingLimit)))
    }

    /// The status of the frame sent under `cookie` came.
    func arrived(_ cookie: UInt64, acknowledged: Bool) {
        state.withLock { $0.book.arrived(cookie, acknowledged: acknowledged) }?.resume(returning: acknowledged)
    }

    /// Waits at most `timeout` for the status of the frame sent under `cookie`: whether the peer acknowledged
    /// it, or nil when no status came (in time, before the radio stopped, or before the task was cancelled).
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool?, Never>) in
                let (answer, evicted) = state.withLock { state -> (Bool??, CheckedContinuation<Bool?, Never>?) in
                    if state.finished || Task.isCancelled { return (.some(nil), nil) }
                    if let early = state.book.takeEarly(cookie) { return (early, nil) }
                    return (nil, state.book.expect(cookie, continuation))
                }
                evicted?.resume(returning: nil)
                if let answer { return continuation.resume(returning: answer) }
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    self?.giveUp(cookie)
                }
            }
        } onCancel: {
            giveUp(cookie)
        }
    }

    /// Ends the wait for `cookie`, if there is one, with no status.
    private func giveUp(_ cookie: UInt64) {
        state.withLock { $0.book.cancel(cookie) }?.resume(returning: nil)
    }

    /// The radio stopped: every wait ends with no status, now and from now on.
    func finish() {
        let waits = state.withLock { state in
            state.finished = true
            return state.book.removeAll()
        }
        for wait in waits { wait.resume(returning: nil) }
    }
}

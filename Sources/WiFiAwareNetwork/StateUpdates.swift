internal import Synchronization

/// The state of a ``NetworkListener`` or ``NetworkBrowser`` and the handler told of each change, behind one
/// lock: a state set again is not reported twice, and the handler runs outside the lock.
final class StateUpdates<Owner: AnyObject & Sendable>: Sendable {
    typealias Handler = @Sendable (Owner, NetworkState) -> Void

    private let core = Mutex<(state: NetworkState, handler: Handler?)>((.setup, nil))

    /// The state now.
    var state: NetworkState { core.withLock { $0.state } }

    /// Calls `handler` at each state change from now on.
    func setHandler(_ handler: @escaping Handler) { core.withLock { $0.handler = handler } }

    /// Moves to `state` and tells the handler, with `owner`, if it changed.
    func update(_ state: NetworkState, of owner: Owner) {
        let handler = core.withLock { core -> Handler? in
            guard core.state != state else { return nil }
            core.state = state
            return core.handler
        }
        handler?(owner, state)
    }
}

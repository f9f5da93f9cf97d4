internal import FoundationEssentials
internal import Synchronization

/// Tells the watchers of a store in this process that it changed, so they need not wait for
/// their next poll. Each watcher has a one-slot buffer, so a burst of changes costs one wake-up.
final class StoreChangeSignal: Sendable {
    static let shared = StoreChangeSignal()

    private struct State {
        var nextToken = 0
        var watchers: [String: [Int: AsyncStream<Void>.Continuation]] = [:]
    }

    private let state = Mutex(State())

    /// Registers a watcher of the store at `url`; returns a token for ``remove(_:for:)``.
    func add(_ continuation: AsyncStream<Void>.Continuation, for url: URL) -> Int {
        state.withLock { state in
            state.nextToken += 1
            state.watchers[url.path, default: [:]][state.nextToken] = continuation
            return state.nextToken
        }
    }

    /// Unregisters a watcher.
    func remove(_ token: Int, for url: URL) {
        state.withLock { state in
            state.watchers[url.path]?[token] = nil
            if state.watchers[url.path]?.isEmpty == true {
                state.watchers[url.path] = nil
            }
        }
    }

    /// Wakes every watcher of the store at `url`.
    func notify(_ url: URL) {
        let continuations = state.withLock { Array(($0.watchers[url.path] ?? [:]).values) }
        for continuation in continuations {
            continuation.yield()
        }
    }
}

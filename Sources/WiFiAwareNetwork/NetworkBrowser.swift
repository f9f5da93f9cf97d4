/// Looks for a service's listeners on paired devices over Wi-Fi Aware, shaped as Apple's `NetworkBrowser`:
///
/// ```swift
/// let endpoint = try await NetworkBrowser(for: .wifiAware(.connecting(to: .allPairedDevices, from: service)))
///     .run { endpoints in .finish(endpoints.first!) }
/// ```
///
/// Underneath it is a ``WAConnectionBrowser`` on the shared radio (``NetworkWiFiAware``).
public final class NetworkBrowser: Sendable {
    /// Where the browser stands.
    public typealias State = NetworkState
    /// Called at each state change.
    public typealias StateUpdateHandler = @Sendable (NetworkBrowser, State) -> Void

    /// What the handler of ``run(_:)`` returns: go on browsing, or finish with a result.
    public enum RunResult<T: Sendable>: Sendable {
        /// Go on browsing.
        case `continue`
        /// Stop browsing; `run` returns this.
        case finish(T)
    }

    /// What it looks for and on which devices.
    public let provider: WASubscriberBrowser
    private let updates = StateUpdates<NetworkBrowser>()

    /// A browser for `provider`.
    public init(for provider: WASubscriberBrowser) { self.provider = provider }

    /// Calls `handler` at each state change from now on.
    @discardableResult
    public func onStateUpdate(_ handler: @escaping StateUpdateHandler) -> Self {
        updates.setHandler(handler)
        return self
    }

    /// The state now.
    public var state: State { updates.state }

    private func update(_ state: State) { updates.update(state, of: self) }

    /// Browses; calls `handler` with every listener found so far each time that set changes (and is not
    /// empty), until it returns `.finish(result)`; then stops browsing and returns `result`.
    ///
    /// - Throws: ``NWError`` when browsing fails (state `failed`) or `handler` throws (its error inside).
    public func run<T: Sendable>(
        _ handler: @escaping @Sendable ([WAEndpoint]) async throws -> RunResult<T>
    )
        async throws -> T
    {
        do {
            let system = try await SharedSystem.shared.system()
            var found: [WAEndpoint] = []
            update(.ready)
            for try await event in system.browser(for: provider.action.service, from: provider.action.devices) {
                switch event {
                case .found(let endpoint):
                    if let index = found.firstIndex(where: { $0.id == endpoint.id }) {
                        found[index] = endpoint
                    } else {
                        found.append(endpoint)
                    }
                case .lost(let endpoint):
                    found.removeAll { $0.id == endpoint.id }
                }
                guard !found.isEmpty else { continue }
                if case .finish(let result) = try await handler(found) {
                    update(.cancelled)
                    return result
                }
            }
            throw NWError(.closed, message: "browsing for \(provider.action.service.name) ended")
        } catch {
            let failure = NWError.from(error)
            update(failure.code == .cancelled ? .cancelled : .failed(failure))
            throw failure
        }
    }
}

/// Publishes a service over Wi-Fi Aware and hands out the connections paired devices make to it, shaped as
/// Apple's `NetworkListener`:
///
/// ```swift
/// try await NetworkListener(for: .wifiAware(.connecting(to: service, from: .allPairedDevices)), using: { TLS() })
///     .onStateUpdate { listener, state in print(state) }
///     .run { connection in ... }
/// ```
///
/// Underneath it is a ``WAConnectionListener`` on the shared radio (``NetworkWiFiAware``).
public final class NetworkListener<ApplicationProtocol: NetworkProtocolOptions>: Sendable {
    /// Where the listener stands.
    public typealias State = NetworkState
    /// Called at each state change.
    public typealias StateUpdateHandler = @Sendable (NetworkListener<ApplicationProtocol>, State) -> Void

    /// What it publishes and to whom.
    public let provider: WAPublisherListener
    /// The protocol stack of the connections.
    public let stack: ApplicationProtocol
    private let updates = StateUpdates<NetworkListener<ApplicationProtocol>>()

    /// A listener for `provider` whose connections run the stack `using` builds.
    public init(
        for provider: WAPublisherListener,
        @ProtocolStackBuilder<ApplicationProtocol> using stack: () -> ApplicationProtocol
    ) {
        self.provider = provider
        self.stack = stack()
    }

    /// Calls `handler` at each state change from now on.
    @discardableResult
    public func onStateUpdate(_ handler: @escaping StateUpdateHandler) -> Self {
        updates.setHandler(handler)
        return self
    }

    /// The state now.
    public var state: State { updates.state }

    private func update(_ state: State) { updates.update(state, of: self) }

    /// Publishes and listens; calls `handler` with each connection, ready, in a task of its own. Returns when
    /// the calling task is cancelled (state `cancelled`).
    ///
    /// - Throws: ``NWError`` when publishing or listening fails (state `failed`).
    public func run(
        _ handler: @escaping @Sendable (NetworkConnection<ApplicationProtocol>) async throws -> Void
    )
        async throws
    {
        do {
            let plan = try stack.plan()
            let configuration = SharedSystem.shared.configuration
            var parameters = plan.parameters(security: configuration.dataPathSecurity)
            parameters.peerIdentifier = configuration.peerIdentifier
            let system = try await SharedSystem.shared.system()
            let listener = system.listener(
                for: provider.action.service, from: provider.action.devices, parameters: parameters)
            let stack = stack
            try await withThrowingTaskGroup(of: Void.self) { group in
                for try await event in listener {
                    switch event {
                    case .ready: update(.ready)
                    case .connection(let accepted):
                        group.addTask {
                            let connection = NetworkConnection(accepted: accepted, stack: stack, plan: plan)
                            do { try await handler(connection) } catch { connection.cancel() }
                        }
                    case .refused, .dataPathUp, .dataPathDown: break
                    }
                }
            }
            update(.cancelled)
        } catch {
            let failure = NWError.from(error)
            if failure.code == .cancelled || Task.isCancelled {
                update(.cancelled)
                return
            }
            update(.failed(failure))
            throw failure
        }
    }
}

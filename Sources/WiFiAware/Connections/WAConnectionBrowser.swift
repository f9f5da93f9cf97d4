/// What a ``WAConnectionBrowser`` reports.
public enum WABrowserEvent: Hashable, Sendable {
    /// A listener of the service was found: connect with ``WASystem/withConnection(to:parameters:onStateUpdate:_:)``.
    case found(WAEndpoint)
    /// It was not heard for a while, or its device left the selection.
    case lost(WAEndpoint)
}

/// Subscribes to a service on a device selection and reports the listeners found (Apple's
/// `NetworkBrowser(for: .wifiAware(.connecting(to: devices, from: service)))`): only publishers that
/// announce a connection port. Iterated once; leaving the loop stops subscribing.
public struct WAConnectionBrowser: AsyncSequence, Sendable {
    /// The events.
    public typealias Element = WABrowserEvent
    /// The iterator.
    public typealias AsyncIterator = AsyncThrowingStream<WABrowserEvent, any Error>.Iterator

    /// The service looked for.
    public let service: WASubscribableService
    /// Whose listeners are reported.
    public let devices: WADeviceSelection
    /// Subscribe actively (ask in each DW) rather than wait for unsolicited publishes.
    public let active: Bool
    let system: WASystem

    /// Starts subscribing.
    public func makeAsyncIterator() -> AsyncIterator {
        var parameters = WASubscriberParameters()
        parameters.active = active
        let subscriber = system.subscribe(to: service, from: devices, parameters: parameters)
        return AsyncThrowingStream<Element, any Error>.produced(buffer: 64, while: "browse for \(service.name)") {
            continuation in
            for try await event in subscriber {
                switch event {
                case .discovered(let endpoint), .updated(let endpoint):
                    if ConnectionServiceInfo.port(in: endpoint.serviceInfo) != nil {
                        continuation.yield(.found(endpoint))
                    }
                case .lost(let endpoint):
                    if ConnectionServiceInfo.port(in: endpoint.serviceInfo) != nil {
                        continuation.yield(.lost(endpoint))
                    }
                case .terminated(let reason):
                    throw WAError(.connectionTerminated, message: "browsing for \(service.name) ended (\(reason))")
                default: break
                }
            }
        }.makeAsyncIterator()
    }
}

import NANWire
import NANEngine
import NANCrypto
import NANSystem

/// A running subscribe to a declared service: Apple's `WASubscriberBrowser` (the
/// `.wifiAware(.connecting(to: devices, from: service))` browser). Get one from ``WASystem/subscribe(to:from:parameters:)``.
///
/// It is an asynchronous sequence of ``WASessionEvent``s: publishers of the service on the selected
/// devices are ``WASessionEvent/discovered(_:)``, ``WASessionEvent/updated(_:)`` when their service
/// information changes, and ``WASessionEvent/lost(_:)`` when not heard for `peerTimeout` or when their
/// device leaves the selection. Publishers on other devices are never reported. Iterating starts the
/// subscribe on the radio; cancelling the consuming task (or leaving the loop) stops it. It can be iterated once.
///
/// ```swift
/// let paired = system.subscribe(to: service, from: .allPairedDevices)
/// for try await event in paired {
///     if case .discovered(let endpoint) = event {
///         print("found", endpoint)
///         _ = try await paired.send(Array("hello".utf8), to: endpoint)
///     }
/// }
/// ```
public struct WASubscriber: AsyncSequence, Sendable {
    /// Each event.
    public typealias Element = WASessionEvent
    /// Iterates the events; throws ``WAError``.
    public typealias AsyncIterator = AsyncThrowingStream<WASessionEvent, any Error>.Iterator

    /// The service looked for.
    public let service: WASubscribableService
    /// Which peers are reported.
    public let devices: WADeviceSelection
    /// How the subscribe runs.
    public let parameters: WASubscriberParameters
    let system: WASystem
    let handle = SessionHandle()

    /// Starts the subscribe and iterates its events. The sequence throws
    /// ``WAError/Code/serviceAlreadySubscribing`` if the service is already subscribed to on this device,
    /// ``WAError/Code/noPairedDevices`` or ``WAError/Code/deviceInvalid`` if the selection is empty or stale.
    public func makeAsyncIterator() -> AsyncIterator {
        let (service, parameters) = (service, parameters)
        // Publishers the radio hears while the session sets up (lease, device store) count: setting up must
        // not cost a DW.
        let requested = ContinuousClock.now
        let (transport, adapter) = (system.transport, system.adapterName)
        return SessionRunner(
            system: system, role: .subscribe, service: service.name, selection: devices, handle: handle,
            start: { backend in
                try parameters.transport.admitSession("subscriber", on: transport, adapter: adapter)
                var configuration = try Self.configuration(service, parameters)
                configuration.reportHeardSince = requested
                return try await backend.subscribe(configuration)
            }
        ).iterator(rerun: "a subscriber runs once; make a new one with subscribe(to:from:)")
    }

    /// Sends a message (at most 255 bytes) to an endpoint this subscriber reported.
    ///
    /// - Returns: Whether the peer's radio acknowledged it.
    /// - Throws: ``WAError/Code/invalidArgument`` for a long message or a foreign endpoint,
    ///   ``WAError/Code/connectionTerminated`` if the subscriber has ended.
    @discardableResult
    public func send(_ message: [UInt8], to endpoint: WAEndpoint) async throws(WAError) -> WADeliveryStatus {
        try await system.send(message, to: endpoint, from: handle, service: service.name)
    }

    /// How many events were dropped because the loop consuming them fell more than 256 events behind
    /// (the oldest go first). Zero unless the consumer blocks for a long time.
    public var droppedEventCount: Int { handle.droppedEvents }

    /// Stops the subscribe; the sequence ends with ``WASessionEvent/terminated(_:)`` (``WATerminationReason/userRequest``).
    public func stop() async { await handle.stop() }

    /// The engine configuration: the declared defaults with the parameters on top.
    static func configuration(
        _ service: WASubscribableService, _ parameters: WASubscriberParameters
    ) throws -> SubscribeConfiguration {
        var configuration = SubscribeConfiguration(serviceID: try ServiceID(serviceName: service.name.rawValue))
        configuration.active = parameters.active
        configuration.serviceInfo = parameters.serviceInfo ?? service.serviceInfo
        let declared = WASystem.matchingFilter(service.matchFilter)
        configuration.transmitFilter = parameters.transmitFilter ?? declared
        configuration.receiveFilter = parameters.receiveFilter ?? declared
        configuration.responseFilter = parameters.responseFilter
        configuration.closeRangeOnly = parameters.closeRangeOnly
        configuration.timeToLive = TimeToLive(
            duration: parameters.timeLimit, discoveryWindows: parameters.discoveryWindowLimit)
        configuration.lostAfterPeriods = parameters.peerTimeout?.discoveryWindowPeriods
        return configuration
    }
}

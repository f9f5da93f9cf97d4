import NANWire
import NANEngine
import NANCrypto
import NANSystem

/// A running publish of a declared service on this device: Apple's `WAPublisherListener` (the
/// `.wifiAware(.connecting(to: service, from: devices))` listener). Get one from ``WASystem/publish(_:to:parameters:)``.
///
/// It is an asynchronous sequence of ``WASessionEvent``s. Iterating it starts the publish on the radio;
/// the publish ends when the sequence ends: after ``stop()``, its time limit, or when the consuming task is
/// cancelled (or the loop is left), which stops it on the radio. It can be iterated once.
///
/// ```swift
/// let publisher = system.publish(service, to: .allPairedDevices)
/// for try await event in publisher {
///     if case .messageReceived(let message) = event {
///         _ = try await publisher.send(Array("pong".utf8), to: message.endpoint)
///     }
/// }
/// ```
///
/// Only peers the device selection admits are reported and their messages delivered. A NAN publish is
/// broadcast, so other devices can still see the service; pairing-based privacy needs NAN pairing.
public struct WAPublisher: AsyncSequence, Sendable {
    /// Each event.
    public typealias Element = WASessionEvent
    /// Iterates the events; throws ``WAError``.
    public typealias AsyncIterator = AsyncThrowingStream<WASessionEvent, any Error>.Iterator

    /// The published service.
    public let service: WAPublishableService
    /// Which peers are reported.
    public let devices: WADeviceSelection
    /// How the publish runs.
    public let parameters: WAPublisherParameters
    let system: WASystem
    let handle = SessionHandle()

    /// Starts the publish and iterates its events. The sequence throws
    /// ``WAError/Code/serviceAlreadyPublishing`` if the service is already published on this device,
    /// ``WAError/Code/noPairedDevices`` or ``WAError/Code/deviceInvalid`` if the selection is empty or stale.
    public func makeAsyncIterator() -> AsyncIterator {
        let (service, parameters) = (service, parameters)
        let (transport, adapter) = (system.transport, system.adapterName)
        return SessionRunner(
            system: system, role: .publish, service: service.name, selection: devices, handle: handle,
            start: { backend in
                try parameters.transport.admitSession("publisher", on: transport, adapter: adapter)
                return try await backend.publish(try Self.configuration(service, parameters))
            }
        ).iterator(rerun: "a publisher runs once; make a new one with publish(_:to:)")
    }

    /// Sends a message (at most 255 bytes) to an endpoint this publisher reported.
    ///
    /// - Returns: Whether the peer's radio acknowledged it.
    /// - Throws: ``WAError/Code/invalidArgument`` for a long message or a foreign endpoint,
    ///   ``WAError/Code/connectionTerminated`` if the publisher has ended.
    @discardableResult
    public func send(_ message: [UInt8], to endpoint: WAEndpoint) async throws(WAError) -> WADeliveryStatus {
        try await system.send(message, to: endpoint, from: handle, service: service.name)
    }

    /// How many events were dropped because the loop consuming them fell more than 256 events behind
    /// (the oldest go first). Zero unless the consumer blocks for a long time.
    public var droppedEventCount: Int { handle.droppedEvents }

    /// Stops the publish; the sequence ends with ``WASessionEvent/terminated(_:)`` (``WATerminationReason/userRequest``).
    public func stop() async { await handle.stop() }

    /// The engine configuration: the declared defaults with the parameters on top.
    static func configuration(
        _ service: WAPublishableService, _ parameters: WAPublisherParameters
    ) throws -> PublishConfiguration {
        var configuration = PublishConfiguration(serviceID: try ServiceID(serviceName: service.name.rawValue))
        var type: PublishType = []
        if parameters.solicited { type.insert(.solicited) }
        if parameters.unsolicited { type.insert(.unsolicited) }
        configuration.type = type
        configuration.serviceInfo = parameters.serviceInfo ?? service.serviceInfo
        let declared = WASystem.matchingFilter(service.matchFilter)
        configuration.transmitFilter = parameters.transmitFilter ?? declared
        configuration.receiveFilter = parameters.receiveFilter ?? declared
        configuration.closeRangeOnly = parameters.closeRangeOnly
        configuration.offersDataPath = service.wantsDataPath
        configuration.timeToLive = TimeToLive(
            duration: parameters.timeLimit, discoveryWindows: parameters.discoveryWindowLimit)
        configuration.lostAfterPeriods = parameters.peerTimeout?.discoveryWindowPeriods
        return configuration
    }
}

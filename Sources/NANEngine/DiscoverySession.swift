public import NANWire

/// A running publish or subscribe: an asynchronous sequence of its events, ending after `.terminated`.
///
/// ```swift
/// let session = try await engine.subscribe(SubscribeConfiguration(serviceID: id))
/// for await event in session {
///     if case .discovered(let result) = event {
///         _ = try await session.send(Array("hello".utf8), to: result.peer, peerInstanceID: result.peerInstanceID)
///     }
/// }
/// ```
public struct DiscoverySession: AsyncSequence, Sendable {
    /// Each event of the session.
    public typealias Element = DiscoveryEvent
    /// Iterates the events.
    public typealias AsyncIterator = AsyncStream<DiscoveryEvent>.Iterator

    /// Our instance ID for this service (what peers address follow-ups to).
    public let instanceID: InstanceID
    let stream: AsyncStream<DiscoveryEvent>
    let engine: DiscoveryEngine

    /// Iterates the events; the sequence can be iterated once.
    public func makeAsyncIterator() -> AsyncStream<DiscoveryEvent>.Iterator { stream.makeAsyncIterator() }

    /// Sends a follow-up message to a peer's instance and waits for its delivery status.
    ///
    /// - Throws: `DiscoveryError.tooLong` for more than 255 bytes, `.sessionEnded` after termination.
    public func send(_ payload: [UInt8], to peer: MACAddress, peerInstanceID: InstanceID) async throws -> DeliveryStatus
    {
        try await engine.send(payload, from: instanceID, to: peer, peerInstanceID: peerInstanceID)
    }

    /// Stops the session; its sequence ends with `.terminated(.userRequest)`.
    public func stop() async { await engine.stop(instanceID) }
}

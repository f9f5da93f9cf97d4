public import NANSystem
public import NANWire

/// NAN unsynchronized service discovery (USD) on one adapter: publish, subscribe and follow-ups in action
/// frames on an ordinary station interface, with no NAN cluster and no NAN support needed from the driver
/// (docs/usd.md). Sessions are the same ``DiscoverySession``-like sequences of ``DiscoveryEvent``s as on the
/// synchronized engine; USD has no data path.
///
/// ```swift
/// try await USDEngine.run(on: adapter) { engine in
///     let session = try await engine.subscribe(SubscribeConfiguration(serviceID: id))
///     for await event in session { print(event) }
/// }
/// ```
public struct USDEngine: Sendable {
    let core: USDEngineCore<NL80211USDRadio>

    /// The address our frames carry: the station interface's.
    public var localAddress: MACAddress { core.radio.localAddress }
    /// The station interface USD runs on, e.g. `wlan0`.
    public var interfaceName: String? { core.radio.interface.name }
    /// The channel, in MHz.
    public var frequency: Int { core.options.frequency }
    /// The channel the station interface was operating on when USD started (connected to an access point),
    /// in MHz; nil when it had none. USD on another channel leaves it to listen, at a cost to the connection.
    public var stationFrequency: Int? { core.radio.interface.frequency.map { Int($0.rawValue) } }

    /// Starts a publish.
    ///
    /// - Throws: ``DiscoveryError`` (`noPublishType`, `tooLong`, `tooManyServices`, `engineStopped`).
    public func publish(_ configuration: PublishConfiguration) async throws -> USDSession {
        let (id, stream) = try await core.start(.publish(configuration))
        return USDSession(instanceID: id, stream: stream, stopping: { await core.stop(id) })
    }

    /// Starts a subscribe (active ones send a subscribe every announcement period, passive ones listen).
    public func subscribe(_ configuration: SubscribeConfiguration) async throws -> USDSession {
        let (id, stream) = try await core.start(.subscribe(configuration))
        return USDSession(instanceID: id, stream: stream, stopping: { await core.stop(id) })
    }

    /// Sends a follow-up from our session `local` to a peer's instance; retried until acknowledged, up to
    /// ``USDOptions/followUpAttempts`` times.
    public func send(
        _ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID
    ) async throws -> DeliveryStatus {
        try await core.send(payload, from: local, to: peer, peerInstanceID: peerInstanceID)
    }

    /// Every peer heard so far, most recently heard first.
    public func peers() async -> [Peer] { await core.knownPeers }

    /// Changes in whether the radio listens on the channel after the start: a refused remain-on-channel (the
    /// engine asks again every announcement period, silently), and listening again. Ends when the engine stops;
    /// iterate it once.
    public var listenNotices: AsyncStream<USDListenNotice> { core.listenNotices }

    /// Runs USD on `adapter` for the duration of `body`: takes its station interface (or creates one the
    /// kernel removes when this ends), registers for NAN SDFs, and stops every session when `body` returns.
    ///
    /// - Throws: ``NetlinkError`` when the interface cannot be set up (`permissionDenied`, a kernel refusal
    ///   when another program already receives NAN frames on it), or what `body` throws.
    public static func run<Result: Sendable>(
        on adapter: Adapter, options: USDOptions = USDOptions(), _ body: (USDEngine) async throws -> Result
    ) async throws -> Result {
        var options = options
        if let maximum = adapter.usd.maximumRemainOnChannel, maximum < options.listenPeriod {
            options.listenPeriod = maximum
        }
        return try await NL80211.withSession { session in
            let radio = try await NL80211USDRadio(session: session, adapter: adapter, frequency: options.frequency)
            let core = USDEngineCore(radio: radio, options: options)
            let pump = Task {
                do {
                    for try await event in radio.events { await core.handle(event) }
                    await core.shutdown(.deviceRemoved)
                } catch {
                    await core.shutdown(.failure)
                }
            }
            defer { pump.cancel() }
            do {
                let result = try await body(USDEngine(core: core))
                await core.shutdown(.userRequest)
                return result
            } catch {
                await core.shutdown(.userRequest)
                throw error
            }
        }
    }
}

/// A running USD publish or subscribe: its events, ending after `.terminated`.
public struct USDSession: AsyncSequence, Sendable {
    /// Each event of the session.
    public typealias Element = DiscoveryEvent
    /// Iterates the events.
    public typealias AsyncIterator = AsyncStream<DiscoveryEvent>.Iterator

    /// Our instance ID for this service (what peers address follow-ups to).
    public let instanceID: InstanceID
    let stream: AsyncStream<DiscoveryEvent>
    let stopping: @Sendable () async -> Void

    /// Iterates the events; the sequence can be iterated once.
    public func makeAsyncIterator() -> AsyncStream<DiscoveryEvent>.Iterator { stream.makeAsyncIterator() }

    /// Stops the session; its sequence ends with `.terminated(.userRequest)`.
    public func stop() async { await stopping() }
}

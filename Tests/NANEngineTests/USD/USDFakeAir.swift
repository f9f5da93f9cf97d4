import NANWire
@testable import NANEngine

/// A simulated channel for USD engines: a frame reaches every other engine listening on its frequency
/// (multicast) or the addressed one, before `transmit` returns; a unicast frame to a present, hearing engine is
/// acknowledged (its status reaches the sender before `transmit` returns), a multicast one never is.
actor USDFakeAir {
    struct Sent: Sendable {
        var from: MACAddress
        var bytes: [UInt8]
        var frequency: Int
    }

    private var engines: [MACAddress: USDEngineCore<USDFakeRadio>] = [:]
    private(set) var sent: [Sent] = []
    private(set) var listens: [MACAddress: Int] = [:]
    private var nextCookie: UInt64 = 1
    /// Radios that neither hear nor acknowledge.
    private var deaf: Set<MACAddress> = []

    func attach(_ engine: USDEngineCore<USDFakeRadio>) { engines[engine.localAddress] = engine }
    func makeDeaf(_ address: MACAddress) { deaf.insert(address) }

    /// Radios whose listens (remain-on-channel) the kernel refuses.
    private var refusing: Set<MACAddress> = []

    func listen(_ address: MACAddress) throws(USDFakeRefusal) {
        guard !refusing.contains(address) else { throw USDFakeRefusal() }
        listens[address, default: 0] += 1
    }
    func refuseListens(_ address: MACAddress, _ refuse: Bool) {
        if refuse { refusing.insert(address) } else { refusing.remove(address) }
    }

    func transmit(_ bytes: [UInt8], from source: MACAddress, frequency: Int) async -> UInt64 {
        let cookie = nextCookie
        nextCookie += 1
        sent.append(Sent(from: source, bytes: bytes, frequency: frequency))
        let destination = MACAddress(bytes: bytes[4..<10]) ?? .broadcast
        var acknowledged = false
        for (address, engine) in engines where address != source && !deaf.contains(address) {
            guard destination.isMulticast || destination == address else { continue }
            await engine.handle(.frameReceived(bytes: bytes, frequency: frequency, signal: -40))
            acknowledged = !destination.isMulticast
        }
        await engines[source]?.handle(.transmitStatus(cookie: cookie, acknowledged: acknowledged))
        return cookie
    }

    /// Hands `bytes` to the engine at `address` as if heard on the air.
    func inject(_ bytes: [UInt8], to address: MACAddress) async {
        await engines[address]?.handle(.frameReceived(bytes: bytes, frequency: 2437, signal: -40))
    }
}

/// The engine's radio on a ``USDFakeAir``.
struct USDFakeRadio: USDRadio {
    let localAddress: MACAddress
    let air: USDFakeAir

    var events: AsyncStream<USDRadioEvent> { AsyncStream { $0.finish() } }

    func transmit(_ frame: [UInt8], frequency: Int, wait: Duration) async throws -> UInt64 {
        await air.transmit(frame, from: localAddress, frequency: frequency)
    }

    func listen(frequency: Int, duration: Duration) async throws { try await air.listen(localAddress) }
}

/// The fake kernel's refusal of a listen.
struct USDFakeRefusal: Error, CustomStringConvertible {
    var description: String { "NL80211_CMD_REMAIN_ON_CHANNEL: busy (EBUSY)" }
}

/// Two (or more) USD engines on one fake channel, ticked by the test: their own announcement timers are an
/// hour apart, so only their first tick (at the first session's start) and the test's ticks send.
struct USDBench {
    let air = USDFakeAir()
    var engines: [USDEngineCore<USDFakeRadio>] = []

    init(count: Int = 2, options: USDOptions = USDBench.options) async {
        for index in 0..<count {
            let engine = USDEngineCore(
                radio: USDFakeRadio(localAddress: usdAddress(index), air: air), options: options)
            await air.attach(engine)
            engines.append(engine)
        }
    }

    static var options: USDOptions {
        var options = USDOptions()
        options.announcementPeriod = .seconds(3600)
        options.acknowledgementTimeout = .milliseconds(200)
        return options
    }

    /// Every engine runs `count` announcement periods.
    func ticks(_ count: Int) async {
        for _ in 0..<count { for engine in engines { _ = await engine.tick() } }
    }
}

func usdAddress(_ index: Int) -> MACAddress { MACAddress(0x02, 0, 0, 0, 0x0b, UInt8(index)) }

/// Every event a USD session reported: stops it, then reads its events up to `.terminated` (the fake air
/// delivers at once, so everything the test caused is already buffered).
func usdEvents(
    of id: InstanceID, _ stream: AsyncStream<DiscoveryEvent>, on engine: USDEngineCore<USDFakeRadio>
) async -> [DiscoveryEvent] {
    await engine.stop(id)
    var events: [DiscoveryEvent] = []
    for await event in stream { events.append(event) }
    return events
}

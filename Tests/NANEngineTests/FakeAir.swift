import NANWire
@testable import NANEngine

/// A simulated medium joining fake radios. By default frames reach every other radio (or the addressed one)
/// at once, each engine handles them before `send` returns, and the sender hears its TX status before
/// `transmit` returns, so tests are deterministic. Like real hwsim it never acknowledges a broadcast. It can
/// also behave as hwsim does under load (see ``Delivery`` and ``StatusTiming``).
actor FakeAir {
    struct Sent: Sendable {
        var from: MACAddress
        var bytes: [UInt8]
        var frequency: Int?
    }

    /// When a frame reaches the other radios.
    enum Delivery: Sendable {
        /// During `transmit`.
        case atOnce
        /// In the next discovery window: at the next `tick`, before the radios hear of the window (hwsim
        /// sends a frame queued with CMD_FRAME in the next DW slot and notifies the DW after it).
        case nextWindow
    }

    /// When the sender hears the TX status of a frame.
    enum StatusTiming: Sendable {
        /// Before `transmit` returns (the engine must keep a status that comes before it waits for it).
        case beforeReturn
        /// This long after the frame went out (after `transmit` returned).
        case after(Duration)
        /// Never (a status the kernel lost).
        case never
    }

    private struct Queued {
        var bytes: [UInt8]
        var source: MACAddress
        var frequency: Int?
        var cookie: UInt64
    }

    private var engines: [MACAddress: DiscoveryEngine] = [:]
    /// Each radio's transmit service (the runtime's, in production).
    private var statuses: [MACAddress: TransmitStatuses] = [:]
    private var signals: [MACAddress: Int] = [:]
    private(set) var sent: [Sent] = []
    private var queued: [Queued] = []
    private var nextCookie: UInt64 = 100
    /// Radios that do not acknowledge unicast frames (to test delivery failure).
    var deaf: Set<MACAddress> = []
    /// Radios losing events as a netlink overrun does: how many more to drop, and whether DW notifications
    /// are dropped too (else only frames).
    private var losing: [MACAddress: (remaining: Int, windows: Bool)] = [:]
    /// Events dropped per radio and not yet reported to it.
    private var dropped: [MACAddress: Int] = [:]
    private(set) var delivery = Delivery.atOnce
    private(set) var statusTiming = StatusTiming.beforeReturn
    let codec: any DiscoveryFrameCodec

    init(codec: any DiscoveryFrameCodec) { self.codec = codec }

    func attach(_ engine: DiscoveryEngine, signal: Int = -50) {
        engines[engine.localAddress] = engine
        signals[engine.localAddress] = signal
        statuses[engine.localAddress] = TransmitStatuses()
    }

    func makeDeaf(_ address: MACAddress) { deaf.insert(address) }
    func hear(_ address: MACAddress) { deaf.remove(address) }
    func deliver(_ delivery: Delivery) { self.delivery = delivery }

    /// Forces an overrun on the radio at `address`: its next `count` events (frames, and DW
    /// notifications too with `windows`) are dropped, and the radio then reads
    /// `.eventsLost(droppedEvents: count)` before its next event, as the runtime's router reports a full
    /// client buffer.
    func overrun(_ address: MACAddress, losing count: Int, windows: Bool = true) {
        losing[address] = (count, windows)
    }

    /// Hands one event to the radio at `address`, unless an overrun drops it; a radio that lost events is
    /// told so first.
    private func handOver(_ event: RadioEvent, to address: MACAddress) async {
        guard let engine = engines[address] else { return }
        if let loss = losing[address], loss.remaining > 0 {
            let isWindow: Bool
            if case .discoveryWindow = event { isWindow = true } else { isWindow = false }
            if !isWindow || loss.windows {
                losing[address] = loss.remaining > 1 ? (loss.remaining - 1, loss.windows) : nil
                dropped[address, default: 0] += 1
                return
            }
        }
        if let count = dropped.removeValue(forKey: address) {
            await engine.handle(.eventsLost(droppedEvents: count))
        }
        await engine.handle(event)
    }
    func reportStatus(_ timing: StatusTiming) { statusTiming = timing }
    /// The transmit service of the radio at `address`.
    func statuses(of address: MACAddress) -> TransmitStatuses? { statuses[address] }

    /// Frames sent by `source` so far.
    func sent(from source: MACAddress) -> [Sent] { sent.filter { $0.from == source } }

    /// Announces a discovery window to every radio, after sending the frames queued for it.
    func tick(frequency: Int = 2437) async {
        let due = queued
        queued.removeAll()
        for frame in due {
            let acknowledged = await deliverNow(
                frame.bytes, from: frame.source, frequency: frame.frequency ?? frequency)
            await status(acknowledged, cookie: frame.cookie, to: frame.source)
        }
        for address in engines.keys.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
            await handOver(.discoveryWindow(frequency: frequency), to: address)
        }
    }

    func transmit(_ bytes: [UInt8], from source: MACAddress, frequency: Int?) async -> UInt64 {
        nextCookie += 1
        let cookie = nextCookie
        sent.append(Sent(from: source, bytes: bytes, frequency: frequency))
        switch delivery {
        case .atOnce:
            let acknowledged = await deliverNow(bytes, from: source, frequency: frequency ?? 2437)
            await status(acknowledged, cookie: cookie, to: source)
        case .nextWindow:
            queued.append(Queued(bytes: bytes, source: source, frequency: frequency, cookie: cookie))
        }
        return cookie
    }

    /// Hands the frame to its receivers; true when an addressed (unicast) receiver acknowledged it.
    /// A broadcast is never acknowledged.
    private func deliverNow(_ bytes: [UInt8], from source: MACAddress, frequency: Int) async -> Bool {
        let destination = (try? codec.decode(bytes)).flatMap { _ in Self.destination(of: bytes) }
        var acknowledged = false
        for address in engines.keys where address != source {
            guard destination == .broadcast || destination == address, !deaf.contains(address) else { continue }
            if destination == address { acknowledged = true }
            await handOver(.frameReceived(bytes: bytes, frequency: frequency, signal: signals[source]), to: address)
        }
        return acknowledged
    }

    /// Tells the sender's transmit service the TX status of `cookie`, now, later or never, as ``statusTiming``
    /// says.
    private func status(_ acknowledged: Bool, cookie: UInt64, to source: MACAddress) async {
        guard let statuses = statuses[source] else { return }
        switch statusTiming {
        case .beforeReturn:
            statuses.arrived(cookie, acknowledged: acknowledged)
        case .after(let delay):
            Task {
                try? await Task.sleep(for: delay)
                statuses.arrived(cookie, acknowledged: acknowledged)
            }
        case .never:
            break
        }
    }

    /// Address 1 of an 802.11 management frame.
    static func destination(of bytes: [UInt8]) -> MACAddress? {
        guard bytes.count >= 10 else { return nil }
        return MACAddress(bytes: Array(bytes[4..<10]))
    }
}

/// A radio on the fake air.
struct FakeRadio: DiscoveryRadio {
    let localAddress: MACAddress
    let air: FakeAir
    var discoveryMode: DiscoveryMode { .userSpace }
    var events: AsyncStream<RadioEvent> { AsyncStream { $0.finish() } }

    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 {
        await air.transmit(frame, from: localAddress, frequency: frequency)
    }
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? {
        await air.statuses(of: localAddress)?.acknowledgement(of: cookie, within: timeout)
    }
    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle {
        throw DiscoveryError("not offloaded")
    }
    func removeFunction(cookie: UInt64) async throws {}
}

func address(_ last: UInt8) -> MACAddress {
    MACAddress(bytes: [0x02, 0, 0, 0, 0, last])!
}

func service(_ name: String) -> ServiceID {
    var bytes = Array(name.utf8.prefix(6))
    while bytes.count < 6 { bytes.append(0) }
    return ServiceID(bytes: bytes) ?? ServiceID(0, 0, 0, 0, 0, 0)
}

/// A matching filter from `a,*,b` (a star is a wildcard element).
func filter(_ text: String) -> MatchingFilter {
    let elements = text.split(separator: ",", omittingEmptySubsequences: false).map { $0 == "*" ? [] : Array($0.utf8) }
    return (try? MatchingFilter(elements: elements)) ?? (try! MatchingFilter(elements: []))
}

/// Two (or more) engines on one fake air.
struct Bench {
    let air: FakeAir
    let engines: [NANEngine]

    init(
        radios: Int = 2, codec: any DiscoveryFrameCodec = WireCodec(), options: DiscoveryEngine.Options = .init()
    ) async {
        air = FakeAir(codec: codec)
        var engines: [NANEngine] = []
        for index in 0..<radios {
            let core = DiscoveryEngine(
                radio: FakeRadio(localAddress: address(UInt8(index + 1)), air: air), codec: codec, options: options)
            await air.attach(core)
            await core.handle(.clusterJoined(MACAddress(0x50, 0x6f, 0x9a, 0x01, 0x12, 0x34)))
            engines.append(NANEngine(core: core))
        }
        self.engines = engines
    }

    func ticks(_ count: Int) async {
        for _ in 0..<count { await air.tick() }
    }
}

/// Takes the events already delivered to a session, after stopping it (so the sequence ends).
func drain(_ session: DiscoverySession) async -> [DiscoveryEvent] {
    await session.stop()
    var events: [DiscoveryEvent] = []
    for await event in session { events.append(event) }
    return events
}

extension DiscoveryEvent {
    var discovered: DiscoveryResult? {
        if case .discovered(let r) = self { return r }
        return nil
    }
    var replied: DiscoveryResult? {
        if case .replied(let r) = self { return r }
        return nil
    }
    var message: ReceivedMessage? {
        if case .messageReceived(let m) = self { return m }
        return nil
    }
    var termination: TerminationReason? {
        if case .terminated(let r) = self { return r }
        return nil
    }
}

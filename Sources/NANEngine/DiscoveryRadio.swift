import NANWire

/// The radio as the engine needs it: events in, frames and offloaded functions out.
///
/// The real implementation is a thin adapter over NANSystem's nl80211 session (`NL80211Radio`);
/// tests drive the engine with a fake.
protocol DiscoveryRadio: Sendable {
    /// Our NAN Management Interface address.
    var localAddress: MACAddress { get }
    /// Whether the driver runs discovery in user space (send SDFs ourselves) or offloads it.
    var discoveryMode: DiscoveryMode { get }
    /// The radio's events, as a sequence type of the radio's choosing (no extra task between the kernel
    /// socket and the engine: replies must make it into the same 16 TU DW slot).
    associatedtype Events: AsyncSequence where Events.Element == RadioEvent
    /// The radio's events, in order; finishes (or throws) when the interface goes away. Read once.
    var events: Events { get }
    /// Sends a management frame (CMD_FRAME); `frequency` nil means the current channel. Returns the TX cookie.
    /// Runs on the caller's executor: the frame reaches the kernel without a hop off the engine.
    nonisolated(nonsending) func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64
    /// Waits at most `timeout` for the TX status of the frame sent under `cookie` (nil: none came).
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool?
    /// Offload path: adds a NAN function (ADD_NAN_FUNCTION).
    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle
    /// Offload path: removes a NAN function (DEL_NAN_FUNCTION) by cookie.
    func removeFunction(cookie: UInt64) async throws
    /// Asks the kernel for the interface's state again (after an overrun); nil when the radio cannot tell.
    func snapshot() async throws -> RadioSnapshot?
    /// Has `responder` answer active subscribes on the thread that reads the radio's events, before the
    /// engine hears them (see ``SolicitedResponder``).
    func answerSubscribes(with responder: SolicitedResponder)
}

extension DiscoveryRadio {
    /// A radio that cannot be asked: the engine keeps what it knows.
    func snapshot() async throws -> RadioSnapshot? { nil }
    /// A radio without a reader thread of its own: the engine answers every subscribe itself.
    func answerSubscribes(with responder: SolicitedResponder) {}
}

/// Who runs service discovery: us, or the driver's firmware.
public enum DiscoveryMode: Sendable, Equatable {
    /// The driver has the user-space discovery engine capability: we send and parse SDFs.
    case userSpace
    /// The driver runs discovery itself (ADD_NAN_FUNCTION / NAN_MATCH).
    case offloaded
}

/// One thing the radio reports.
enum RadioEvent: Sendable {
    /// We joined (or started) a NAN cluster.
    case clusterJoined(MACAddress)
    /// The next discovery window is about to start on `frequency` MHz.
    case discoveryWindow(frequency: Int)
    /// A management frame arrived.
    case frameReceived(bytes: [UInt8], frequency: Int?, signal: Int?)
    /// Offload path: the driver matched one of our functions with a peer's.
    case functionMatched(OffloadedMatch)
    /// Offload path: the driver ended one of our functions.
    case functionTerminated(cookie: UInt64, reason: TerminationReason)
    /// The NAN interface is gone.
    case interfaceRemoved
    /// The kernel or the runtime dropped events (a netlink overrun): DWs, frames, TX statuses, even the
    /// interface's removal or a cluster change may be missing. `droppedEvents` nil: the count is unknown.
    case eventsLost(droppedEvents: Int?)
}

/// What the radio says about itself when asked again, after events were lost.
struct RadioSnapshot: Sendable, Equatable {
    /// The NAN interface still exists (false: it was removed, with the event that said so lost).
    var interfacePresent: Bool
    /// The cluster the radio is in now, if known.
    var cluster: MACAddress?
}

/// A NAN function handed to a driver that offloads discovery (the ADD_NAN_FUNCTION contents).
struct OffloadedFunction: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case publish, subscribe, followUp }
    var kind: Kind
    var serviceID: ServiceID
    var publishType: PublishType = .unsolicited
    var broadcastReplies = false
    var activeSubscribe = false
    var followUpID: InstanceID? = nil
    var followUpRequestorID: InstanceID? = nil
    var followUpDestination: MACAddress? = nil
    var closeRange = false
    /// In DWs; nil means until removed.
    var ttlDiscoveryWindows: UInt32? = nil
    var serviceInfo: [UInt8] = []
    var responseFilter: ServiceResponseFilter? = nil
    var receiveFilter: MatchingFilter? = nil
    var transmitFilter: MatchingFilter? = nil
}

/// What the driver answered to ADD_NAN_FUNCTION.
struct OffloadedFunctionHandle: Sendable, Equatable {
    var cookie: UInt64
    var instanceID: InstanceID
}

/// A NAN_MATCH event.
struct OffloadedMatch: Sendable, Equatable {
    enum PeerKind: Sendable, Equatable { case publish, subscribe, followUp }
    /// Our function's cookie.
    var cookie: UInt64
    var localInstanceID: InstanceID
    var peer: MACAddress
    var peerKind: PeerKind
    var peerInstanceID: InstanceID
    var serviceInfo: [UInt8]
}

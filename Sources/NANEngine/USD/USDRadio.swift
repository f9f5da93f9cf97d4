import NANWire

/// The radio as the USD engine needs it: an ordinary interface that listens on a channel for a while
/// (remain-on-channel), sends action frames on a channel, and reports frames and TX statuses.
///
/// The real implementation is `NL80211USDRadio` over a station interface; tests drive the engine with a fake.
protocol USDRadio: Sendable {
    /// The address our frames carry (the station interface's).
    var localAddress: MACAddress { get }
    /// The radio's events as a sequence type of its choosing.
    associatedtype Events: AsyncSequence where Events.Element == USDRadioEvent
    /// The radio's events, in order; finishes (or throws) when the interface goes away. Read once.
    var events: Events { get }
    /// Sends a management frame on `frequency` MHz, staying there up to `wait` for an answer. Returns the
    /// cookie its ``USDRadioEvent/transmitStatus(cookie:acknowledged:)`` will carry.
    func transmit(_ frame: [UInt8], frequency: Int, wait: Duration) async throws -> UInt64
    /// Starts listening on `frequency` MHz for `duration`; ``USDRadioEvent/listenEnded`` says when it stopped.
    func listen(frequency: Int, duration: Duration) async throws
}

/// One thing the USD radio reports.
enum USDRadioEvent: Sendable, Equatable {
    /// A registered frame (a NAN SDF) arrived.
    case frameReceived(bytes: [UInt8], frequency: Int?, signal: Int?)
    /// The outcome of a frame we sent.
    case transmitStatus(cookie: UInt64, acknowledged: Bool)
    /// A listen period ended (it ran out or was cancelled).
    case listenEnded
    /// The interface is gone.
    case interfaceRemoved
}

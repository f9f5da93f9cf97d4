import NANWire

/// The data-path engine's frames on their way out: those waiting for the next discovery window, and what a
/// transmit status means for a frame sent (``TransmitPolicy/dataPath``: again at the next DW until
/// acknowledged, or the data path is given up). A value type with no I/O: the engine sends and learns each
/// frame's status from the radio's transmit service; this decides what happens next.
struct DataPathTransmitQueue {
    /// One NAF to send.
    struct Outgoing {
        /// The frame, header first.
        var bytes: [UInt8]
        /// The data path it is about.
        var ndp: NDPIdentifier
        /// How many times it was handed to the radio.
        var attempts: Int
        /// Sent once, never retried (terminations, keepalives).
        var last: Bool
        /// A keepalive to this peer NMI: its acknowledgement is the peer's sign of life.
        var keepalive: MACAddress? = nil
        /// The channel for the first attempt when it is not the DW's (``DataPathEngine/transmitsOnDataLink``);
        /// a retry goes at the next DW as every other frame.
        var dataLinkFrequency: Int? = nil
    }

    /// What a transmit status means for the engine.
    enum Outcome: Equatable {
        /// A keepalive to this peer was acknowledged or not.
        case keepalive(MACAddress, acknowledged: Bool)
        /// Delivered, or not retried: nothing to do.
        case done
        /// Sent again at the next DW.
        case retry
        /// Not acknowledged after ``maximumAttempts``: the data path is given up.
        case givenUp(NDPIdentifier)
    }

    /// A frame is sent at most this many times before its data path is given up.
    static let maximumAttempts = TransmitPolicy.dataPath.attempts
    /// At most this many frames wait for the next DW.
    static let maximumQueued = 64

    private var waiting: [Outgoing] = []

    /// Takes the frames due at this discovery window.
    mutating func takeDue() -> [Outgoing] {
        defer { waiting.removeAll() }
        return waiting
    }

    /// Counts an attempt and returns the frame to hand to the radio now, with its channel (nil: the DW's).
    /// Later attempts go at a DW.
    static func attempt(_ item: Outgoing, windowFrequency: Int?) -> (item: Outgoing, frequency: Int?) {
        var item = item
        item.attempts += 1
        let frequency = item.dataLinkFrequency ?? windowFrequency
        item.dataLinkFrequency = nil
        return (item, frequency)
    }

    /// The radio refused `item`: it waits for the next DW unless it was the last try or the queue is full.
    mutating func refused(_ item: Outgoing) {
        if item.attempts < Self.maximumAttempts, !item.last, waiting.count < Self.maximumQueued { waiting.append(item) }
    }

    /// The transmit status of `item` came: what it means (a retry is queued for the next DW).
    mutating func status(of item: Outgoing, acknowledged: Bool) -> Outcome {
        if let peer = item.keepalive { return .keepalive(peer, acknowledged: acknowledged) }
        if acknowledged || item.last { return .done }
        if item.attempts >= Self.maximumAttempts { return .givenUp(item.ndp) }
        guard waiting.count < Self.maximumQueued else { return .done }
        waiting.append(item)
        return .retry
    }

    /// Drops the retries of a data path that ended (its last frames, the termination, still go).
    mutating func forget(_ ndp: NDPIdentifier) {
        waiting.removeAll { $0.ndp == ndp && !$0.last }
    }
}

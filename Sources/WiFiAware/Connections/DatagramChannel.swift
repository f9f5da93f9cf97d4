internal import NANSystem
internal import Synchronization

/// A connection's datagrams once both ends agreed them: a UDP socket connected to the peer's port, the
/// sealer for ours, and a receive task that awaits the peer's, authenticates and queues them (bounded: the
/// oldest is dropped and counted). Ended with its connection (``cancel()``).
final class DatagramChannel: Sendable {
    let socket: PeerDatagramSocket
    /// The largest payload the peer accepts (what we may send).
    let peerMaximumSize: Int
    /// How the datagrams are protected.
    let protection: String
    /// The received datagrams; one consumer.
    let received: AsyncStream<[UInt8]>

    private let sealer: Mutex<DatagramSealer>
    private let counts = DatagramCounters()
    private let continuation: AsyncStream<[UInt8]>.Continuation

    /// Starts receiving at once (datagrams that come before the connection is handed out wait in the queue).
    init(
        socket: PeerDatagramSocket, keys: DatagramKeys, options: WADatagramOptions, peerMaximumSize: Int
    ) throws(WAError) {
        self.socket = socket
        self.peerMaximumSize = peerMaximumSize
        protection = keys.protection
        let sealing = try DatagramSealer(key: keys.sendKey, salt: keys.sendSalt)
        sealer = Mutex(sealing)
        let opener = try DatagramOpener(key: keys.receiveKey, salt: keys.receiveSalt, maximumSize: options.maximumSize)
        (received, continuation) = AsyncStream.makeStream(
            of: [UInt8].self, bufferingPolicy: .bufferingNewest(options.queueLimit))
        let (tally, queue, limit) = (counts, continuation, options.maximumSize + DatagramPacket.overhead)
        Task {
            var opener = opener
            while let packet = try? await socket.receive(maximum: limit) {
                switch opener.open(packet.bytes) {
                case .success(let payload):
                    // Counted before it can be read, so a reader never sees a datagram its count lacks.
                    tally.state.withLock { $0.received += 1 }
                    if case .dropped = queue.yield(payload) { tally.state.withLock { $0.droppedOldest += 1 } }
                case .failure:
                    tally.state.withLock { $0.rejected += 1 }
                }
            }
            queue.finish()
        }
    }

    /// Seals and sends one datagram without waiting.
    func send(_ payload: [UInt8]) throws(WAError) {
        guard payload.count <= peerMaximumSize else {
            throw WAError(
                .invalidArgument,
                message: "a datagram is at most \(peerMaximumSize) bytes (the peer's limit), not \(payload.count)")
        }
        let packet = try sealer.withLock { s throws(WAError) -> [UInt8] in try s.seal(payload) }
        let sent: Bool
        do { sent = try socket.send(packet) } catch {
            if error.isCancelled {
                throw WAError(.connectionTerminated, message: "the connection ended; its datagrams with it")
            }
            throw WAError(
                .connectionTerminated, message: "sending a datagram failed: \(error)", errno: error.errno?.rawValue,
                underlying: error)
        }
        counts.state.withLock {
            if sent { $0.sent += 1 } else { $0.sendFailed += 1 }
        }
    }

    var statistics: WADatagramStatistics { counts.state.withLock { $0 } }

    /// Closes the socket; the received sequence ends after the datagrams already queued.
    func cancel() { socket.cancel() }

    deinit { socket.cancel() }
}

/// The counts, shared by the channel and its receive loop (which holds no reference to the channel, so
/// releasing the channel ends the loop).
final class DatagramCounters: Sendable {
    let state = Mutex(WADatagramStatistics())
}

public import NANWire
internal import NANSystem
internal import Synchronization

/// A connection to a peer over a NAN data path (Apple's `NetworkConnection` over Wi-Fi Aware): TCP
/// between the two NAN data interfaces, under mutual TLS unless plain TCP was asked for, or QUIC
/// (``WAConnectionTransport/quic(alpn:)``: the same on its first stream, and more streams,
/// ``openStream()``), starting with both peers' identifiers (``remotePeer``).
///
/// In message mode (the default) ``send(_:)`` and ``receive()`` carry length-framed messages and
/// resources; in byte-stream mode ``write(_:)`` and ``read(maximum:)`` carry bytes as they are. Sending
/// waits while the peer does not read (flow control: nothing is queued without bound); receiving waits
/// for the next message. One task may send while another receives.
///
/// Made by ``WASystem/withConnection(to:parameters:_:)`` (the initiator) or accepted by a
/// ``WAConnectionListener``; ended by ``cancel()``, by the end of its scope, or by the peer.
public final class WAConnection: Sendable, CustomStringConvertible {
    /// This device's peer identifier.
    public let localPeer: WAPeerIdentifier
    /// The peer's identifier, from its connection preface.
    public let remotePeer: WAPeerIdentifier
    /// The peer's NAN management address (NMI), as ``WADataPathConnection/peer``; its IPv6 address is
    /// `dataPath.peerAddress`.
    public let peer: MACAddress
    /// The paired device the peer is, if it is one.
    public let device: WAPairedDevice?
    /// The data path under the connection.
    public let dataPath: WADataPathConnection
    /// Whether this side made the connection (false: a listener accepted it).
    public let isInitiator: Bool
    /// Messages or a byte stream.
    public let mode: WAConnectionMode
    /// The largest message accepted from the peer (and sent), in bytes.
    public let maximumMessageSize: Int
    /// What carries and protects the bytes: `TLS 1.3`, `QUIC (ALPN …)` or `plain TCP`.
    public let transportDescription: String
    /// The certificate the peer presented in the TLS handshake, and trusted; nil over plain TCP.
    public let peerCertificate: WAPeerCertificate?
    /// Why the peer's certificate was trusted (pinned to its paired device, learned over its pairing, first
    /// use, the validator); nil over plain TCP.
    public let trustBasis: WAConnectionTrust.Basis?

    let channel: any ConnectionChannel
    /// The QUIC connection under a QUIC transport (streams and datagrams beside the first stream); nil over TCP.
    let quic: QUICConnection?
    /// The datagram counts over QUIC (WAConnection+Datagrams.swift).
    let quicDatagramCounts = DatagramCounters()
    /// Over QUIC, the peer's streams after the first and its datagrams, each relayed once for the
    /// connection's life (WAConnection+Streams.swift); nil over TCP.
    let quicInbound: (streams: AsyncStream<WAStream>, datagrams: AsyncStream<[UInt8]>)?
    /// The datagrams both ends agreed (WAConnection+Datagrams.swift); nil: none.
    let datagramChannel: DatagramChannel?
    let reader: ConnectionReader
    private let writer: ConnectionWriter
    private let state: Mutex<(current: WAConnectionState, onEnd: (@Sendable () -> Void)?)>
    private let stateContinuation: AsyncStream<WAConnectionState>.Continuation

    /// The state changes from ``WAConnectionState/ready`` on (a connection is handed out ready); the
    /// sequence ends after `failed` or `cancelled`. One consumer; the newest 16 are kept.
    public let states: AsyncStream<WAConnectionState>

    /// Whether the data path can carry packets now (Apple's viability): false while the peer misses the
    /// data path's keepalives (from the second in a row, about 4 s) and is not lost yet, true again when it
    /// answers. A peer that stays silent is lost and the connection fails.
    public var isViable: Bool { viability.withLock { $0.current } }
    /// The changes of ``isViable``, each once (a connection starts viable); ends with the connection. One
    /// consumer; the newest 16 are kept.
    public let viabilityUpdates: AsyncStream<Bool>
    private let viability: Mutex<(current: Bool, continuation: AsyncStream<Bool>.Continuation)>

    init(
        channel: any ConnectionChannel, localPeer: WAPeerIdentifier, remotePeer: WAPeerIdentifier,
        peerAddress: MACAddress,
        device: WAPairedDevice?, dataPath: WADataPathConnection, isInitiator: Bool, mode: WAConnectionMode,
        maximumMessageSize: Int, transportDescription: String, datagrams: DatagramChannel? = nil, pending: [UInt8],
        peerCertificate: WAPeerCertificate? = nil, trustBasis: WAConnectionTrust.Basis? = nil,
        quic: QUICConnection? = nil
    ) {
        self.quic = quic
        quicInbound = quic.map { [counts = quicDatagramCounts] in Self.relay($0, counting: counts) }
        self.peerCertificate = peerCertificate
        self.trustBasis = trustBasis
        self.channel = channel
        datagramChannel = datagrams
        self.localPeer = localPeer
        self.remotePeer = remotePeer
        self.peer = peerAddress
        self.device = device
        self.dataPath = dataPath
        self.isInitiator = isInitiator
        self.mode = mode
        self.maximumMessageSize = maximumMessageSize
        self.transportDescription = transportDescription
        reader = ConnectionReader(channel: channel, maximumPayload: maximumMessageSize, pending: pending)
        writer = ConnectionWriter(channel: channel)
        state = Mutex((.ready, nil))
        (states, stateContinuation) = AsyncStream.makeStream(
            of: WAConnectionState.self, bufferingPolicy: .bufferingNewest(16))
        stateContinuation.yield(.ready)
        let (updates, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(16))
        viabilityUpdates = updates
        viability = Mutex((true, continuation))
    }

    deinit {
        stateContinuation.finish()
        viability.withLock { $0.continuation.finish() }
    }

    /// The data path under the connection can carry packets, or not for now (``isViable``).
    func setViable(_ isViable: Bool) {
        viability.withLock { state in
            guard state.current != isViable, !currentState.isFinal else { return }
            state.current = isViable
            state.continuation.yield(isViable)
        }
    }

    /// The state now.
    public var currentState: WAConnectionState { state.withLock { $0.current } }

    /// `peer <uuid> (<device>) over nan0data fe80::… -> fe80::… (TLS 1.3)`.
    public var description: String {
        "peer \(remotePeer)" + (device.map { " (\($0.displayName))" } ?? "") + " over \(dataPath.interfaceName) "
            + "\(dataPath.localAddress) -> \(dataPath.peerAddress) (\(transportDescription))"
    }

    /// Runs `action` once when the connection ends (the data path's lease, the listener's bookkeeping).
    func onEnd(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.current.isFinal { return true }
            let previous = s.onEnd
            s.onEnd = {
                previous?(); action()
            }
            return false
        }
        if runNow { action() }
    }

    /// Moves to a final state (once), ends the channel and runs the end actions.
    func end(_ final: WAConnectionState) {
        let actions = state.withLock { s -> (@Sendable () -> Void)?? in
            guard !s.current.isFinal else { return nil }
            s.current = final
            defer { s.onEnd = nil }
            return .some(s.onEnd)
        }
        guard let actions else { return }
        channel.cancel()
        datagramChannel?.cancel()
        stateContinuation.yield(final)
        stateContinuation.finish()
        viability.withLock { $0.continuation.finish() }
        actions?()
    }

    private func failing<T>(_ body: () async throws(WAError) -> T) async throws(WAError) -> T {
        do { return try await body() } catch {
            // Ended from outside (its data path went, closed as a duplicate): that says why.
            if error.code == .connectionTerminated, case .failed(let final) = currentState { throw final }
            if error.code == .connectionTerminated, currentState.isFinal { throw error }
            end(error.code == .connectionTerminated ? .cancelled : .failed(error))
            throw error
        }
    }

    private func requireMode(_ wanted: WAConnectionMode) throws(WAError) {
        guard mode == wanted else {
            throw WAError(
                .invalidArgument,
                message:
                    "this connection carries \(mode.rawValue == "messages" ? "messages" : "a byte stream"); use the \(wanted == .messages ? "message" : "byte-stream") calls on a \(wanted.rawValue) connection"
            )
        }
    }

    /// Sends one message (at most ``maximumMessageSize`` bytes), waiting while the peer does not read.
    ///
    /// - Throws: ``WAError/Code/invalidArgument`` for a message too large or a byte-stream connection;
    ///   ``WAError/Code/connectionTerminated`` when the connection ended.
    public func send(_ message: [UInt8]) async throws(WAError) {
        try requireMode(.messages)
        guard message.count <= maximumMessageSize else {
            throw WAError(
                .invalidArgument, message: "a message is at most \(maximumMessageSize) bytes, not \(message.count)")
        }
        try await failing { () async throws(WAError) in
            try await writer.write(ConnectionFrame(kind: .message, payload: message).encoded)
        }
    }

    /// Sends frames in order (resources); internal.
    func sendFrame(_ frame: ConnectionFrame) async throws(WAError) {
        try await failing { () async throws(WAError) in try await writer.write(frame.encoded) }
    }

    /// The next message, or a resource the peer offers (read it with ``receiveResource(_:to:progress:)``
    /// before the next call); nil when the peer closed the connection.
    ///
    /// - Throws: ``WAError/Code/connectionTerminated`` (ended, or a malformed frame from the peer).
    public func receive() async throws(WAError) -> WAConnectionContent? {
        try requireMode(.messages)
        return try await failing { () async throws(WAError) -> WAConnectionContent? in
            guard let frame = try await reader.nextFrame() else {
                end(.cancelled)
                return nil
            }
            switch frame.kind {
            case .message: return .message(frame.payload)
            case .resourceBegin: return .resource(try WAResourceOffer(decoding: frame.payload))
            case .close:
                let duplicate = frame.payload.first == ConnectionFrame.CloseReason.duplicate.rawValue
                end(.cancelled)
                if duplicate {
                    throw WAError(
                        .connectionTerminated,
                        message: "the peer closed this connection: another connection between the two devices survives")
                }
                return nil
            default:
                throw WAError(.connectionTerminated, message: "the peer sent resource data outside a resource")
            }
        }
    }

    /// Writes bytes to a byte-stream connection, waiting while the peer does not read.
    public func write(_ bytes: [UInt8]) async throws(WAError) {
        try requireMode(.byteStream)
        try await failing { () async throws(WAError) in try await writer.write(bytes) }
    }

    /// Reads up to `maximum` bytes from a byte-stream connection; empty at the end of the stream.
    public func read(maximum: Int = 65536) async throws(WAError) -> [UInt8] {
        try requireMode(.byteStream)
        return try await failing { () async throws(WAError) -> [UInt8] in try await reader.readBytes(maximum: maximum) }
    }

    /// Ends our direction: the peer receives nil (messages) or the end of the stream (bytes) once it
    /// has read what we sent; we can still receive.
    public func finishSending() async {
        if mode == .messages {
            try? await writer.write(
                ConnectionFrame(kind: .close, payload: [ConnectionFrame.CloseReason.normal.rawValue]).encoded)
        }
        await writer.finish(channel)
    }

    /// Closes because another connection to the same peer survives (de-duplication).
    func closeAsDuplicate() async {
        if mode == .messages {
            try? await writer.write(
                ConnectionFrame(kind: .close, payload: [ConnectionFrame.CloseReason.duplicate.rawValue]).encoded)
        }
        await writer.finish(channel)
        end(
            .failed(
                WAError(
                    .connectionTerminated,
                    message: "closed as a duplicate: another connection to peer \(remotePeer) survives")))
    }

    /// Ends the connection now (state `cancelled`); calls waiting on it fail with
    /// ``WAError/Code/connectionTerminated``. The data path goes when its last connection ends.
    public func cancel() { end(.cancelled) }
}

/// What ``WAConnection/receive()`` returns.
public enum WAConnectionContent: Hashable, Sendable {
    /// A message.
    case message([UInt8])
    /// The peer sends a resource (a file): read it with ``WAConnection/receiveResource(_:to:progress:)``.
    case resource(WAResourceOffer)
}

/// Serialises writers so that frames never interleave.
actor ConnectionWriter {
    let channel: any ConnectionChannel
    private var finished = false

    init(channel: any ConnectionChannel) { self.channel = channel }

    func write(_ bytes: [UInt8]) async throws(WAError) {
        guard !finished else { throw WAError(.connectionTerminated, message: "this side already finished sending") }
        try await channel.send(bytes)
    }

    func finish(_ channel: any ConnectionChannel) async {
        guard !finished else { return }
        finished = true
        await channel.closeWrite()
    }
}

/// Reads frames (or bytes) from the channel on demand: nothing is read before it is asked for, so a
/// slow receiver slows the sender (TCP's window), and at most one frame is held.
actor ConnectionReader {
    let channel: any ConnectionChannel
    private var decoder: ConnectionFrameDecoder
    private var leftover: [UInt8]

    init(channel: any ConnectionChannel, maximumPayload: Int, pending: [UInt8]) {
        self.channel = channel
        decoder = ConnectionFrameDecoder(maximumPayload: maximumPayload + 64)
        leftover = pending
    }

    /// The next frame; nil at a clean end of the stream.
    func nextFrame() async throws(WAError) -> ConnectionFrame? {
        if !leftover.isEmpty {
            decoder.append(leftover)
            leftover = []
        }
        while true {
            do throws(ConnectionFrameError) {
                if let frame = try decoder.next() { return frame }
            } catch {
                throw WAError(
                    .connectionTerminated, message: "the peer sent a malformed frame: \(error)", underlying: error)
            }
            let bytes = try await channel.receive(maximum: 65536)
            if bytes.isEmpty {
                if decoder.pendingCount > 0 {
                    throw WAError(
                        .connectionTerminated, message: "the peer closed the connection in the middle of a frame")
                }
                return nil
            }
            decoder.append(bytes)
        }
    }

    /// Bytes as they come (byte-stream mode).
    func readBytes(maximum: Int) async throws(WAError) -> [UInt8] {
        if !leftover.isEmpty {
            let part = Array(leftover.prefix(maximum))
            leftover.removeFirst(part.count)
            return part
        }
        return try await channel.receive(maximum: maximum)
    }
}

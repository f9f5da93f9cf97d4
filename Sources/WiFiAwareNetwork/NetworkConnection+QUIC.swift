// What a QUIC connection adds to its bytes (`send`, `receive` on its first stream, as any stream protocol):
// more streams each way, and RFC 9221 datagrams. Each call starts the connection if it has not started.

extension NetworkConnection where ApplicationProtocol == QUIC {
    /// Opens another stream to the peer, beside the connection's first (the peer's
    /// ``inboundStreams`` yields it once something is written on it); waits while the peer allows no
    /// more open streams (32 at once). Cancelling the waiting task or the connection ends the wait.
    ///
    /// - Throws: ``NWError`` when the connection cannot be set up or has ended.
    public func openStream() async throws(NWError) -> NetworkStream {
        let connection = try await ready()
        do { return NetworkStream(try await connection.openStream()) } catch { throw NWError(error) }
    }

    /// The streams the peer opens after the connection's first, in order; finishes when the connection
    /// ends (or cannot be set up). Iterate it from one task, once: a stream that comes after its consumer
    /// left is reset.
    public var inboundStreams: AsyncStream<NetworkStream> {
        AsyncStream { continuation in
            Task {
                if let connection = try? await ready() {
                    for await stream in connection.inboundStreams {
                        if case .terminated = continuation.yield(NetworkStream(stream)) {
                            stream.reset()
                            return
                        }
                    }
                }
                continuation.finish()
            }
        }
    }

    /// Sends one datagram (RFC 9221: unreliable, unordered, in one packet, at most 1,100 bytes). Never
    /// waits: a datagram that finds 64 queued is not sent (counted in the WiFiAware connection's
    /// `datagramStatistics.sendFailed`).
    ///
    /// - Throws: ``NWError`` for one that is too large, or when the connection ended.
    public func send(datagram content: some DataProtocol) async throws(NWError) {
        let bytes = [UInt8](content)
        let connection = try await ready()
        do { try connection.send(datagram: bytes) } catch { throw NWError(error) }
    }

    /// The next datagram (the newest 64 wait while nobody reads).
    ///
    /// - Throws: ``NWError/Code/closed`` when the connection ended.
    public func receiveDatagram() async throws(NWError) -> Data {
        let connection = try await ready()
        guard let datagram = await buffer.datagram(from: connection) else {
            throw NWError(.closed, message: "the connection ended")
        }
        return Data(datagram)
    }
}

/// One more stream of a QUIC ``NetworkConnection``: ordered, reliable bytes each way, ended on each side
/// by ``finish()``. One task may send while another receives.
public final class NetworkStream: Sendable, CustomStringConvertible {
    let stream: WAStream
    private let buffer = StreamBuffer()

    init(_ stream: WAStream) { self.stream = stream }

    /// The stream's QUIC identifier.
    public var id: Int64 { stream.id }

    /// Sends bytes, waiting while the peer has not acknowledged enough of what went before.
    ///
    /// - Throws: ``NWError`` once the stream or the connection ended.
    public func send(_ content: some DataProtocol) async throws(NWError) {
        do { try await stream.write([UInt8](content)) } catch { throw NWError(error) }
    }

    /// Exactly `count` bytes.
    ///
    /// - Throws: ``NWError/Code/closed`` when the peer finishes the stream before.
    public func receive(exactly count: Int) async throws(NWError) -> Data {
        try await receive(atLeast: count, atMost: count)
    }

    /// At least `minimum` and at most `maximum` bytes (whatever has come, once there are `minimum`).
    ///
    /// - Throws: ``NWError/Code/closed`` when the peer finishes the stream before.
    public func receive(atLeast minimum: Int = 1, atMost maximum: Int) async throws(NWError) -> Data {
        Data(try await buffer.read(atLeast: minimum, atMost: max(maximum, 1), from: stream))
    }

    /// Everything until the peer finishes the stream (at most `limit` bytes).
    ///
    /// - Throws: ``NWError/Code/malformedMessage`` beyond `limit`; ``NWError`` when the connection ended.
    public func receiveAll(limit: Int = 1 << 24) async throws(NWError) -> Data {
        Data(try await buffer.readToEnd(limit: limit, from: stream))
    }

    /// Ends this side of the stream after what was sent.
    public func finish() async throws(NWError) {
        do { try await stream.finish() } catch { throw NWError(error) }
    }

    /// Abandons the stream both ways.
    public func reset() { stream.reset() }

    /// `stream 4`.
    public var description: String { stream.description }
}

/// A stream's bytes read and not yet handed out.
actor StreamBuffer {
    private var bytes: [UInt8] = []
    private var ended = false

    private func fill(from stream: WAStream) async throws(NWError) -> Bool {
        if ended { return false }
        let more: [UInt8]
        do { more = try await stream.read() } catch { throw NWError(error) }
        bytes += more
        ended = more.isEmpty
        return !more.isEmpty
    }

    func read(atLeast minimum: Int, atMost maximum: Int, from stream: WAStream) async throws(NWError) -> [UInt8] {
        while bytes.count < max(minimum, 1) {
            guard try await fill(from: stream) else {
                throw NWError(
                    .closed, message: "the peer finished the stream (\(bytes.count) of \(minimum) bytes came)")
            }
        }
        let part = Array(bytes.prefix(maximum))
        bytes.removeFirst(part.count)
        return part
    }

    func readToEnd(limit: Int, from stream: WAStream) async throws(NWError) -> [UInt8] {
        while try await fill(from: stream) {
            guard bytes.count <= limit else {
                throw NWError(.malformedMessage, message: "the stream carries more than \(limit) bytes")
            }
        }
        defer { bytes = [] }
        return bytes
    }
}

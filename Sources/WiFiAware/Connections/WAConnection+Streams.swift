internal import NANSystem
internal import Synchronization

extension WAConnection {
    /// Whether the connection carries more streams than its first (QUIC: ``openStream()``,
    /// ``inboundStreams``).
    public var hasStreams: Bool { quic != nil }

    /// The application protocol (ALPN) the two ends agreed on; nil over TCP.
    public var applicationProtocol: String? { quic?.applicationProtocol }

    /// Opens another stream to the peer (QUIC only), beside the connection's own messages or bytes: the
    /// peer receives it from ``inboundStreams`` once something is written on it. Waits while the peer
    /// allows no more open streams (32 at once).
    ///
    /// - Throws: ``WAError/Code/invalidArgument`` over TCP; ``WAError/Code/connectionTerminated`` once the
    ///   connection ended or was cancelled (cancelling the waiting task ends the wait too).
    public func openStream() async throws(WAError) -> WAStream {
        guard let quic else {
            throw WAError(
                .invalidArgument,
                message:
                    "streams need a QUIC connection (WAConnectionTransport.quic(alpn:)), not \(transportDescription)")
        }
        guard !currentState.isFinal else {
            throw WAError(.connectionTerminated, message: "the connection ended; no more streams")
        }
        do throws(QUICError) { return WAStream(try await quic.openStream()) } catch {
            throw QUICChannel.error(error, while: "open a stream")
        }
    }

    /// The streams the peer opens after the connection's first, in order; finishes when the connection
    /// ends; empty over TCP. One consumer.
    public var inboundStreams: AsyncStream<WAStream> { quicInbound?.streams ?? AsyncStream { $0.finish() } }

    /// The QUIC connection's inbound streams and datagrams, each relayed by one task until the connection
    /// ends (the datagrams counted as they come).
    static func relay(
        _ quic: QUICConnection, counting counts: DatagramCounters
    ) -> (streams: AsyncStream<WAStream>, datagrams: AsyncStream<[UInt8]>) {
        let (streams, streamSink) = AsyncStream.makeStream(of: WAStream.self)
        let (datagrams, datagramSink) = AsyncStream.makeStream(
            of: [UInt8].self, bufferingPolicy: .bufferingNewest(64))
        Task {
            for await stream in quic.inboundStreams { streamSink.yield(WAStream(stream)) }
            streamSink.finish()
        }
        Task {
            for await datagram in quic.datagrams {
                counts.state.withLock { $0.received += 1 }
                datagramSink.yield(datagram)
            }
            datagramSink.finish()
        }
        return (streams, datagrams)
    }
}

/// One more reliable, ordered byte stream each way beside a QUIC connection's messages
/// (``WAConnection/openStream()``, ``WAConnection/inboundStreams``). Each direction ends with ``finish()``;
/// a reader waits for bytes, a writer while the peer has not acknowledged 256 KiB. Dropping every stream
/// and the connection closes them.
public final class WAStream: Sendable, CustomStringConvertible {
    let stream: QUICStream

    init(_ stream: QUICStream) { self.stream = stream }

    /// The stream's QUIC identifier (0, 4, 8, … opened by the initiator; 1, 5, … by the listener's side).
    public var id: Int64 { stream.id.rawValue }

    /// Sends `bytes`, waiting while too many are unacknowledged.
    ///
    /// - Throws: ``WAError/Code/connectionTerminated`` once the stream or the connection ended.
    public func write(_ bytes: [UInt8]) async throws(WAError) {
        do throws(QUICError) { try await stream.write(bytes) } catch { throw QUICChannel.error(error, while: "write") }
    }

    /// Up to `maximum` bytes, waiting for some; empty once the peer finished the stream and all was read.
    ///
    /// - Throws: ``WAError/Code/connectionTerminated`` if the peer reset the stream or the connection ended.
    public func read(maximum: Int = 65536) async throws(WAError) -> [UInt8] {
        do throws(QUICError) { return try await stream.read(maximum: maximum) } catch {
            throw QUICChannel.error(error, while: "read")
        }
    }

    /// Ends this side of the stream after what was written (the peer reads its end).
    public func finish() async throws(WAError) {
        do throws(QUICError) { try await stream.finish() } catch { throw QUICChannel.error(error, while: "finish") }
    }

    /// Abandons the stream both ways (the peer's reads fail).
    public func reset() { stream.reset() }

    /// `stream 4`.
    public var description: String { "stream \(id)" }
}

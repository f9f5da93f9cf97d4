import Synchronization
import NANWire

/// The peer side of waware's performance probes: a TCP listener (capacity: it receives an upload and
/// tells what it got, or sends a download; a ``StreamSocket``) and a UDP echo (latency: each probe goes
/// back at once with the same traffic class and the time it was held; a ``PeerDatagramSocket``), both on
/// one port of a link-local address, until ``stop()``. Requests are bounded (``maximumDuration``,
/// ``maximumBytes``), so a client cannot make it send for long.
public final class ProbeResponder: Sendable {
    /// The port the probes use unless told otherwise.
    public static let defaultPort: UInt16 = 5301
    /// The longest transfer the responder takes part in.
    public static let maximumDuration: Duration = .seconds(10)
    /// The most bytes it sends in one download.
    public static let maximumBytes: UInt64 = 256 << 20

    /// Where it listens.
    public let endpoint: LinkLocalEndpoint
    private let listener: StreamSocket
    private let datagrams: PeerDatagramSocket
    private let state = Mutex<(transfers: Int, echoes: Int, serving: Task<Void, Never>?)>((0, 0, nil))

    private init(endpoint: LinkLocalEndpoint, listener: StreamSocket, datagrams: PeerDatagramSocket) {
        self.endpoint = endpoint
        self.listener = listener
        self.datagrams = datagrams
    }

    /// Starts answering on `endpoint`. A freshly configured link-local address is unusable until duplicate
    /// address detection ends (about a second), so binding is retried for up to `bindTimeout`.
    public static func start(
        on endpoint: LinkLocalEndpoint, bindTimeout: Duration = .seconds(15)
    ) async throws(StreamSocketError) -> ProbeResponder {
        let deadline = ContinuousClock.now + bindTimeout
        while true {
            do throws(StreamSocketError) {
                let listener = try StreamSocket.listen(on: endpoint, backlog: 4)
                let datagrams = try PeerDatagramSocket.bind(to: endpoint)
                let responder = ProbeResponder(endpoint: endpoint, listener: listener, datagrams: datagrams)
                let serving = Task { await responder.serveTransfers() }
                responder.state.withLock { $0.serving = serving }
                Task { await responder.serveEchoes() }
                return responder
            } catch {
                guard ContinuousClock.now < deadline,
                    error.errno == .addressNotAvailable || error.call == "if_nametoindex"
                else {
                    throw error
                }
                do { try await Task.sleep(for: .milliseconds(200)) } catch { throw .cancelled("bind \(endpoint)") }
            }
        }
    }

    /// Stops answering: the transfer under way and the echo end at once.
    public func stop() {
        let serving = state.withLock { $0.serving }
        listener.cancel()
        datagrams.cancel()
        serving?.cancel()
    }

    /// Transfers and echoes served so far.
    public var served: (transfers: Int, echoes: Int) { state.withLock { ($0.transfers, $0.echoes) } }

    private static let tick: Duration = .milliseconds(250)

    private func serveTransfers() async {
        while !Task.isCancelled {
            let connection: StreamSocket
            do { connection = try await listener.accept() } catch {
                if error.isCancelled { return }
                // A passing failure (out of descriptors): try again a little later rather than spin.
                try? await Task.sleep(for: Self.tick)
                continue
            }
            try? await serve(connection)
            connection.cancel()
            state.withLock { $0.transfers += 1 }
        }
    }

    private func serve(_ connection: StreamSocket) async throws(StreamSocketError) {
        let header = try await connection.receiveExactly(24, timeout: .seconds(5))
        guard let request = ProbeMessage.CapacityRequest(header) else {
            throw StreamSocketError(call: "protocol", errno: nil, detail: "not a capacity request")
        }
        let limit = min(Duration.milliseconds(Int64(request.milliseconds)), Self.maximumDuration)
        if request.clientSends {
            var received: UInt64 = 0
            var first: ContinuousClock.Instant?
            var last = ContinuousClock.now
            let deadline = ContinuousClock.now + limit + .seconds(5)
            while ContinuousClock.now < deadline {
                let chunk: [UInt8]
                do throws(StreamSocketError) {
                    chunk = try await connection.receive(maximum: 1 << 16, timeout: deadline - ContinuousClock.now)
                } catch  where error.isTimedOut {
                    break  // the client sent past its limit: answer with what came in time
                }
                if chunk.isEmpty { break }
                last = ContinuousClock.now
                if first == nil { first = last }
                received += UInt64(chunk.count)
            }
            let span = first.map { last - $0 } ?? .zero
            let nanoseconds = span.inNanoseconds
            try await connection.send(
                ProbeMessage.CapacityResult(bytes: received, nanoseconds: nanoseconds).encoded, timeout: .seconds(5))
        } else {
            let chunk = [UInt8](repeating: 0x5a, count: 1 << 16)
            let bytes = min(request.maximumBytes, Self.maximumBytes)
            var sent: UInt64 = 0
            let deadline = ContinuousClock.now + limit
            while sent < bytes, ContinuousClock.now < deadline {
                let size = Int(min(UInt64(chunk.count), bytes - sent))
                try await connection.send(size == chunk.count ? chunk : Array(chunk.prefix(size)), timeout: .seconds(5))
                sent += UInt64(size)
            }
            connection.shutdownWrite()
            // Let the client read to the end before the socket closes.
            _ = try? await connection.receive(maximum: 16, timeout: .seconds(2))
        }
    }

    /// The echo loop, until ``stop()``.
    private func serveEchoes() async {
        var trafficClass: UInt8 = 0
        while true {
            let datagram: (bytes: [UInt8], sender: PeerDatagramSocket.Sender)?
            do { datagram = try await datagrams.receive(maximum: 256) } catch {
                if error.isCancelled { return }
                try? await Task.sleep(for: Self.tick)  // a passing failure: try again a little later
                continue
            }
            let arrived = ContinuousClock.now
            guard let datagram, var probe = ProbeMessage.LatencyProbe(datagram.bytes) else { continue }
            if probe.trafficClass != trafficClass, (try? datagrams.setTrafficClass(probe.trafficClass)) != nil {
                trafficClass = probe.trafficClass
            }
            let held = ContinuousClock.now - arrived
            probe.holdNanoseconds = held.inNanoseconds
            _ = try? datagrams.send(probe.bytes, to: datagram.sender)
            state.withLock { $0.echoes += 1 }
        }
    }
}

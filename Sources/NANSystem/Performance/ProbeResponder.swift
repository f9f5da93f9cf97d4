import Synchronization

/// The peer side of waware's performance probes: a TCP listener (capacity: it receives an upload and
/// tells what it got, or sends a download) and a UDP echo (latency: each probe goes back at once with the
/// same traffic class and the time it was held), both on one port of a link-local address. Each runs on
/// a thread of its own until ``stop()``; requests are bounded (``maximumDuration``, ``maximumBytes``), so
/// a client cannot make it send for long.
public final class ProbeResponder: Sendable {
    /// The port the probes use unless told otherwise.
    public static let defaultPort: UInt16 = 5301
    /// The longest transfer the responder takes part in.
    public static let maximumDuration: Duration = .seconds(10)
    /// The most bytes it sends in one download.
    public static let maximumBytes: UInt64 = 256 << 20

    /// Where it listens.
    public let endpoint: LinkLocalEndpoint
    private let state = Mutex<(stopped: Bool, transfers: Int, echoes: Int)>((false, 0, 0))

    private init(endpoint: LinkLocalEndpoint) { self.endpoint = endpoint }

    /// Starts answering on `endpoint`. A freshly configured link-local address is unusable until duplicate
    /// address detection ends (about a second), so binding is retried for up to `bindTimeout`.
    public static func start(on endpoint: LinkLocalEndpoint, bindTimeout: Duration = .seconds(15)) async throws(ProbeSocketError) -> ProbeResponder {
        let deadline = ContinuousClock.now + bindTimeout
        while true {
            do throws(ProbeSocketError) {
                let listener = try ProbeSocket.listener(boundTo: endpoint)
                let datagrams = try ProbeSocket.datagram(boundTo: endpoint)
                let responder = ProbeResponder(endpoint: endpoint)
                BlockingWork.detach { responder.serveTransfers(listener) }
                BlockingWork.detach { responder.serveEchoes(datagrams) }
                return responder
            } catch {
                guard ContinuousClock.now < deadline, error.errno?.rawValue == 99 /* EADDRNOTAVAIL */ || error.call == "if_nametoindex" else {
                    throw error
                }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// Stops answering (the threads end within a quarter of a second).
    public func stop() { state.withLock { $0.stopped = true } }

    /// Transfers and echoes served so far.
    public var served: (transfers: Int, echoes: Int) { state.withLock { ($0.transfers, $0.echoes) } }

    private var stopped: Bool { state.withLock { $0.stopped } }
    private static let tick: Duration = .milliseconds(250)

    private func serveTransfers(_ listener: ProbeSocket) {
        while !stopped {
            guard let connection = try? listener.accept(timeout: Self.tick) else { continue }
            try? serve(connection)
            state.withLock { $0.transfers += 1 }
        }
    }

    private func serve(_ connection: ProbeSocket) throws(ProbeSocketError) {
        let header = try connection.receiveExactly(24, timeout: .seconds(5))
        guard let request = ProbeMessage.CapacityRequest(header) else {
            throw ProbeSocketError(call: "protocol", errno: nil, detail: "not a capacity request")
        }
        let limit = min(Duration.milliseconds(Int64(request.milliseconds)), Self.maximumDuration)
        if request.clientSends {
            var received: UInt64 = 0
            var first: ContinuousClock.Instant?
            var last = ContinuousClock.now
            let deadline = ContinuousClock.now + limit + .seconds(5)
            while !stopped, ContinuousClock.now < deadline {
                guard let chunk = try connection.receive(maximum: 1 << 16, timeout: Self.tick) else { continue }
                if chunk.isEmpty { break }
                last = ContinuousClock.now
                if first == nil { first = last }
                received += UInt64(chunk.count)
            }
            let span = first.map { last - $0 } ?? .zero
            let nanoseconds = UInt64(max(0, span.components.seconds)) * 1_000_000_000 + UInt64(max(0, span.components.attoseconds) / 1_000_000_000)
            try connection.sendAll(ProbeMessage.CapacityResult(bytes: received, nanoseconds: nanoseconds).encoded, timeout: .seconds(5))
        } else {
            let chunk = [UInt8](repeating: 0x5a, count: 1 << 16)
            let bytes = min(request.maximumBytes, Self.maximumBytes)
            var sent: UInt64 = 0
            let deadline = ContinuousClock.now + limit
            while !stopped, sent < bytes, ContinuousClock.now < deadline {
                let size = Int(min(UInt64(chunk.count), bytes - sent))
                try connection.sendAll(size == chunk.count ? chunk : Array(chunk.prefix(size)), timeout: .seconds(5))
                sent += UInt64(size)
            }
            connection.shutdownWrite()
            // Let the client read to the end before the socket closes.
            _ = try? connection.receive(maximum: 16, timeout: .seconds(2))
        }
    }

    private func serveEchoes(_ socket: ProbeSocket) {
        var trafficClass: UInt8 = 0
        while !stopped {
            guard let datagram = try? socket.receiveDatagram(maximum: 256, timeout: Self.tick) else { continue }
            let arrived = ContinuousClock.now
            guard var probe = ProbeMessage.LatencyProbe(datagram.bytes) else { continue }
            if probe.trafficClass != trafficClass, (try? socket.setTrafficClass(probe.trafficClass)) != nil {
                trafficClass = probe.trafficClass
            }
            let held = ContinuousClock.now - arrived
            probe.holdNanoseconds = UInt64(max(0, held.components.attoseconds) / 1_000_000_000)
                + UInt64(max(0, held.components.seconds)) * 1_000_000_000
            try? socket.sendDatagram(probe.bytes, to: datagram.sender)
            state.withLock { $0.echoes += 1 }
        }
    }
}

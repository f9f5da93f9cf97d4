import NANWire

/// The measuring side of waware's performance probes, against a ``ProbeResponder`` on the peer, over a
/// ``StreamSocket`` (capacity) and a ``PeerDatagramSocket`` (latency). Each call is bounded in time and
/// bytes, and waits without holding a thread; cancelling the task ends it.
public enum ProbeClient {
    /// What a bulk transfer moved.
    public struct Capacity: Hashable, Sendable {
        /// Bytes the receiving side counted.
        public var bytes: UInt64
        /// Seconds from the first byte to the last, at the receiving side.
        public var seconds: Double

        /// Creates a measurement.
        public init(bytes: UInt64, seconds: Double) {
            self.bytes = bytes
            self.seconds = seconds
        }

        /// Goodput (TCP payload) in Mbit/s; nil when nothing was timed.
        public var megabitsPerSecond: Double? {
            guard seconds > 0, bytes > 0 else { return nil }
            return Double(bytes) * 8 / seconds / 1_000_000
        }
    }

    /// A bulk TCP transfer to (`clientSends`) or from the responder at `endpoint`, for at most `duration`
    /// and `maximumBytes`. The first connection is retried for up to `connectTimeout` while the peer's
    /// address or responder is not up yet. `progress` receives the share of `duration` done (0…1).
    public static func capacity(
        to endpoint: LinkLocalEndpoint, clientSends: Bool, maximumBytes: UInt64, duration: Duration,
        connectTimeout: Duration = .seconds(10), progress: (@Sendable (Double) -> Void)? = nil
    ) async throws(StreamSocketError) -> Capacity {
        let connection = try await connect(to: endpoint, timeout: connectTimeout)
        defer { connection.cancel() }
        let milliseconds = UInt32(clamping: duration.inWholeMilliseconds)
        let request = ProbeMessage.CapacityRequest(
            clientSends: clientSends, maximumBytes: maximumBytes, milliseconds: milliseconds)
        try await connection.send(request.bytes, timeout: .seconds(5))
        let start = ContinuousClock.now
        if clientSends {
            let chunk = [UInt8](repeating: 0xa5, count: 1 << 16)
            var sent: UInt64 = 0
            while sent < maximumBytes, ContinuousClock.now - start < duration {
                let size = Int(min(UInt64(chunk.count), maximumBytes - sent))
                try await connection.send(size == chunk.count ? chunk : Array(chunk.prefix(size)), timeout: .seconds(5))
                sent += UInt64(size)
                progress?(min(1, (ContinuousClock.now - start).inSeconds / max(0.001, duration.inSeconds)))
            }
            connection.shutdownWrite()
            let reply = try await connection.receiveExactly(24, timeout: .seconds(15))
            guard let result = ProbeMessage.CapacityResult(reply) else {
                throw StreamSocketError(
                    call: "protocol", errno: nil, detail: "the responder's answer is not a capacity result")
            }
            return Capacity(bytes: result.bytes, seconds: Double(result.nanoseconds) / 1e9)
        }
        var received: UInt64 = 0
        var first: ContinuousClock.Instant?
        var last = start
        while true {
            let chunk: [UInt8]
            do throws(StreamSocketError) {
                chunk = try await connection.receive(maximum: 1 << 16, timeout: .seconds(5))
            } catch  where error.isTimedOut {
                throw .timedOut("the responder sent nothing for 5 s after \(received) bytes")
            }
            if chunk.isEmpty { break }
            last = ContinuousClock.now
            if first == nil { first = last }
            received += UInt64(chunk.count)
            progress?(min(1, (last - start).inSeconds / max(0.001, duration.inSeconds)))
        }
        return Capacity(bytes: received, seconds: first.map { (last - $0).inSeconds } ?? 0)
    }

    private static func connect(
        to endpoint: LinkLocalEndpoint, timeout: Duration
    ) async throws(StreamSocketError) -> StreamSocket {
        let deadline = ContinuousClock.now + timeout
        while true {
            do throws(StreamSocketError) {
                return try await StreamSocket.connect(to: endpoint, timeout: .seconds(3))
            } catch {
                guard error.isPeerUnreachable, ContinuousClock.now + .milliseconds(300) < deadline else { throw error }
                do { try await Task.sleep(for: .milliseconds(300)) } catch {
                    throw .cancelled("connect to \(endpoint)")
                }
            }
        }
    }

    /// One-way latency estimates from UDP echoes: each is (round trip − the responder's hold time) / 2.
    public struct Latency: Hashable, Sendable {
        /// The traffic class the probes were sent with.
        public var trafficClass: UInt8
        /// Probes sent.
        public var sent: Int
        /// One-way estimates of the probes answered, in the order sent.
        public var samples: [Duration]

        /// Creates a measurement.
        public init(trafficClass: UInt8, sent: Int, samples: [Duration]) {
            self.trafficClass = trafficClass
            self.sent = sent
            self.samples = samples
        }

        /// Probes not answered in time.
        public var lost: Int { max(0, sent - samples.count) }
        /// The mean, if any probe was answered.
        public var average: Duration? {
            samples.isEmpty ? nil : samples.reduce(.zero, +) / samples.count
        }
        /// The median (nearest rank).
        public var median: Duration? { percentile(50) }
        /// The 95th percentile (nearest rank).
        public var percentile95: Duration? { percentile(95) }

        /// The `p`th percentile by nearest rank, if any probe was answered.
        public func percentile(_ p: Int) -> Duration? {
            guard !samples.isEmpty else { return nil }
            let sorted = samples.sorted()
            let rank = (p * sorted.count + 99) / 100
            return sorted[min(sorted.count - 1, max(0, rank - 1))]
        }
    }

    /// Sends `count` latency probes `spacing` apart with `trafficClass` to the responder at `endpoint`,
    /// waiting at most `timeout` for each echo. The round trip runs from just before the send to just after
    /// the echo is received.
    public static func latency(
        to endpoint: LinkLocalEndpoint, trafficClass: UInt8, count: Int, spacing: Duration = .milliseconds(20),
        timeout: Duration = .seconds(1)
    ) async throws(StreamSocketError) -> Latency {
        let socket = try PeerDatagramSocket.connected(to: endpoint)
        defer { socket.cancel() }
        try socket.setTrafficClass(trafficClass)
        var samples: [Duration] = []
        for sequence in 0..<UInt32(clamping: max(0, count)) {
            let sentAt = ContinuousClock.now
            // A probe the send buffer has no room for counts as lost, as one lost on the air.
            _ = try socket.send(ProbeMessage.LatencyProbe(trafficClass: trafficClass, sequence: sequence).bytes)
            while let datagram = try await socket.receive(maximum: 256, timeout: sentAt + timeout - ContinuousClock.now)
            {
                let roundTrip = ContinuousClock.now - sentAt
                guard let echo = ProbeMessage.LatencyProbe(datagram.bytes), echo.sequence == sequence else { continue }
                let held = Duration.nanoseconds(Int64(clamping: echo.holdNanoseconds))
                samples.append(max(.zero, (roundTrip - held) / 2))
                break
            }
            do { try await Task.sleep(until: sentAt + spacing, clock: .continuous) } catch {
                throw .cancelled("latency probes to \(endpoint)")
            }
        }
        return Latency(trafficClass: trafficClass, sent: count, samples: samples)
    }
}

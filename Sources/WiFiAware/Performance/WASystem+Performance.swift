import NANEngine
import NANSystem
import NANWire

/// Which active probes a data-path performance report runs, and how far they may go. Every probe is
/// bounded in time and bytes; the peer must answer them (``WAPerformanceResponder``, `waware perf --serve`).
public struct WAPerformanceProbes: Hashable, Sendable {
    /// The peer's probe port (TCP for capacity, UDP for latency), on its NDI's link-local address.
    public var port: UInt16 = 5301
    /// Whether to measure throughput capacity with a bulk transfer.
    public var measuresCapacity = true
    /// Both directions (ours to the peer, then the peer's to us), or ours only.
    public var bothDirections = true
    /// The longest each transfer may run.
    public var capacityDuration: Duration = .seconds(2)
    /// The most bytes each transfer may move.
    public var capacityBytes: UInt64 = 64 << 20
    /// Latency probes per access category (0: none).
    public var latencyProbes = 20
    /// Time between two latency probes.
    public var latencySpacing: Duration = .milliseconds(20)
    /// The access categories whose latency is measured.
    public var accessCategories: [WAAccessCategory] = WAAccessCategory.allCases
    /// How long the first contact may take (the peer's address finishing duplicate address detection, its
    /// responder starting).
    public var connectTimeout: Duration = .seconds(15)

    /// The defaults: capacity both ways for up to 2 s and 64 MiB each, 20 latency probes per category.
    public init() {}

    /// The bytes the probes may put on the air at most (both transfers and every latency probe and echo).
    public var maximumAirBytes: UInt64 {
        let transfers = measuresCapacity ? capacityBytes * (bothDirections ? 2 : 1) : 0
        return transfers + UInt64(latencyProbes * accessCategories.count * 2 * 64)
    }
}

/// What a report is doing, for a progress indicator: the step (`station`, `capacity-tx`, `capacity-rx`,
/// `latency-BE`, …) and how far the whole report is (0…1).
public struct WAPerformanceProgress: Hashable, Sendable {
    /// The current step.
    public var step: String
    /// The share of the report done.
    public var fraction: Double
}

extension WASystem {
    /// A performance report of a data path that is up: the active probes (`probes`; nil for a passive
    /// report), which the peer must answer, then the kernel's station statistics and the schedule.
    ///
    /// - Throws: ``WAError/Code/connectionTerminated`` when the data path is gone (no station for the
    ///   peer's NDI) or the peer stops answering the probes; ``WAError/Code/kernel`` when the kernel
    ///   refuses the statistics.
    public func performanceReport(
        for connection: WADataPathConnection, probes: WAPerformanceProbes? = WAPerformanceProbes(),
        mode: WAPerformanceMode? = nil, progress: (@Sendable (WAPerformanceProgress) -> Void)? = nil
    ) async throws(WAError) -> WAPerformanceReport {
        progress?(WAPerformanceProgress(step: "station", fraction: 0))
        var transmit: ProbeClient.Capacity?
        var receive: ProbeClient.Capacity?
        var latency: [WAAccessCategory: ProbeClient.Latency] = [:]
        if let probes {
            let endpoint = LinkLocalEndpoint(
                address: connection.peerAddress,
                interface: connection.interfaceName, port: probes.port)
            let steps = Double(
                (probes.measuresCapacity ? (probes.bothDirections ? 2 : 1) : 0)
                    + (probes.latencyProbes > 0 ? probes.accessCategories.count : 0))
            var done = 0.0
            func report(_ step: String) -> (@Sendable (Double) -> Void)? {
                guard let progress else { return nil }
                let (base, total) = (done, max(1, steps))
                return { fraction in progress(WAPerformanceProgress(step: step, fraction: (base + fraction) / total)) }
            }
            if probes.measuresCapacity {
                for clientSends in probes.bothDirections ? [true, false] : [true] {
                    let step = report(clientSends ? "capacity-tx" : "capacity-rx")
                    step?(0)
                    let measured = try await Self.probe(connection, endpoint) { () async throws(StreamSocketError) in
                        try await ProbeClient.capacity(
                            to: endpoint, clientSends: clientSends, maximumBytes: probes.capacityBytes,
                            duration: probes.capacityDuration, connectTimeout: probes.connectTimeout,
                            progress: step)
                    }
                    if clientSends { transmit = measured } else { receive = measured }
                    done += 1
                }
            }
            if probes.latencyProbes > 0 {
                for category in probes.accessCategories {
                    report("latency-\(category.shortName)")?(0)
                    latency[category] = try await Self.probe(connection, endpoint) {
                        () async throws(StreamSocketError) in
                        try await ProbeClient.latency(
                            to: endpoint, trafficClass: category.trafficClass, count: probes.latencyProbes,
                            spacing: probes.latencySpacing)
                    }
                    guard let measured = latency[category], !measured.samples.isEmpty else {
                        throw WAError(
                            .connectionTerminated,
                            message: "the peer \(connection.peer) answered none of \(probes.latencyProbes) "
                                + "latency probes (\(category.shortName)) at \(endpoint): it is gone or its responder stopped"
                        )
                    }
                    done += 1
                }
            }
        }
        // The statistics after the probes: the rate then is the one the probes' traffic was sent at (before
        // any traffic the kernel may have no rate yet).
        let station = try await Self.station(of: connection)
        let schedule = await dataPathEngine?.linkSchedule(peer: connection.peer, ndpID: connection.ndpID)
        progress?(WAPerformanceProgress(step: "done", fraction: 1))
        return .dataPath(
            interface: connection.interfaceName, station: station, schedule: schedule,
            transmitCapacity: transmit, receiveCapacity: receive, latency: latency, mode: mode)
    }

    /// A report every `interval` (each as ``performanceReport(for:probes:mode:progress:)``) until the task
    /// consuming the stream is cancelled; the stream ends with the error of the first report that fails
    /// (the data path ended, the peer stopped answering).
    public func performanceReports(
        for connection: WADataPathConnection, every interval: Duration = .seconds(1),
        probes: WAPerformanceProbes? = WAPerformanceProbes(), mode: WAPerformanceMode? = nil,
        progress: (@Sendable (WAPerformanceProgress) -> Void)? = nil
    ) -> AsyncThrowingStream<WAPerformanceReport, any Error> {
        .produced(buffer: 8, while: "measure the data path") { continuation in
            while !Task.isCancelled {
                let started = ContinuousClock.now
                continuation.yield(
                    try await self.performanceReport(for: connection, probes: probes, mode: mode, progress: progress))
                let next = started + interval
                if next > .now { try await Task.sleep(until: next) }
            }
        }
    }

    /// The peer's NDI station on our data interface, or `connectionTerminated` when it is gone.
    static func station(of connection: WADataPathConnection) async throws(WAError) -> StationInfo {
        let found: StationInfo?
        do {
            found = try await NL80211.withSession { session in
                try await session.station(connection.peerInterfaceAddress, onInterfaceNamed: connection.interfaceName)
            }
        } catch {
            throw WAError.from(error, while: "read the statistics of the data path to \(connection.peer)")
        }
        guard let found else {
            throw WAError(
                .connectionTerminated,
                message: "the data path to \(connection.peer) is gone "
                    + "(no station for its interface \(connection.peerInterfaceAddress) on \(connection.interfaceName))"
            )
        }
        return found
    }

    /// Runs one probe; a socket failure becomes `connectionTerminated`.
    static func probe<Result: Sendable>(
        _ connection: WADataPathConnection, _ endpoint: LinkLocalEndpoint,
        _ body: () async throws(StreamSocketError) -> Result
    ) async throws(WAError) -> Result {
        do throws(StreamSocketError) {
            return try await body()
        } catch {
            let hint =
                error.isPeerUnreachable
                ? ": the peer is gone or does not answer probes ('waware perf --serve' there)" : ""
            throw WAError(
                .connectionTerminated,
                message: "performance probe to \(connection.peer) at \(endpoint) failed: \(error)\(hint)",
                errno: error.errno?.rawValue, underlying: error)
        }
    }
}

/// Answers the performance probes of peers (``WASystem/performanceReport(for:probes:mode:progress:)`` on
/// their side) on our end of a data path: TCP and UDP on one port of our NDI's link-local address, until
/// ``stop()``. One responder serves every data path on that interface.
public final class WAPerformanceResponder: Sendable {
    private let responder: ProbeResponder

    private init(_ responder: ProbeResponder) { self.responder = responder }

    /// Starts answering on `connection`'s local address (retrying while the address is still being
    /// checked for duplicates, up to 15 s).
    ///
    /// - Throws: ``WAError/Code/kernel`` (with the errno) when the port cannot be bound (in use, no address).
    public static func start(
        on connection: WADataPathConnection, port: UInt16 = 5301
    ) async throws(WAError) -> WAPerformanceResponder {
        let endpoint = LinkLocalEndpoint(
            address: connection.localAddress,
            interface: connection.interfaceName, port: port)
        do throws(StreamSocketError) {
            return WAPerformanceResponder(try await ProbeResponder.start(on: endpoint))
        } catch {
            throw WAError(
                .kernel, message: "cannot answer performance probes on \(endpoint): \(error)",
                errno: error.errno?.rawValue, underlying: error)
        }
    }

    /// `[fe80::…%nan0data]:5301`.
    public var endpoint: String { responder.endpoint.description }

    /// Transfers and latency echoes answered so far.
    public var served: (transfers: Int, echoes: Int) { responder.served }

    /// Stops answering.
    public func stop() { responder.stop() }

    deinit { responder.stop() }
}

import NANEngine
import NANSystem
import NANWire

extension WASystem {
    /// The warning for a station interface operating on another channel than USD's (connected to an access
    /// point there), nil otherwise.
    static func offChannelWarning(interface: String?, connectedOn station: Int?, usd: Int) -> String? {
        guard let station, station != usd else { return nil }
        return "\(interface ?? "the station interface") is connected on \(station) MHz; USD runs on \(usd) MHz, so "
            + "the radio leaves the access point's channel to listen and the connection slows down while a "
            + "session runs"
    }

    /// ``run(adapter:options:_:)`` for the unsynchronized transport: USD on the adapter's station interface,
    /// the same publishers, subscribers and messages, without a cluster (no data paths, no pairing).
    static func runUnsynchronized<Result: Sendable>(
        on adapter: Adapter, options: WASystemOptions, _ body: (WASystem) async throws -> Result
    ) async throws -> Result {
        do {
            return try await USDEngine.run(on: adapter) { engine in
                let system = WASystem(
                    backend: engine, adapterName: adapter.name, store: options.store,
                    runtimeDirectory: options.runtimeDirectory, transport: .unsynchronized,
                    startWarnings: offChannelWarning(
                        interface: engine.interfaceName, connectedOn: engine.stationFrequency, usd: engine.frequency
                    ).map { [$0] } ?? [])
                return try await system.scope(body)
            }
        } catch let error as BodyError {
            throw error.error
        } catch let error as NetlinkError {
            let station = adapter.interfaces.first { $0.type == .station && $0.name != nil }
            throw WAError.usdStart(
                error, on: adapter.name,
                station: station?.frequency.map { (station?.name, Int($0.rawValue)) })
        } catch {
            throw WAError.from(error, while: "start USD on \(adapter.name)")
        }
    }
}

extension USDEngine: DiscoveryBackend {
    func publish(_ configuration: PublishConfiguration) async throws -> BackendSession {
        let session: USDSession = try await publish(configuration)
        return BackendSession(session)
    }

    func subscribe(_ configuration: SubscribeConfiguration) async throws -> BackendSession {
        let session: USDSession = try await subscribe(configuration)
        return BackendSession(session)
    }
}

extension BackendSession {
    /// Wraps a USD session.
    init(_ session: USDSession) {
        self.init(
            instanceID: session.instanceID, makeIterator: { session.makeAsyncIterator() },
            stop: { await session.stop() })
    }
}

extension WASystem {
    /// For the tool: one line each time USD's listening changes after the start (the kernel refused to keep
    /// the radio on the channel, or it listens again); ends with the system. Empty on the synchronized transport.
    /// Iterate it once, from one task.
    @_spi(Tools) public func listenNotices() -> AsyncStream<String> {
        guard let engine = backend as? USDEngine else { return AsyncStream { $0.finish() } }
        let period = USDOptions().announcementPeriod.inWholeMilliseconds
        return AsyncStream { continuation in
            let task = Task {
                for await notice in engine.listenNotices { continuation.yield(Self.line(for: notice, period: period)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The words for a listen notice.
    static func line(for notice: USDListenNotice, period: Int64) -> String {
        switch notice {
        case .refused(let frequency, let reason):
            "the radio stopped listening for USD on \(frequency) MHz: the kernel refused to keep it there (\(reason)); "
                + "asking again every \(period) ms, and frames sent to this device meanwhile are missed"
        case .resumed(let frequency):
            "the radio listens for USD on \(frequency) MHz again"
        }
    }
}

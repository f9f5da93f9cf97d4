import NANEngine
import NANSystem
import NANWire

extension WASystem {
    /// ``run(adapter:options:_:)`` for the unsynchronized transport: USD on the adapter's station interface,
    /// the same publishers, subscribers and messages, without a cluster (no data paths, no pairing).
    /// The warning for a station interface operating on another channel than USD's (connected to an access
    /// point there), nil otherwise.
    static func offChannelWarning(interface: String?, connectedOn station: Int?, usd: Int) -> String? {
        guard let station, station != usd else { return nil }
        return "\(interface ?? "the station interface") is connected on \(station) MHz; USD runs on \(usd) MHz, so "
            + "the radio leaves the access point's channel to listen and the connection slows down while a "
            + "session runs"
    }

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
            throw WAError.usdStart(error, on: adapter.name)
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

internal import NANSystem
internal import Synchronization
public import NANWire

/// What a ``WAConnectionListener`` reports.
public enum WAListenerEvent: Sendable {
    /// Publishing and listening: the TCP port announced in the service info.
    case ready(port: UInt16)
    /// A peer's data path is up (connections from it can come now).
    case dataPathUp(WADataPathConnection)
    /// A data path ended.
    case dataPathDown(peer: MACAddress, reason: WADataPathEndReason)
    /// A connection is ready (its preface exchanged, and de-duplicated).
    case connection(WAConnection)
    /// A connection attempt was refused or failed before it was ready.
    case refused(WAError)
}

/// Publishes a service to a device selection, accepts their data paths and the connections over them
/// (Apple's `NetworkListener(for: .wifiAware(.connecting(to: service, from: devices)))`). An
/// `AsyncSequence` of ``WAListenerEvent``, iterated once: nothing happens on the radio before; leaving
/// the loop (or cancelling its task) stops publishing and listening. Connections already handed out stay
/// until they end.
public struct WAConnectionListener: AsyncSequence, Sendable {
    /// The events.
    public typealias Element = WAListenerEvent
    /// The iterator.
    public typealias AsyncIterator = AsyncThrowingStream<WAListenerEvent, any Error>.Iterator

    /// The service published.
    public let service: WAPublishableService
    /// Whose data paths and connections are accepted.
    public let devices: WADeviceSelection
    /// How connections are accepted.
    public let parameters: WAConnectionParameters
    let system: WASystem

    /// Starts publishing and listening.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncThrowingStream<Element, any Error>.produced(buffer: 64, while: "listen for connections") {
            try await run($0)
        }
        .makeAsyncIterator()
    }

    private func run(_ output: AsyncThrowingStream<WAListenerEvent, any Error>.Continuation) async throws {
        try parameters.check()
        let localPeer = try parameters.localPeer(for: system.store)
        let tls = try ConnectionTLS.forParameters(parameters, store: system.store, localPeer: localPeer)
        let socket: StreamSocket
        do { socket = try StreamSocket.listen(port: parameters.listenerPort) } catch {
            throw WAError(
                .connectionFailed, message: "cannot listen on TCP port \(parameters.listenerPort): \(error)",
                underlying: error)
        }
        defer { socket.cancel() }
        guard let info = ConnectionServiceInfo.adding(port: socket.localPort, to: service.serviceInfo) else {
            throw WAError(
                .invalidArgument,
                message: "the service info leaves no room for the connection port (at most 255 bytes in all)")
        }
        let published = try WAPublishableService(
            name: service.name, serviceInfo: info, matchFilter: service.matchFilter, wantsDataPath: true)
        let publisher = system.publish(published, to: devices)
        let up = DataPathTable()
        let quicServers = QUICServers()
        defer { quicServers.cancelAll() }
        let (started, startedContinuation) = AsyncStream.makeStream(
            of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in started {
                    try await acceptDataPaths(
                        for: publisher, into: up, quic: quicServers,
                        serve: { dataPath in
                            await serveQUIC(
                                on: dataPath, port: socket.localPort, localPeer: localPeer, tls: tls, dataPaths: up,
                                output)
                        }, output)
                    return
                }
            }
            group.addTask {
                for try await event in publisher {
                    switch event {
                    case .started:
                        output.yield(.ready(port: socket.localPort))
                        startedContinuation.yield()
                    case .terminated(let reason):
                        throw WAError(
                            .connectionTerminated, message: "publishing \(service.name) ended (\(reason))")
                    default: break
                    }
                }
            }
            group.addTask {
                try await acceptConnections(on: socket, localPeer: localPeer, tls: tls, dataPaths: up, output)
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private func acceptDataPaths(
        for publisher: WAPublisher, into table: DataPathTable, quic: QUICServers,
        serve: @escaping @Sendable (WADataPathConnection) async -> Void,
        _ output: AsyncThrowingStream<WAListenerEvent, any Error>.Continuation
    ) async throws {
        for try await event in system.acceptDataPaths(
            for: publisher, from: devices, security: parameters.dataPathSecurity,
            idleTimeout: parameters.idleTimeout)
        {
            switch event {
            case .connected(let connection):
                table.add(connection)
                if parameters.transport.isQUIC { quic.start(for: connection) { await serve(connection) } }
                output.yield(.dataPathUp(connection))
            case .terminated(let peer, let ndpID, let reason):
                // Its connections cannot go on (a killed peer's TCP may never say so): end them now.
                quic.stop(peer: peer, ndpID: ndpID)
                for connection in table.remove(peer: peer, ndpID: ndpID) {
                    connection.end(
                        .failed(WAError(.connectionTerminated, message: "the data path to \(peer) ended (\(reason))")))
                }
                output.yield(.dataPathDown(peer: peer, reason: reason))
            case .viability(let peer, let ndpID, let isViable):
                for connection in table.connections(peer: peer, ndpID: ndpID) { connection.setViable(isViable) }
            case .requested: break
            }
        }
    }

    private func acceptConnections(
        on socket: StreamSocket, localPeer: WAPeerIdentifier, tls: ConnectionTLS?, dataPaths: DataPathTable,
        _ output: AsyncThrowingStream<WAListenerEvent, any Error>.Continuation
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            while true {
                let accepted: StreamSocket
                do { accepted = try await socket.accept() } catch let error as StreamSocketError {
                    if error.isCancelled || Task.isCancelled { throw CancellationError() }
                    throw WAError(
                        .connectionFailed, message: "accepting connections failed: \(error)", underlying: error)
                }
                guard let from = accepted.peer, let dataPath = dataPaths.dataPath(forPeerAddress: from.address) else {
                    accepted.cancel()
                    output.yield(
                        .refused(
                            WAError(
                                .connectionFailed,
                                message:
                                    "refused a TCP connection from \(accepted.peer.map { "\($0)" } ?? "?"): no data path of this listener comes from there"
                            )))
                    continue
                }
                let device = try? system.store.devices().values.first { $0.managementAddresses.contains(dataPath.peer) }
                // A QUIC listener takes TLS 1.3 over TCP on its port too (same identities and trust): a peer
                // without QUIC still connects, and both transports can be compared over one data path.
                var overTCP = parameters
                if overTCP.transport.isQUIC { overTCP.transport = .tls }
                let (parameters, system) = (overTCP, system)
                group.addTask {
                    do {
                        let connection = try await ConnectionSetup.within(
                            parameters.setupTimeout, "setting up the connection from \(dataPath.peer)"
                        ) { () async throws(WAError) -> WAConnection in
                            try await ConnectionSetup.establish(
                                socket: accepted, isInitiator: false, parameters: parameters, localPeer: localPeer,
                                peerAddress: dataPath.peer, device: device, dataPath: dataPath, tls: tls)
                        }
                        let registry = system.connections
                        dataPaths.track(connection)
                        connection.onEnd { Task { await registry.remove(connection) } }
                        if await registry.register(connection) { output.yield(.connection(connection)) }
                    } catch {
                        accepted.cancel()
                        output.yield(.refused(error as? WAError ?? WAError(.connectionFailed, message: "\(error)")))
                    }
                }
            }
        }
    }

    /// Accepts QUIC connections over one data path until it ends (``ConnectionQUIC/serve``).
    private func serveQUIC(
        on dataPath: WADataPathConnection, port: UInt16, localPeer: WAPeerIdentifier, tls: ConnectionTLS?,
        dataPaths: DataPathTable, _ output: AsyncThrowingStream<WAListenerEvent, any Error>.Continuation
    ) async {
        guard let tls else { return }
        let (parameters, system) = (parameters, system)
        await ConnectionQUIC.serve(
            dataPath, port: port, tls: tls, parameters: parameters,
            device: { try? system.store.devices().values.first { $0.managementAddresses.contains(dataPath.peer) } },
            setUp: { quic, device, certificate, basis throws(WAError) in
                let connection = try await ConnectionSetup.within(
                    parameters.setupTimeout, "setting up the QUIC connection from \(dataPath.peer)"
                ) { () async throws(WAError) -> WAConnection in
                    try await ConnectionSetup.establish(
                        quic: quic, isInitiator: false, parameters: parameters, localPeer: localPeer,
                        peerAddress: dataPath.peer, device: device, dataPath: dataPath, certificate: certificate,
                        basis: basis, store: tls.store)
                }
                let registry = system.connections
                dataPaths.track(connection)
                connection.onEnd { Task { await registry.remove(connection) } }
                if await registry.register(connection) { output.yield(.connection(connection)) }
            },
            refused: { output.yield(.refused($0)) })
    }
}

/// The data paths up on a listener, looked up by the peer's IPv6 address (where its TCP comes from), and
/// the live connections over them (ended with their data path).
final class DataPathTable: Sendable {
    private let entries = Mutex<[WADataPathConnection]>([])
    private let connections = Mutex<[WAConnection]>([])

    func add(_ connection: WADataPathConnection) { entries.withLock { $0.append(connection) } }

    /// Forgets a data path; returns the live connections over it.
    func remove(peer: MACAddress, ndpID: UInt8) -> [WAConnection] {
        entries.withLock { $0.removeAll { $0.peer == peer && $0.ndpID == ndpID } }
        return connections.withLock { list in
            let over = list.filter { $0.dataPath.peer == peer && $0.dataPath.ndpID == ndpID }
            list.removeAll { c in c.currentState.isFinal || over.contains { $0 === c } }
            return over
        }
    }

    /// The live connections over a data path.
    func connections(peer: MACAddress, ndpID: UInt8) -> [WAConnection] {
        connections.withLock { list in
            list.filter { !$0.currentState.isFinal && $0.dataPath.peer == peer && $0.dataPath.ndpID == ndpID }
        }
    }

    /// Keeps a connection until its data path ends (ended ones are dropped as others come).
    func track(_ connection: WAConnection) {
        connections.withLock { list in
            list.removeAll { $0.currentState.isFinal }
            list.append(connection)
        }
    }

    func dataPath(forPeerAddress address: IPv6Address) -> WADataPathConnection? {
        entries.withLock { $0.last { $0.peerAddress == address } }
    }
}

/// The QUIC accept loops of a listener, one per data path up, stopped with their data path.
final class QUICServers: Sendable {
    private struct Key: Hashable { let peer: MACAddress, ndpID: UInt8 }
    private let tasks = Mutex<[Key: Task<Void, Never>]>([:])

    func start(for dataPath: WADataPathConnection, _ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        tasks.withLock { $0.updateValue(task, forKey: Key(peer: dataPath.peer, ndpID: dataPath.ndpID)) }?.cancel()
    }

    func stop(peer: MACAddress, ndpID: UInt8) {
        tasks.withLock { $0.removeValue(forKey: Key(peer: peer, ndpID: ndpID)) }?.cancel()
    }

    func cancelAll() {
        for task in tasks.withLock({ t in
            defer { t = [:] }; return Array(t.values)
        }) { task.cancel() }
    }
}

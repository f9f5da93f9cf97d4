import NANWire

/// Per ``WASystem``: the data paths shared by outgoing connections (one per peer, ended when its last
/// connection ends) and the live connections by peer identifier, for de-duplication.
actor ConnectionRegistry {
    private struct SharedDataPath {
        var users: Int
        let generation: Int
        let ready: Task<WADataPathConnection, any Error>
        let release: AsyncStream<Void>.Continuation
    }

    private var dataPaths: [MACAddress: SharedDataPath] = [:]
    private var generation = 0
    private var live: [WAPeerIdentifier: [WAConnection]] = [:]

    /// The data path to the endpoint's device: the one already up (or coming up) for another connection,
    /// or a new one. Pair each successful call with ``releaseDataPath(to:)``.
    func acquireDataPath(
        system: WASystem, endpoint: WAEndpoint, security: WADataPathSecurity,
        idleTimeout: Duration?
    ) async throws -> WADataPathConnection {
        let peer = endpoint.address
        if var shared = dataPaths[peer] {
            shared.users += 1
            dataPaths[peer] = shared
            do { return try await shared.ready.value } catch {
                releaseDataPath(to: peer)
                throw error
            }
        }
        generation += 1
        let mine = generation
        let (released, release) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let endConnections: @Sendable (String) async -> Void = { [weak self] reason in
            await self?.endConnections(to: peer, because: reason)
        }
        let setViability: @Sendable (Bool) async -> Void = { [weak self] isViable in
            await self?.setViability(to: peer, isViable)
        }
        let (up, upContinuation) = AsyncThrowingStream.makeStream(
            of: WADataPathConnection.self, bufferingPolicy: .bufferingNewest(1))
        Task {
            do {
                try await system.withDataPath(to: endpoint, security: security, idleTimeout: idleTimeout) {
                    connection, events in
                    upContinuation.yield(connection)
                    // Held until the last connection releases it, or the data path ends by itself.
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { for await _ in released { return } }
                        group.addTask {
                            for await event in events {
                                switch event {
                                case .terminated(_, _, let reason):
                                    // Its connections cannot go on (a killed peer's TCP may never say so).
                                    await endConnections("the data path to \(peer) ended (\(reason))")
                                    return
                                case .viability(_, _, let isViable): await setViability(isViable)
                                case .connected, .requested: break
                                }
                            }
                        }
                        await group.next()
                        group.cancelAll()
                    }
                }
                upContinuation.finish()
            } catch {
                upContinuation.finish(throwing: error)
            }
            self.forget(peer, generation: mine)
        }
        let ready = Task<WADataPathConnection, any Error> {
            for try await connection in up { return connection }
            throw WAError(.connectionFailed, message: "the data path to \(peer) did not come up")
        }
        dataPaths[peer] = SharedDataPath(users: 1, generation: mine, ready: ready, release: release)
        do { return try await ready.value } catch {
            releaseDataPath(to: peer)
            throw error
        }
    }

    /// One connection no longer needs the data path to `peer`; the last one ends it.
    func releaseDataPath(to peer: MACAddress) {
        guard var shared = dataPaths[peer] else { return }
        shared.users -= 1
        if shared.users > 0 {
            dataPaths[peer] = shared
        } else {
            dataPaths[peer] = nil
            shared.release.yield()
            shared.release.finish()
        }
    }

    private func forget(_ peer: MACAddress, generation: Int) {
        if dataPaths[peer]?.generation == generation { dataPaths[peer] = nil }
    }

    /// Records a ready connection; when another live connection joins the same two peers in the other
    /// direction (both sides connected at once), keeps the one made by the peer with the smaller
    /// identifier (TN3213's rule, ``WAPeerIdentifier/survives(initiatedBy:against:)``) and closes the other
    /// as a duplicate on this side. Both sides apply the same rule, so both keep the same connection.
    /// Returns whether `connection` survives.
    func register(_ connection: WAConnection) async -> Bool {
        let peer = connection.remotePeer
        var connections = (live[peer] ?? []).filter { !$0.currentState.isFinal }
        var survives = true
        var losers: [WAConnection] = []
        for other in connections where other.isInitiator != connection.isInitiator {
            if WAPeerIdentifier.survives(
                initiatedBy: Self.initiator(of: connection), against: Self.initiator(of: other))
            {
                losers.append(other)
            } else {
                survives = false
            }
        }
        connections.removeAll { c in losers.contains { $0 === c } }
        if survives { connections.append(connection) }
        live[peer] = connections
        for loser in losers { await loser.closeAsDuplicate() }
        if !survives { await connection.closeAsDuplicate() }
        return survives
    }

    /// Ends the live connections this side made to `peer` (their data path ended).
    func endConnections(to peer: MACAddress, because reason: String) {
        for connection in connectionsMade(to: peer) {
            connection.end(.failed(WAError(.connectionTerminated, message: reason)))
        }
    }

    /// The shared data path to `peer` can carry packets, or not for now: its connections say so.
    func setViability(to peer: MACAddress, _ isViable: Bool) {
        for connection in connectionsMade(to: peer) { connection.setViable(isViable) }
    }

    /// The live connections this side made to `peer`: those over the shared data path to it.
    private func connectionsMade(to peer: MACAddress) -> [WAConnection] {
        live.values.joined().filter { $0.isInitiator && $0.peer == peer }
    }

    /// Forgets an ended connection.
    func remove(_ connection: WAConnection) {
        live[connection.remotePeer]?.removeAll { $0 === connection }
        if live[connection.remotePeer]?.isEmpty == true { live[connection.remotePeer] = nil }
    }

    private static func initiator(of connection: WAConnection) -> WAPeerIdentifier {
        connection.isInitiator ? connection.localPeer : connection.remotePeer
    }
}

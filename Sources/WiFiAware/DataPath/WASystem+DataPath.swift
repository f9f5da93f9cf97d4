internal import Synchronization
import NANEngine
import NANWire

extension WASystem {
    var dataPathEngine: NANEngine? { backend as? NANEngine }

    /// Accepts data-path requests to a running publisher (Apple's listener accepting connections). The
    /// stream reports each request, connection and termination; it ends when the publisher ends or the
    /// task consuming it is cancelled, which stops accepting (data paths already up stay until the
    /// system ends).
    ///
    /// - Parameters:
    ///   - publisher: A publisher being iterated (its publish must be running).
    ///   - devices: Whose requests to accept: `.anyDevice`, or paired devices (the store is read again at
    ///     each request, so a device paired after this started, or verified at a new address, is accepted).
    ///   - security: `.open` (explicit), a passphrase or PMK (NCS-SK): then only requests with the same
    ///     credential and one of its suites are accepted; or ``WADataPathSecurity/pairing`` (NCS-PK-PASN-128 or
    ///     -256, as each device paired): only requests from paired devices that verified their pairing key
    ///     with us first, on the suite of their pairing. A request refused
    ///     (another passphrase, open against secure, not verified) is reported as `.terminated` with reason
    ///     `security-failure`, and so is, with pairing, a peer that fails verification (NDP ID 0).
    ///   - idleTimeout: Each accepted data path ends (reason `idle`) after this long with no packet either
    ///     way; nil: never.
    public func acceptDataPaths(
        for publisher: WAPublisher, from devices: WADeviceSelection = .anyDevice,
        security: WADataPathSecurity, idleTimeout: Duration? = nil
    ) -> AsyncThrowingStream<WADataPathEvent, any Error> {
        let handle = publisher.handle
        let serviceName = publisher.service.name.rawValue
        let store = store
        let engine = dataPathEngine
        let pairedKeys = pairing.withLock { $0 } == nil ? nil : pairedDataPathKeys
        let failures = security.isPairing ? verifications() : nil
        return .produced(buffer: 64, while: "accept data paths") { continuation in
            let policy = try security.policy(service: serviceName, pairedKeys: pairedKeys)
            guard let engine, engine.supportsDataPath else {
                throw WAError(.wifiAwareUnsupported, message: "this adapter cannot carry NAN data paths")
            }
            // The selection must resolve now (a paired selection with no paired device is an error, as
            // for sessions); after that the store is read again at each request.
            let admission =
                try devices.resolve(in: try store.devices()) == nil
                ? DataPathAdmission.anyone
                : PairedDataPathAdmission(store: store, selection: devices).dataPathAdmission
            var publishID = handle.instanceID
            while publishID == nil {
                try await Task.sleep(for: .milliseconds(20))
                publishID = handle.instanceID
            }
            guard let publishID else { return }
            let events = try await engine.acceptDataPaths(
                publishID: publishID, admitting: admission, security: policy,
                idleTimeout: idleTimeout)
            var connections: [NDPIdentifier: WADataPathConnection] = [:]
            // A peer that fails pairing verification is refused before it can ask: say so here.
            let refusals = failures.map { failures in
                Task {
                    for await case .failed(let peer, let reason) in failures {
                        continuation.yield(
                            .terminated(
                                peer: peer, ndpID: 0,
                                reason: WADataPathEndReason(
                                    .securityFailure, reasonCode: NANReasonCode.securityPolicy.rawValue,
                                    detail: "pairing verification failed: \(reason)")))
                    }
                }
            }
            defer { refusals?.cancel() }
            await withTaskCancellationHandler {
                for await event in events { continuation.yield(WADataPathEvent(event, connections: &connections)) }
            } onCancel: {
                Task { await engine.stopAcceptingDataPaths(publishID: publishID) }
            }
        }
    }

    /// Requests a data path to a discovered endpoint, runs `body` with it once it is up, and tears it down
    /// when `body` returns or throws (or the task is cancelled). With `idleTimeout` it ends by itself (a
    /// `.terminated` event with reason `idle` in the stream) after that long with no packet either way.
    ///
    /// `security`: `.open` (explicit), a passphrase or PMK: an NCS-SK data path with its first suite,
    /// which the publisher must accept with the same credential; or ``WADataPathSecurity/pairing``: the
    /// endpoint must be a paired device with a pairing key, which is verified first (PASN with the stored
    /// NPK), and the data path is NCS-PK-PASN-128 or -256 (the pairing's suite) keyed by the ND-PMK that
    /// verification derived.
    ///
    /// - Throws: ``WAError/Code/connectionFailed`` (with the NAN reason) when the peer rejects or does not
    ///   answer or the key exchange fails, ``WAError/Code/invalidArgument`` for an unusable passphrase or
    ///   PMK, ``WAError/Code/noRadioResources`` when too many data paths are up, or what `body` throws.
    public func withDataPath<Result: Sendable>(
        to endpoint: WAEndpoint, security: WADataPathSecurity, idleTimeout: Duration? = nil,
        _ body: (WADataPathConnection, AsyncStream<WADataPathEvent>) async throws -> Result
    ) async throws -> Result {
        guard let engine = dataPathEngine, engine.supportsDataPath else {
            throw WAError(.wifiAwareUnsupported, message: "this adapter cannot carry NAN data paths")
        }
        if security.isPairing { _ = try await verify(endpoint) }
        let policy = try security.policy(
            service: endpoint.service.rawValue, pairedKeys: pairedDataPathKeys, peer: endpoint.address)
        let id: NDPIdentifier
        let events: AsyncStream<DataPathEvent>
        do {
            (id, events) = try await engine.requestDataPath(
                to: endpoint.address, publishID: endpoint.instanceID,
                security: policy, idleTimeout: idleTimeout)
        } catch let error as DataPathError where error.code == .tooManyDataPaths {
            throw WAError(.noRadioResources, message: "too many data paths are up on \(adapterName)", underlying: error)
        } catch {
            throw WAError.from(error, while: "request a data path")
        }
        var connections: [NDPIdentifier: WADataPathConnection] = [:]
        var iterator = events.makeAsyncIterator()
        var connection: WADataPathConnection?
        while connection == nil, let event = await iterator.next() {
            switch WADataPathEvent(event, connections: &connections) {
            case .connected(let c): connection = c
            case .terminated(_, _, let reason):
                let hint =
                    reason.isSecurityFailure
                    ? (security.isPairing
                        ? " (the peer did not verify our pairing, or accepts another security)"
                        : " (the peer uses another passphrase or PMK, another cipher suite, or open against secure)")
                    : ""
                throw WAError(
                    .connectionFailed, message: "the data path to \(endpoint.address) failed: \(reason)\(hint)")
            case .requested, .viability: break
            }
        }
        guard let connection else {
            await engine.endDataPath(id)
            throw WAError(.connectionFailed, message: "the data path to \(endpoint.address) did not come up")
        }
        let (rest, continuation) = AsyncStream.makeStream(
            of: WADataPathEvent.self, bufferingPolicy: .bufferingNewest(16))
        let forward = Task {
            var connections = connections
            while let event = await iterator.next() {
                continuation.yield(WADataPathEvent(event, connections: &connections))
            }
            continuation.finish()
        }
        defer { forward.cancel() }
        do {
            let result = try await body(connection, rest)
            await engine.endDataPath(id)
            return result
        } catch {
            await engine.endDataPath(id)
            throw error
        }
    }

    /// Tells the data path that the radio can no longer use the channel on `frequency` (MHz; e.g. 5745
    /// for channel 149): the data-path schedule is moved off it and the peers are told with a Schedule
    /// Update Notification; data paths that then share no slot with their peer end with reason
    /// `schedule-changed`. The kernel's own channel-evacuation event does the same by itself. Returns the
    /// frequencies of the schedule in use afterwards (empty when no data path was set up).
    @discardableResult
    public func evacuate(frequency: Int) async -> [Int] {
        await dataPathEngine?.evacuate(frequencies: [frequency])?.channels.map(\.frequency) ?? []
    }

    /// The data paths up on this system's adapter.
    public func dataPaths() async -> [WADataPathConnection] {
        await dataPathEngine?.dataPaths().map(WADataPathConnection.init) ?? []
    }
}

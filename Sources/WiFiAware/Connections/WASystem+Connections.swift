internal import NANSystem

extension WASystem {
    /// A listener for a publishable service: publishes it to `devices`, accepts their data paths and the
    /// connections over them (Apple's `NetworkListener` for Wi-Fi Aware). Nothing happens until it is
    /// iterated.
    public func listener(
        for service: WAPublishableService, from devices: WADeviceSelection = .allPairedDevices,
        parameters: WAConnectionParameters
    ) -> WAConnectionListener {
        WAConnectionListener(service: service, devices: devices, parameters: parameters, system: self)
    }

    /// A browser for a subscribable service: the listeners of `devices` as they are found and lost
    /// (Apple's `NetworkBrowser` for Wi-Fi Aware). Nothing happens until it is iterated.
    public func browser(
        for service: WASubscribableService, from devices: WADeviceSelection = .allPairedDevices,
        active: Bool = true
    ) -> WAConnectionBrowser {
        WAConnectionBrowser(service: service, devices: devices, active: active, system: self)
    }

    /// Connects to a listener found by a browser, runs `body` with the ready connection, and ends it when
    /// `body` returns or throws (Apple's `NetworkConnection(to: endpoint) { TLS() }`): requests the data
    /// path (or shares the one already up to that device; the last connection over it ends it), connects
    /// TCP to the peer's link-local address on the NAN data interface at the port its service info
    /// announces, then runs the transport (by default mutual TLS 1.3, the peer's certificate judged by
    /// `parameters.trust`: see ``WAConnectionTrust``) and the preface. With
    /// ``WAConnectionTransport/quic(alpn:)`` it runs QUIC to that port instead, with the same identities and
    /// trust, the preface on the first stream.
    ///
    /// - Parameters:
    ///   - endpoint: A listener's endpoint (``WABrowserEvent/found(_:)``).
    ///   - parameters: The data path's protection, the transport, the mode.
    ///   - onStateUpdate: Called with `preparing`, `waiting(reason)`, `ready`, then `failed` or
    ///     `cancelled` (also readable from ``WAConnection/states`` once ready).
    /// - Throws: ``WAError/Code/connectionFailed`` when it cannot be set up (no port announced, the data
    ///   path fails, TCP or the handshake fails or takes longer than `setupTimeout`, the peer's certificate
    ///   is refused or the peer refuses ours: the message says which and why),
    ///   ``WAError/Code/connectionTerminated`` when it is closed as a duplicate of the peer's own
    ///   connection to us, or what `body` throws.
    public func withConnection<Result: Sendable>(
        to endpoint: WAEndpoint, parameters: WAConnectionParameters,
        onStateUpdate: (@Sendable (WAConnectionState) -> Void)? = nil,
        _ body: (WAConnection) async throws -> Result
    ) async throws -> Result {
        onStateUpdate?(.setup)
        do {
            try parameters.check()
            guard let port = ConnectionServiceInfo.port(in: endpoint.serviceInfo) else {
                throw WAError(
                    .connectionFailed,
                    message:
                        "\(endpoint) announces no connection port in its service info (it is not a waware listener)")
            }
            let localPeer = try parameters.localPeer(for: store)
            let tls = try ConnectionTLS.forParameters(parameters, store: store, localPeer: localPeer)
            onStateUpdate?(.preparing)
            let dataPath = try await connections.acquireDataPath(
                system: self, endpoint: endpoint, security: parameters.dataPathSecurity,
                idleTimeout: parameters.idleTimeout)
            let registry = connections
            let connection: WAConnection
            do {
                // Read after the data path is up: a pairing verification may have noted the device's address,
                // and another connection may have pinned its certificate.
                let devices = (try? store.devices()) ?? [:]
                let device =
                    endpoint.device.flatMap { devices[$0.id] ?? $0 }
                    ?? devices.values.first { $0.managementAddresses.contains(endpoint.address) }
                if parameters.transport.isQUIC, let tls {
                    connection = try await ConnectionSetup.within(
                        parameters.setupTimeout, "setting up the QUIC connection to \(endpoint)"
                    ) { () async throws(WAError) -> WAConnection in
                        let (quic, certificate, basis) = try await ConnectionQUIC.connect(
                            to: port, over: dataPath, tls: tls, parameters: parameters, peer: endpoint.address,
                            device: device, onStateUpdate: onStateUpdate)
                        do throws(WAError) {
                            return try await ConnectionSetup.establish(
                                quic: quic, isInitiator: true, parameters: parameters, localPeer: localPeer,
                                peerAddress: endpoint.address, device: device, dataPath: dataPath,
                                certificate: certificate, basis: basis, store: tls.store)
                        } catch {
                            quic.cancel(code: 1, linger: .zero)
                            throw error
                        }
                    }
                } else {
                    let socket = try await Self.connectTCP(
                        to: LinkLocalEndpoint(
                            address: dataPath.peerAddress, interface: dataPath.interfaceName, port: port),
                        within: parameters.setupTimeout, onStateUpdate: onStateUpdate)
                    connection = try await ConnectionSetup.within(
                        parameters.setupTimeout, "setting up the connection to \(endpoint)"
                    ) { () async throws(WAError) -> WAConnection in
                        try await ConnectionSetup.establish(
                            socket: socket, isInitiator: true, parameters: parameters, localPeer: localPeer,
                            peerAddress: endpoint.address, device: device, dataPath: dataPath, tls: tls)
                    }
                }
            } catch {
                await registry.releaseDataPath(to: endpoint.address)
                throw error
            }
            let peer = endpoint.address
            connection.onEnd {
                onStateUpdate?(connection.currentState)
                Task {
                    await registry.remove(connection)
                    await registry.releaseDataPath(to: peer)
                }
            }
            guard await registry.register(connection) else {
                throw WAError(
                    .connectionTerminated,
                    message:
                        "both devices connected at once; the connection peer \(connection.remotePeer) made survives (take it from the listener)"
                )
            }
            onStateUpdate?(.ready)
            do {
                let result = try await body(connection)
                connection.cancel()
                return result
            } catch {
                connection.cancel()
                throw error
            }
        } catch let error as WAError {
            onStateUpdate?(.failed(error))
            throw error
        }
    }

    /// TCP to the peer, trying again while its link-local address is not usable yet (duplicate address
    /// detection on a fresh data interface, reported as `waiting`).
    static func connectTCP(
        to endpoint: LinkLocalEndpoint, within timeout: Duration,
        onStateUpdate: (@Sendable (WAConnectionState) -> Void)?
    ) async throws(WAError) -> StreamSocket {
        let deadline = ContinuousClock.now + timeout
        var lastReason = ""
        while true {
            let left = deadline - ContinuousClock.now
            do {
                return try await StreamSocket.connect(to: endpoint, timeout: min(left, .seconds(20)))
            } catch {
                if error.isCancelled || Task.isCancelled {
                    throw WAError(.connectionFailed, message: "cancelled while connecting to \(endpoint)")
                }
                guard ContinuousClock.now + .milliseconds(500) < deadline else {
                    throw WAError(
                        .connectionFailed, message: "TCP to \(endpoint) failed for \(timeout): \(error)",
                        underlying: error)
                }
                let reason = "TCP to \(endpoint): \(error)"
                if reason != lastReason {
                    onStateUpdate?(.waiting(reason))
                    lastReason = reason
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }
}

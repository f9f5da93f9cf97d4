internal import NANSystem
import NANWire

/// The steps both ends run on a fresh TCP socket: the transport (plain, or the TLS handshake), then the
/// preface each way, giving a ready ``WAConnection``.
enum ConnectionSetup {
    /// `tls`: the TLS side (``ConnectionTLS/forParameters(_:store:localPeer:)``); nil: plain TCP.
    static func establish(
        socket: StreamSocket, isInitiator: Bool, parameters: WAConnectionParameters,
        localPeer: WAPeerIdentifier, peerAddress: MACAddress, device: WAPairedDevice?,
        dataPath: WADataPathConnection, tls: ConnectionTLS?
    ) async throws(WAError) -> WAConnection {
        let channel: any ConnectionChannel
        var certificate: WAPeerCertificate?
        var basis: WAConnectionTrust.Basis?
        if let tls {
            let secured = try await tls.handshake(
                on: socket, isInitiator: isInitiator, peer: peerAddress,
                device: device, dataPath: dataPath, timeout: parameters.setupTimeout)
            channel = secured.0
            certificate = secured.1
            basis = secured.2
        } else {
            channel = PlainChannel(socket: socket)
        }
        let transport = tls == nil ? WAConnectionTransport.plain.description : WAConnectionTransport.tls.description
        return try await exchangePrefaces(
            on: channel, transport: transport, isInitiator: isInitiator, parameters: parameters,
            localPeer: localPeer, peerAddress: peerAddress, device: device, dataPath: dataPath,
            certificate: certificate, basis: basis, store: tls?.store, quic: nil)
    }

    /// The steps both ends run on a QUIC connection whose handshake finished: the initiator opens the first
    /// stream, the listener's side takes it; then the preface each way on it.
    static func establish(
        quic: QUICConnection, isInitiator: Bool, parameters: WAConnectionParameters,
        localPeer: WAPeerIdentifier, peerAddress: MACAddress, device: WAPairedDevice?,
        dataPath: WADataPathConnection, certificate: WAPeerCertificate, basis: WAConnectionTrust.Basis,
        store: WADeviceStore?
    ) async throws(WAError) -> WAConnection {
        let stream: QUICStream
        if isInitiator {
            do throws(QUICError) { stream = try await quic.openStream() } catch {
                throw WAError(
                    .connectionFailed, message: "cannot open the first QUIC stream: \(error)", underlying: error)
            }
        } else {
            stream = try await ConnectionQUIC.firstInboundStream(of: quic)
        }
        return try await exchangePrefaces(
            on: QUICChannel(connection: quic, stream: stream), transport: parameters.transport.description,
            isInitiator: isInitiator, parameters: parameters, localPeer: localPeer, peerAddress: peerAddress,
            device: device, dataPath: dataPath, certificate: certificate, basis: basis, store: store, quic: quic)
    }

    /// The preface each way on `channel` (and the datagram offers over TCP), giving the ready connection.
    private static func exchangePrefaces(
        on channel: any ConnectionChannel, transport: String, isInitiator: Bool, parameters: WAConnectionParameters,
        localPeer: WAPeerIdentifier, peerAddress: MACAddress, device: WAPairedDevice?,
        dataPath: WADataPathConnection, certificate: WAPeerCertificate?, basis: WAConnectionTrust.Basis?,
        store: WADeviceStore?, quic: QUICConnection?
    ) async throws(WAError) -> WAConnection {
        // A learned pin is in the store now: hand out the device as it is there.
        var device = device
        if basis == .learnedOverPairing, let known = device, let store, let fresh = try? store.devices()[known.id] {
            device = fresh
        }
        // Trusted on first use, the peer is unpaired as far as we know: the paired device whose address it
        // used is not vouched for by the data path's key, and the connection is not handed out as that device's.
        if basis == .firstUse { device = nil }
        // QUIC carries datagrams itself (RFC 9221): no UDP socket or offer beside it.
        let datagrams = quic == nil ? try DatagramSetup.prepare(parameters.datagrams, dataPath: dataPath) : nil
        try await channel.send(
            ConnectionPreface(peer: localPeer, mode: parameters.mode, offersDatagrams: datagrams != nil).encoded
                + (datagrams?.offer.encoded ?? []))
        var received: [UInt8] = []
        try await DatagramSetup.fill(&received, to: ConnectionPreface.size, from: channel, what: "preface")
        let preface = try ConnectionPreface(decoding: Array(received.prefix(ConnectionPreface.size)))
        var used = ConnectionPreface.size
        var peerOffer: DatagramOffer?
        if preface.offersDatagrams {
            guard quic == nil else {
                throw WAError(.connectionFailed, message: "the peer offered UDP datagrams beside a QUIC connection")
            }
            try await DatagramSetup.fill(
                &received, to: used + DatagramOffer.size, from: channel, what: "datagram offer")
            peerOffer = try DatagramOffer(decoding: Array(received[used..<used + DatagramOffer.size]))
            used += DatagramOffer.size
        }
        guard preface.mode == parameters.mode else {
            throw WAError(
                .connectionFailed,
                message: "the peer wants a \(preface.mode.rawValue) connection, this side \(parameters.mode.rawValue)")
        }
        guard preface.peer != localPeer else {
            throw WAError(
                .connectionFailed,
                message: "the peer has this device's own peer identifier \(localPeer) (a copied state folder?)")
        }
        let datagramChannel = try await DatagramSetup.finish(
            datagrams, peerOffer: peerOffer, isInitiator: isInitiator,
            channel: channel, dataPath: dataPath)
        return WAConnection(
            channel: channel, localPeer: localPeer, remotePeer: preface.peer, peerAddress: peerAddress,
            device: device, dataPath: dataPath, isInitiator: isInitiator, mode: parameters.mode,
            maximumMessageSize: parameters.maximumMessageSize, transportDescription: transport,
            datagrams: datagramChannel, pending: Array(received.dropFirst(used)),
            peerCertificate: certificate, trustBasis: basis, quic: quic)
    }

    /// Runs `body` within `timeout`, or throws `connectionFailed` naming `what`.
    static func within<T: Sendable>(
        _ timeout: Duration, _ what: String,
        _ body: @escaping @Sendable () async throws(WAError) -> T
    ) async throws(WAError) -> T {
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    throw WAError(.connectionFailed, message: "\(what) took longer than \(timeout)")
                }
                return value
            }
        } catch let error as WAError {
            throw error
        } catch {
            throw WAError(.connectionFailed, message: "\(what) was cancelled", underlying: error)
        }
    }
}

extension WADataPathConnection {
    /// A data path described by hand (tests of the layer above, over loopback).
    init(
        peer: MACAddress, ndpID: UInt8, interfaceName: String, localInterfaceAddress: MACAddress,
        peerInterfaceAddress: MACAddress, localAddress: IPv6Address, peerAddress: IPv6Address,
        cipherSuite: WACipherSuite?,
        peerServiceInfo: [UInt8]
    ) {
        self.peer = peer
        self.ndpID = ndpID
        self.interfaceName = interfaceName
        self.localInterfaceAddress = localInterfaceAddress
        self.peerInterfaceAddress = peerInterfaceAddress
        self.localAddress = localAddress
        self.peerAddress = peerAddress
        self.cipherSuite = cipherSuite
        self.peerServiceInfo = peerServiceInfo
    }
}

internal import NANCrypto
internal import NANSystem

/// How two ends agree datagrams while their connection is set up (TN3213: datagrams bootstrapped over the
/// reliable connection): each side that wants them binds a UDP socket on its link-local address of the
/// data interface and sends a ``DatagramOffer`` (its port, its size limit, 32 random bytes) right after
/// its preface; when both offered, each connects its socket to the other's port and keys the datagrams
/// (``DatagramKeys``) from the TLS session or, over plain TCP, from the offers. Costs no extra round trip.
enum DatagramSetup {
    /// This side's socket and offer.
    struct Local: Sendable {
        let socket: PeerDatagramSocket
        let offer: DatagramOffer
        let options: WADatagramOptions
    }

    /// Binds this side's socket and makes its offer, when `options` asks for datagrams.
    static func prepare(_ options: WADatagramOptions?, dataPath: WADataPathConnection) throws(WAError) -> Local? {
        guard let options else { return nil }
        try options.check()
        let socket: PeerDatagramSocket
        do {
            socket = try PeerDatagramSocket.bind(
                to: LinkLocalEndpoint(address: dataPath.localAddress, interface: dataPath.interfaceName, port: 0))
        } catch {
            throw WAError(
                .connectionFailed,
                message: "cannot open a UDP socket for datagrams on \(dataPath.interfaceName): \(error)",
                errno: error.errno?.rawValue, underlying: error)
        }
        let random: [UInt8]
        do { random = try SecureRandom.bytes(32) } catch {
            throw WAError(
                .connectionFailed, message: "no random bytes for the datagram offer: \(error)", underlying: error)
        }
        return Local(
            socket: socket,
            offer: DatagramOffer(port: socket.localPort, maximumSize: options.maximumSize, random: random),
            options: options)
    }

    /// The datagram channel once both prefaces (and offers) are exchanged; nil when either side did not
    /// offer (this side's socket is closed then).
    static func finish(
        _ local: Local?, peerOffer: DatagramOffer?, isInitiator: Bool, channel: any ConnectionChannel,
        dataPath: WADataPathConnection
    ) async throws(WAError) -> DatagramChannel? {
        guard let local else { return nil }
        guard let peerOffer else {
            local.socket.cancel()
            return nil
        }
        let (initiator, responder) = isInitiator ? (local.offer, peerOffer) : (peerOffer, local.offer)
        let context = DatagramKeys.context(initiator: initiator, responder: responder)
        let keys: DatagramKeys
        if let exported = try await channel.exportKeyingMaterial(
            label: DatagramKeys.exporterLabel, context: context,
            count: DatagramKeys.materialSize)
        {
            keys = try DatagramKeys(
                material: exported, isInitiator: isInitiator, protection: "AES-256-GCM, keys exported from TLS 1.3")
        } else {
            keys = try DatagramKeys(
                material: DatagramKeys.plainMaterial(initiator: initiator, responder: responder),
                isInitiator: isInitiator,
                protection: "AES-256-GCM, keys from the plain-TCP offers (no secrecy)")
        }
        let peer = LinkLocalEndpoint(
            address: dataPath.peerAddress, interface: dataPath.interfaceName,
            port: peerOffer.port)
        do { try local.socket.connect(to: peer) } catch {
            local.socket.cancel()
            throw WAError(
                .connectionFailed, message: "cannot aim the datagram socket at \(peer): \(error)",
                errno: error.errno?.rawValue, underlying: error)
        }
        do {
            return try DatagramChannel(
                socket: local.socket, keys: keys, options: local.options, peerMaximumSize: peerOffer.maximumSize)
        } catch {
            local.socket.cancel()
            throw error
        }
    }

    /// Reads from `channel` until `received` holds at least `count` bytes.
    static func fill(
        _ received: inout [UInt8], to count: Int, from channel: any ConnectionChannel, what: String
    ) async throws(WAError) {
        while received.count < count {
            let bytes = try await channel.receive(maximum: 4096)
            guard !bytes.isEmpty else {
                throw WAError(
                    .connectionFailed,
                    message: "the peer closed the connection before its \(what) (\(received.count) of \(count) bytes)")
            }
            received += bytes
        }
    }
}

extension ConnectionChannel {
    /// No keying material to export: plain TCP (a TLS channel implements it).
    func exportKeyingMaterial(label: String, context: [UInt8], count: Int) async throws(WAError) -> [UInt8]? { nil }
}

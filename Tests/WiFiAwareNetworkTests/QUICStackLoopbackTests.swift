import NANCrypto
import NANWire
import Testing

@testable import WiFiAware
@testable import WiFiAwareNetwork

/// `QUIC(alpn:)` connections over loopback UDP (no radio): the bytes of the first stream, a `TLV` over QUIC,
/// streams each way with `openStream` and `inboundStreams`, and datagrams.
@Suite struct QUICStackLoopbackTests {
    static let identityA = try! TLSIdentity.generate(commonName: "A")
    static let identityB = try! TLSIdentity.generate(commonName: "B")

    /// Two WiFiAware connections over QUIC on loopback: (the initiator's, the listener's).
    static func pair() async throws -> (WAConnection, WAConnection) {
        let parameters = {
            var parameters = WAConnectionParameters(dataPathSecurity: .open)
            parameters.transport = .quic(alpn: ["MyALPN"])
            parameters.mode = .byteStream
            parameters.setupTimeout = .seconds(20)
            return parameters
        }()
        let path = WADataPathConnection(
            peer: MACAddress(bytes: [2, 0, 0, 0, 0, 7])!, ndpID: 1, interfaceName: "lo",
            localInterfaceAddress: MACAddress(bytes: [2, 0, 0, 0, 0, 8])!,
            peerInterfaceAddress: MACAddress(bytes: [2, 0, 0, 0, 0, 9])!, localAddress: .loopback,
            peerAddress: .loopback, cipherSuite: nil, peerServiceInfo: [])
        let tlsA = ConnectionTLS(identity: identityA, trust: .pairedDevicesOrFirstUse, store: nil)
        let tlsB = ConnectionTLS(identity: identityB, trust: .pairedDevicesOrFirstUse, store: nil)
        let port = UInt16.random(in: 20000...60000)
        let (accepted, sink) = AsyncStream.makeStream(of: WAConnection.self)
        let server = Task {
            await ConnectionQUIC.serve(
                path, port: port, tls: tlsA, parameters: parameters, device: { nil },
                setUp: { quic, device, certificate, basis throws(WAError) in
                    sink.yield(
                        try await ConnectionSetup.establish(
                            quic: quic, isInitiator: false, parameters: parameters,
                            localPeer: WAPeerIdentifier(bytes: Array(1...16)), peerAddress: path.peer, device: device,
                            dataPath: path, certificate: certificate, basis: basis, store: nil))
                }, refused: { _ in })
        }
        defer { server.cancel() }
        let (quic, certificate, basis) = try await ConnectionQUIC.connect(
            to: port, over: path, tls: tlsB, parameters: parameters, peer: path.peer, device: nil, onStateUpdate: nil)
        let client = try await ConnectionSetup.establish(
            quic: quic, isInitiator: true, parameters: parameters, localPeer: WAPeerIdentifier(bytes: Array(101...116)),
            peerAddress: path.peer, device: nil, dataPath: path, certificate: certificate, basis: basis, store: nil)
        for await listener in accepted { return (client, listener) }
        throw NWError(.closed, message: "no connection accepted")
    }

    @Test func quicCarriesBytesStreamsEachWayAndDatagrams() async throws {
        let (a, b) = try await Self.pair()
        let stack = QUIC(alpn: ["MyALPN"])
        let plan = try stack.plan()
        let client = NetworkConnection(accepted: a, stack: stack, plan: plan)
        let server = NetworkConnection(accepted: b, stack: stack, plan: plan)

        // The connection's own bytes, on its first stream.
        try await client.send(Data("hello".utf8))
        #expect(try await server.receive(exactly: 5) == Data("hello".utf8))

        // A stream each way.
        let outbound = try await client.openStream()
        try await outbound.send(Data("on a stream".utf8))
        try await outbound.finish()
        var inbound = server.inboundStreams.makeAsyncIterator()
        let stream = try #require(await inbound.next())
        #expect(try await stream.receiveAll() == Data("on a stream".utf8))
        try await stream.send(Data("answer".utf8))
        try await stream.finish()
        #expect(try await outbound.receiveAll() == Data("answer".utf8))
        let back = try await server.openStream()
        try await back.send(Data("from the listener".utf8))
        var clientInbound = client.inboundStreams.makeAsyncIterator()
        #expect(try await clientInbound.next()?.receive(exactly: 17) == Data("from the listener".utf8))

        // Datagrams (RFC 9221).
        try await client.send(datagram: Data("datagram".utf8))
        #expect(try await server.receiveDatagram() == Data("datagram".utf8))
        await #expect(throws: NWError.self) {
            try await client.send(datagram: Data(repeating: 0, count: 1101))
        }

        client.cancel()
        await #expect(throws: NWError.self) { _ = try await server.receive(exactly: 1) }
    }

    @Test func aTLVRunsOverQUIC() async throws {
        let (a, b) = try await Self.pair()
        let stack = TLV(type: UInt8.self, length: UInt32.self) { QUIC(alpn: ["MyALPN"]) }
        let plan = try stack.plan()
        let client = NetworkConnection(accepted: a, stack: stack, plan: plan)
        let server = NetworkConnection(accepted: b, stack: stack, plan: plan)
        try await client.send(Data("e2-e4".utf8), type: 1)
        let (content, metadata) = try await server.receive()
        #expect(content == Data("e2-e4".utf8) && metadata.type == 1)
        client.cancel()
        server.cancel()
    }
}

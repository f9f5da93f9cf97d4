import Foundation
import NANCrypto
import NANSystem
import NANWire
import Testing

@testable import WiFiAware

/// Connections over QUIC on loopback UDP (no radio): the listener's accept loop for a data path, the
/// initiator's connect, the same trust as TLS (a pin learned over the pairing, then enforced on both
/// sides), the preface and messages on the first stream, more streams, datagrams, and cancellation.
@Suite struct ConnectionQUICTests {
    typealias Outcome = Result<WAConnection, WAError>

    static func parameters(_ alpn: [String]) -> WAConnectionParameters {
        var parameters = WAConnectionParameters(dataPathSecurity: .open)
        parameters.transport = .quic(alpn: alpn)
        parameters.setupTimeout = .seconds(20)
        return parameters
    }

    /// A listener's accept loop on a loopback "data path" at a random port, and what it sets up.
    struct Server: Sendable {
        let port: UInt16
        let task: Task<Void, Never>
        let outcomes: AsyncStream<Outcome>

        init(
            tls: ConnectionTLS, device: @escaping @Sendable () -> WAPairedDevice?, peer: WAPeerIdentifier,
            alpn: [String] = ["waware-test"]
        ) {
            let port = UInt16.random(in: 20000...60000)
            let (outcomes, sink) = AsyncStream.makeStream(of: Outcome.self)
            let path = ConnectionTLSTests.dataPath(.ncsPKPASN128)
            let parameters = ConnectionQUICTests.parameters(alpn)
            self.port = port
            self.outcomes = outcomes
            task = Task {
                await ConnectionQUIC.serve(
                    path, port: port, tls: tls, parameters: parameters, device: device,
                    setUp: { quic, device, certificate, basis throws(WAError) in
                        let connection = try await ConnectionSetup.establish(
                            quic: quic, isInitiator: false, parameters: parameters, localPeer: peer,
                            peerAddress: path.peer, device: device, dataPath: path, certificate: certificate,
                            basis: basis, store: tls.store)
                        sink.yield(.success(connection))
                    },
                    refused: { sink.yield(.failure($0)) })
                sink.finish()
            }
        }

        func next() async -> Outcome? {
            for await outcome in outcomes { return outcome }
            return nil
        }
    }

    /// The initiator's side to `server`.
    static func connect(
        to server: Server, tls: ConnectionTLS, device: WAPairedDevice?, peer: WAPeerIdentifier,
        alpn: [String] = ["waware-test"]
    ) async -> Outcome {
        let path = ConnectionTLSTests.dataPath(.ncsPKPASN128)
        let parameters = parameters(alpn)
        do throws(WAError) {
            let (quic, certificate, basis) = try await ConnectionQUIC.connect(
                to: server.port, over: path, tls: tls, parameters: parameters, peer: path.peer, device: device,
                onStateUpdate: nil)
            return .success(
                try await ConnectionSetup.establish(
                    quic: quic, isInitiator: true, parameters: parameters, localPeer: peer, peerAddress: path.peer,
                    device: device, dataPath: path, certificate: certificate, basis: basis, store: tls.store))
        } catch { return .failure(error) }
    }

    static func failure(_ outcome: Outcome) -> WAError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    @Test func quicLearnsThePinOverThePairingCarriesMessagesStreamsAndDatagramsAndAcceptsTheNextConnection()
        async throws
    {
        try await withTemporaryDirectory { folder in
            let (storeA, b, storeB, a) = try ConnectionTLSTests.pairedStores(in: folder)
            let tlsA = ConnectionTLS(identity: ConnectionTLSTests.identityA, trust: .pairedDevices, store: storeA)
            let tlsB = ConnectionTLS(identity: ConnectionTLSTests.identityB, trust: .pairedDevices, store: storeB)
            let server = Server(tls: tlsA, device: { try? storeA.devices()[b.id] }, peer: ConnectionTLSTests.peerA)
            defer { server.task.cancel() }
            let client = try await Self.connect(to: server, tls: tlsB, device: a, peer: ConnectionTLSTests.peerB).get()
            let accepted = try #require(await server.next()).get()
            #expect(client.transportDescription == "QUIC (ALPN waware-test)")
            #expect(client.applicationProtocol == "waware-test" && accepted.applicationProtocol == "waware-test")
            #expect(client.trustBasis == .learnedOverPairing && accepted.trustBasis == .learnedOverPairing)
            #expect(client.remotePeer == ConnectionTLSTests.peerA && accepted.remotePeer == ConnectionTLSTests.peerB)
            #expect(
                try storeA.devices()[b.id]?.certificateFingerprint?.bytes
                    == ConnectionTLSTests.identityB.fingerprint.bytes)

            // Messages on the first stream.
            try await client.send(Array("ping".utf8))
            #expect(try await accepted.receive() == .message(Array("ping".utf8)))
            try await accepted.send(Array("pong".utf8))
            #expect(try await client.receive() == .message(Array("pong".utf8)))

            // A stream each way beside them.
            let outbound = try await client.openStream()
            try await outbound.write(Array("over a stream".utf8))
            try await outbound.finish()
            var inbound = accepted.inboundStreams.makeAsyncIterator()
            let stream = try #require(await inbound.next())
            #expect(try await stream.read() == Array("over a stream".utf8))
            #expect(try await stream.read() == [])
            let back = try await accepted.openStream()
            try await back.write(Array("and back".utf8))
            var clientInbound = client.inboundStreams.makeAsyncIterator()
            #expect(try await clientInbound.next()?.read() == Array("and back".utf8))

            // Datagrams each way (RFC 9221), always there over QUIC.
            #expect(client.hasDatagrams && client.maximumDatagramSize == 1100)
            var received = accepted.receivedDatagrams.makeAsyncIterator()
            try client.send(datagram: Array("datagram".utf8))
            #expect(await received.next() == Array("datagram".utf8))
            #expect(client.datagramStatistics.sent == 1)

            // The connection ends; the next one comes over the same port, pinned now.
            await client.finishSending()
            #expect(try await accepted.receive() == nil)
            client.cancel()
            let pinnedA = try #require(try storeB.devices()[a.id])
            let again = try await Self.connect(to: server, tls: tlsB, device: pinnedA, peer: ConnectionTLSTests.peerB)
                .get()
            let acceptedAgain = try #require(await server.next()).get()
            #expect(again.trustBasis == .pinned && acceptedAgain.trustBasis == .pinned)
            try await again.send(Array("again".utf8))
            #expect(try await acceptedAgain.receive() == .message(Array("again".utf8)))
            again.cancel()
            acceptedAgain.cancel()
        }
    }

    @Test func aCertificateOtherThanThePinnedOneIsRefusedOnBothSides() async throws {
        try await withTemporaryDirectory { folder in
            let (storeA, b, storeB, a) = try ConnectionTLSTests.pairedStores(in: folder)
            try storeA.pinCertificate(
                try #require(WACertificateFingerprint(bytes: ConnectionTLSTests.identityB.fingerprint.bytes)), to: b.id)
            let replaced = try TLSIdentity.generate(commonName: "B again")
            let server = Server(
                tls: ConnectionTLS(identity: ConnectionTLSTests.identityA, trust: .pairedDevices, store: storeA),
                device: { try? storeA.devices()[b.id] }, peer: ConnectionTLSTests.peerA)
            defer { server.task.cancel() }
            let client = await Self.connect(
                to: server, tls: ConnectionTLS(identity: replaced, trust: .pairedDevices, store: storeB), device: a,
                peer: ConnectionTLSTests.peerB)
            #expect(Self.failure(client)?.message.contains("refused our certificate") == true)
            let serverOutcome = await server.next()
            #expect(serverOutcome.flatMap(Self.failure)?.message.contains("refused the peer's certificate") == true)
        }
    }

    @Test func noALPNInCommonFailsWithItsReason() async throws {
        let tls = ConnectionTLS(identity: ConnectionTLSTests.identityA, trust: .pairedDevicesOrFirstUse, store: nil)
        let server = Server(tls: tls, device: { nil }, peer: ConnectionTLSTests.peerA, alpn: ["one"])
        defer { server.task.cancel() }
        let client = await Self.connect(
            to: server,
            tls: ConnectionTLS(identity: ConnectionTLSTests.identityB, trust: .pairedDevicesOrFirstUse, store: nil),
            device: nil, peer: ConnectionTLSTests.peerB, alpn: ["two"])
        #expect(Self.failure(client)?.message.contains("no QUIC application protocol in common") == true)
    }

    @Test func cancellingAConnectionWakesItsBlockedReceiveAndOpenStream() async throws {
        let server = Server(
            tls: ConnectionTLS(identity: ConnectionTLSTests.identityA, trust: .pairedDevicesOrFirstUse, store: nil),
            device: { nil }, peer: ConnectionTLSTests.peerA)
        defer { server.task.cancel() }
        let client = try await Self.connect(
            to: server,
            tls: ConnectionTLS(identity: ConnectionTLSTests.identityB, trust: .pairedDevicesOrFirstUse, store: nil),
            device: nil, peer: ConnectionTLSTests.peerB
        ).get()
        let accepted = try #require(await server.next()).get()
        let blocked = Task { () async -> WAError? in
            do throws(WAError) {
                _ = try await client.receive()
                return nil
            } catch { return error }
        }
        try await Task.sleep(for: .milliseconds(100))
        client.cancel()
        #expect(await blocked.value?.code == .connectionTerminated)
        #expect(client.currentState == .cancelled)
        await #expect(throws: WAError.self) { _ = try await client.openStream() }
        // The peer hears the end (as the end of the connection, or as its failure).
        let last = try? await accepted.receive()
        #expect(last == nil)
    }
}

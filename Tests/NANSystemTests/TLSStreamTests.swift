import NANWire
import NANCrypto
import NANSystem
import Testing

/// TLS over real sockets through ``TLSStream``: loopback TCP.
@Suite struct TLSStreamTests {
    static let alice = try! TLSIdentity.generate(commonName: "alice")
    static let bob = try! TLSIdentity.generate(commonName: "bob")

    /// Two ends of a TCP connection over [::1] (conn's ``StreamSocket``).
    static func connectedPair() async throws -> (StreamSocket, StreamSocket) {
        let listener = try StreamSocket.listen(port: 0)
        async let accepted = listener.accept()
        let a = try await StreamSocket.connect(
            to: LinkLocalEndpoint(address: .loopback, interface: "lo", port: listener.localPort),
            timeout: .seconds(60))
        return (a, try await accepted)
    }

    /// Handshakes both ends concurrently; each side's result.
    static func handshake(
        client: StreamSocket, server: StreamSocket,
        clientTrust: TLSTrust = .pinned(bob.fingerprint), serverTrust: TLSTrust = .pinned(alice.fingerprint)
    ) async -> (client: Result<TLSStream, TLSError>, server: Result<TLSStream, TLSError>) {
        async let serverSide = outcome { () async throws(TLSError) in
            try await TLSStream.handshake(
                .server, over: server, identity: bob, trust: serverTrust, timeout: .seconds(60))
        }
        let clientSide = await outcome { () async throws(TLSError) in
            try await TLSStream.handshake(
                .client, over: client, identity: alice, trust: clientTrust, timeout: .seconds(60))
        }
        return (clientSide, await serverSide)
    }

    static func outcome(_ body: () async throws(TLSError) -> TLSStream) async -> Result<TLSStream, TLSError> {
        do throws(TLSError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    @Test func handshakeAndDataBothWaysWithBackpressureOverTCP() async throws {
        let (a, b) = try await Self.connectedPair()
        let (clientResult, serverResult) = await Self.handshake(client: a, server: b)
        let client = try clientResult.get(), server = try serverResult.get()
        #expect(client.peerCertificate.fingerprint == Self.bob.fingerprint)
        #expect(server.peerCertificate.fingerprint == Self.alice.fingerprint)

        // More than the socket buffers hold: the writer must wait for the reader (backpressure).
        let payload = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        async let written: Void = client.write(payload)
        var received: [UInt8] = []
        while received.count < payload.count {
            let chunk = try await server.read()
            #expect(!chunk.isEmpty)
            if chunk.isEmpty { break }
            received += chunk
        }
        try await written
        #expect(received == payload)

        try await server.write(Array("pong".utf8))
        #expect(try await client.read() == Array("pong".utf8))

        await client.close()
        #expect(try await server.read() == [])
        await server.close()
        #expect(try await client.read() == [])
    }

    @Test func handshakeAndShortMessageOverLoopbackTCP() async throws {
        let (a, b) = try await Self.connectedPair()
        let (clientResult, serverResult) = await Self.handshake(client: a, server: b)
        let client = try clientResult.get(), server = try serverResult.get()
        try await client.write(Array("hello over TCP".utf8))
        #expect(try await server.read() == Array("hello over TCP".utf8))
        await client.close()
        #expect(try await server.read() == [])
    }

    @Test func refusedPeerFailsBothHandshakesOverSockets() async throws {
        let (a, b) = try await Self.connectedPair()
        let stranger = try TLSIdentity.generate(commonName: "stranger")
        let (client, server) = await Self.handshake(client: a, server: b, serverTrust: .pinned(stranger.fingerprint))
        #expect(throws: TLSError.self) { try client.get() }
        #expect(throws: TLSError.self) { try server.get() }
        if case .failure(let error) = server {
            #expect(error.code == .untrustedPeer)
            #expect(error.fingerprint == Self.alice.fingerprint)
        }
        if case .failure(let error) = client { #expect(error.code == .refusedByPeer) }
    }

    @Test func endOfStreamWithoutCloseNotifyIsATypedError() async throws {
        let (a, b) = try await Self.connectedPair()
        let (clientResult, serverResult) = await Self.handshake(client: a, server: b)
        let client = try clientResult.get(), server = try serverResult.get()
        a.shutdownWrite()  // TCP's end, without TLS close_notify: a truncation
        do {
            _ = try await server.read()
            Issue.record("read returned")
        } catch {
            #expect(error.code == .unexpectedEndOfStream)
        }
        _ = client
    }

    @Test func peerThatIsNotTLSFailsTheHandshakeWithoutATrap() async throws {
        let (a, b) = try await Self.connectedPair()
        try await a.send(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8) + [UInt8](repeating: 0x41, count: 200))
        a.shutdownWrite()
        do {
            _ = try await TLSStream.handshake(
                .server, over: b, identity: Self.bob, trust: .trustOnFirstUse, timeout: .seconds(60))
            Issue.record("handshake succeeded")
        } catch {
            #expect(
                error.code == .handshakeFailed || error.code == .protocolError || error.code == .unexpectedEndOfStream)
        }
    }

    @Test func readTimesOutWithATypedError() async throws {
        let (a, b) = try await Self.connectedPair()
        let (clientResult, serverResult) = await Self.handshake(client: a, server: b)
        let server = try serverResult.get()
        _ = try clientResult.get()
        do {
            _ = try await server.read(timeout: .milliseconds(50))
            Issue.record("read returned")
        } catch {
            #expect(error.code == .timedOut)
        }
    }
}

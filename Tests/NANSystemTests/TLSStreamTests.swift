import NANCrypto
import NANSystem
import Testing

/// TLS over real sockets through ``TLSStream``: a socket pair and loopback TCP.
@Suite struct TLSStreamTests {
    static let alice = try! TLSIdentity.generate(commonName: "alice")
    static let bob = try! TLSIdentity.generate(commonName: "bob")
    static let loopback = LinkLocalEndpoint(address: "::1", interface: "lo", port: 0)

    /// Handshakes both ends concurrently; each side's result.
    static func handshake(
        client: StreamSocket, server: StreamSocket,
        clientTrust: TLSTrust = .pinned(bob.fingerprint), serverTrust: TLSTrust = .pinned(alice.fingerprint)
    ) async -> (client: Result<TLSStream, TLSError>, server: Result<TLSStream, TLSError>) {
        async let serverSide = outcome { () async throws(TLSError) in
            try await TLSStream.handshake(.server, over: server, identity: bob, trust: serverTrust, timeout: .seconds(60))
        }
        let clientSide = await outcome { () async throws(TLSError) in
            try await TLSStream.handshake(.client, over: client, identity: alice, trust: clientTrust, timeout: .seconds(60))
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

    @Test func handshakeAndDataBothWaysOverASocketPair() async throws {
        let (a, b) = try StreamSocket.pair()
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

    @Test func handshakeAndDataOverLoopbackTCP() async throws {
        let listener = try StreamListener.listen(on: Self.loopback)
        async let accepted = listener.accept(timeout: .seconds(60))
        let a = try await StreamSocket.connect(to: LinkLocalEndpoint(address: "::1", interface: "lo", port: listener.port), timeout: .seconds(60))
        let b = try await accepted
        let (clientResult, serverResult) = await Self.handshake(client: a, server: b)
        let client = try clientResult.get(), server = try serverResult.get()
        try await client.write(Array("hello over TCP".utf8))
        #expect(try await server.read() == Array("hello over TCP".utf8))
        await client.close()
        #expect(try await server.read() == [])
    }

    @Test func refusedPeerFailsBothHandshakesOverSockets() async throws {
        let (a, b) = try StreamSocket.pair()
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
        let (a, b) = try StreamSocket.pair()
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
        let (a, b) = try StreamSocket.pair()
        try await a.send(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8) + [UInt8](repeating: 0x41, count: 200))
        a.shutdownWrite()
        do {
            _ = try await TLSStream.handshake(.server, over: b, identity: Self.bob, trust: .trustOnFirstUse, timeout: .seconds(60))
            Issue.record("handshake succeeded")
        } catch {
            #expect(error.code == .handshakeFailed || error.code == .protocolError || error.code == .unexpectedEndOfStream)
        }
    }

    @Test func readTimesOutWithATypedError() async throws {
        let (a, b) = try StreamSocket.pair()
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

    @Test func cancellingAWaitingReadEndsIt() async throws {
        let (a, b) = try StreamSocket.pair()
        let task = Task { try await a.receive(maximum: 10) }
        task.cancel()
        defer { withExtendedLifetime(b) {} }  // the peer stays open: only cancellation can end the wait
        do {
            _ = try await task.value
            Issue.record("receive returned")
        } catch let error as StreamSocketError {
            #expect(error.code == .cancelled)
        }
    }

    @Test func resetConnectionIsATypedError() async throws {
        let listener = try StreamListener.listen(on: Self.loopback)
        async let accepted = listener.accept(timeout: .seconds(60))
        let a = try await StreamSocket.connect(to: LinkLocalEndpoint(address: "::1", interface: "lo", port: listener.port), timeout: .seconds(60))
        let b = try await accepted
        try await b.send([1, 2, 3])
        a.close()  // unread data: the kernel answers with a reset
        var code: StreamSocketError.Code?
        for _ in 0..<100 {
            do {
                try await b.send([UInt8](repeating: 0, count: 65536))
                _ = try await b.receive(maximum: 10, timeout: .milliseconds(10))
            } catch {
                code = error.code
                if error.code != .timedOut { break }
            }
        }
        #expect(code == .connectionReset)
    }

    @Test func connectingWhereNothingListensIsRefused() async throws {
        let listener = try StreamListener.listen(on: Self.loopback)
        let port = listener.port
        listener.close()
        do {
            _ = try await StreamSocket.connect(to: LinkLocalEndpoint(address: "::1", interface: "lo", port: port), timeout: .seconds(60))
            Issue.record("connected")
        } catch {
            #expect(error.code == .connectionRefused)
        }
    }
}

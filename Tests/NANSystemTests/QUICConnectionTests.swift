import NANCrypto
import NANSystem
import NANWire
import Testing

/// QUIC over loopback UDP through ``QUICConnection``: handshake, streams, datagrams, and refusals.
@Suite struct QUICConnectionTests {
    static let alice = try! TLSIdentity.generate(commonName: "alice")
    static let bob = try! TLSIdentity.generate(commonName: "bob")
    static let loopback = LinkLocalEndpoint(address: .loopback, interface: "lo", port: 0)

    /// A connected pair: alice the client, bob the server, each pinning the other unless told otherwise.
    static func pair(
        clientALPN: [String] = ["waware-test"], serverALPN: [String] = ["waware-test"],
        clientTrust: TLSTrust = .pinned(bob.fingerprint), serverTrust: TLSTrust = .pinned(alice.fingerprint)
    ) async -> (client: Result<QUICConnection, QUICError>, server: Result<QUICConnection, QUICError>) {
        let listener: QUICListener
        do {
            listener = try QUICListener(
                on: loopback, configuration: QUICConfiguration(alpn: serverALPN, identity: bob, trust: serverTrust))
        } catch {
            return (.failure(error), .failure(error))
        }
        var client = QUICConfiguration(alpn: clientALPN, identity: alice, trust: clientTrust)
        client.handshakeTimeout = .seconds(20)
        async let server = outcome { () async throws(QUICError) in try await listener.accept() }
        let remote = listener.local
        let connected = await outcome { () async throws(QUICError) in
            try await QUICConnection.connect(to: remote, from: loopback, configuration: client)
        }
        return (connected, await server)
    }

    static func outcome(
        _ body: () async throws(QUICError) -> QUICConnection
    ) async -> Result<QUICConnection, QUICError> {
        do throws(QUICError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// The first stream the peer opens.
    static func first(_ streams: some AsyncSequence<QUICStream, Never>) async -> QUICStream? {
        for await stream in streams { return stream }
        return nil
    }

    /// Reads `stream` to its end.
    static func readAll(_ stream: QUICStream) async throws -> [UInt8] {
        var all: [UInt8] = []
        while true {
            let bytes = try await stream.read()
            if bytes.isEmpty { return all }
            all += bytes
        }
    }

    @Test func handshakeAgreesOnALPNAndPinsBothCertificates() async throws {
        let (client, server) = await Self.pair(clientALPN: ["other", "waware-test"])
        let a = try client.get(), b = try server.get()
        #expect(a.applicationProtocol == "waware-test" && b.applicationProtocol == "waware-test")
        #expect(a.peerCertificate.fingerprint == Self.bob.fingerprint)
        #expect(b.peerCertificate.fingerprint == Self.alice.fingerprint)
        #expect(a.trustBasis == .pinned && b.trustBasis == .pinned)
        await a.close()
        #expect(await b.ended().code == .closedByPeer)
    }

    @Test func aStreamCarriesBytesEachWay() async throws {
        let (client, server) = await Self.pair()
        let a = try client.get(), b = try server.get()
        let outbound = try await a.openStream()
        try await outbound.write(Array("hello bob".utf8))
        try await outbound.finish()
        let inbound = try #require(await Self.first(b.inboundStreams))
        #expect(inbound.id == outbound.id)
        #expect(try await Self.readAll(inbound) == Array("hello bob".utf8))
        try await inbound.write(Array("hello alice".utf8))
        try await inbound.finish()
        #expect(try await Self.readAll(outbound) == Array("hello alice".utf8))
        await a.close()
    }

    @Test func severalStreamsKeepTheirBytesApartIncludingMoreThanTheWindow() async throws {
        let (client, server) = await Self.pair()
        let a = try client.get(), b = try server.get()
        // 600 KiB per stream, read one stream after the other: more than a stream's window (128 KiB) and
        // send buffer (256 KiB), so flow control and acknowledgements both have to move, and the streams
        // not yet read must not stall the one being read.
        let payloads = (0..<4).map { n in [UInt8]((0..<600 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ n) }) }
        let received = Task {
            var result: [QUICStreamID: [UInt8]] = [:]
            for await stream in b.inboundStreams {
                result[stream.id] = try await Self.readAll(stream)
                if result.count == payloads.count { break }
            }
            return result
        }
        var sent: [QUICStreamID: [UInt8]] = [:]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for payload in payloads {
                let stream = try await a.openStream()
                sent[stream.id] = payload
                group.addTask {
                    try await stream.write(payload)
                    try await stream.finish()
                }
            }
            try await group.waitForAll()
        }
        #expect(try await received.value == sent)
        await a.close()
    }

    @Test func datagramsArriveWhole() async throws {
        let (client, server) = await Self.pair()
        let a = try client.get(), b = try server.get()
        let sent = (0..<10).map { n in [UInt8](repeating: UInt8(n), count: 100 + n * 100) }
        for datagram in sent { try a.send(datagram: datagram) }
        var received: [[UInt8]] = []
        for await datagram in b.datagrams {
            received.append(datagram)
            if received.count == sent.count { break }
        }
        // Loopback loses nothing; QUIC datagrams may still be reordered in principle.
        #expect(Set(received) == Set(sent))
        #expect(throws: QUICError.self) { try a.send(datagram: [UInt8](repeating: 0, count: 2000)) }
        await a.close()
    }

    @Test func droppingAConnectionClosesIt() async throws {
        var pair: (client: Result<QUICConnection, QUICError>, server: Result<QUICConnection, QUICError>)? =
            await Self.pair()
        let b = try #require(pair).server.get()
        _ = try #require(pair).client.get()
        pair = nil  // the client's last reference: its engine closes the connection as it goes
        #expect(await b.ended().code == .closedByPeer)
    }

    @Test func aRefusedServerCertificateFailsTheHandshakeOnBothSides() async {
        let (client, server) = await Self.pair(clientTrust: .pinned(Self.alice.fingerprint))
        #expect(client.failureCode == .untrustedPeer)
        #expect(server.failureCode == .refusedByPeer)
    }

    @Test func aRefusedClientCertificateFailsTheHandshakeOnBothSides() async {
        let (client, server) = await Self.pair(serverTrust: .custom { _ in false })
        #expect(server.failureCode == .untrustedPeer)
        #expect(client.failureCode == .refusedByPeer)
    }

    @Test func noCommonALPNFailsWithAClearError() async {
        let (client, server) = await Self.pair(clientALPN: ["one"], serverALPN: ["two"])
        #expect(server.failureCode == .noApplicationProtocol)
        #expect(client.failureCode == .noApplicationProtocol)
        if case .failure(let error) = client { #expect(error.detail.contains("one")) }
        if case .failure(let error) = server { #expect(error.detail.contains("two")) }
    }

    @Test func anEmptyALPNListIsAConfigurationError() {
        #expect(throws: QUICError.self) {
            try QUICListener(
                on: Self.loopback,
                configuration: QUICConfiguration(alpn: [], identity: Self.bob, trust: .trustOnFirstUse))
        }
    }

    @Test func cancellingTheConnectionWakesABlockedReadAndStillDeliversWhatWasWritten() async throws {
        let (client, server) = await Self.pair()
        let a = try client.get(), b = try server.get()
        let outbound = try await a.openStream()
        try await outbound.write(Array("last words".utf8))
        let inbound = try #require(await Self.first(b.inboundStreams))
        let blocked = Task { () async -> QUICError? in
            do throws(QUICError) {
                _ = try await outbound.read()
                return nil
            } catch { return error }
        }
        try await Task.sleep(for: .milliseconds(100))
        a.cancel()
        #expect(await blocked.value?.code == .cancelled)
        #expect(try await inbound.read() == Array("last words".utf8))
        #expect(await b.ended().code == .closedByPeer)
    }

    @Test func cancellingTheWaitingTaskWakesItsReadAndOpenStream() async throws {
        let (client, server) = await Self.pair()
        let a = try client.get(), b = try server.get()
        let outbound = try await a.openStream()
        let reading = Task { () async -> QUICError? in
            do throws(QUICError) {
                _ = try await outbound.read()
                return nil
            } catch { return error }
        }
        try await Task.sleep(for: .milliseconds(100))
        reading.cancel()
        #expect(await reading.value?.code == .cancelled)
        // The connection goes on: the stream still carries bytes.
        try await outbound.write(Array("still here".utf8))
        let inbound = try #require(await Self.first(b.inboundStreams))
        #expect(try await inbound.read() == Array("still here".utf8))
        await a.close()
    }

    @Test func aListenerCancelledWhileWaitingForItsClientStopsWaiting() async throws {
        let listener = try QUICListener(
            on: Self.loopback,
            configuration: QUICConfiguration(
                alpn: ["waware-test"], identity: Self.bob, trust: .pinned(Self.alice.fingerprint)))
        let waiting = Task { () async -> QUICError? in
            do throws(QUICError) {
                _ = try await listener.accept()
                return nil
            } catch { return error }
        }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        #expect(await waiting.value?.code == .cancelled)
    }
}

extension Result where Failure == QUICError {
    /// The failure's code, or nil on success.
    fileprivate var failureCode: QUICError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}

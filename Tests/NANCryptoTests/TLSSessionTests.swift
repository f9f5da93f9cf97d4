@testable import NANCrypto
import Testing

/// Two TLS sessions talking through memory: the handshake, trust decisions on both sides, data, close.
@Suite struct TLSSessionTests {
    static let alice = try! TLSIdentity.generate(commonName: "alice")
    static let bob = try! TLSIdentity.generate(commonName: "bob")

    /// What each side ended with after pumping.
    struct Outcome {
        var clientError: TLSError?
        var serverError: TLSError?
    }

    /// Moves ciphertext both ways until neither side has anything to send; records each side's failure.
    @discardableResult
    static func pump(_ client: TLSSession, _ server: TLSSession) -> Outcome {
        var outcome = Outcome()
        if outcome.clientError == nil { do { try client.start() } catch { outcome.clientError = error } }
        for _ in 0..<20 {
            let toServer = client.takeOutgoing()
            let toClient = server.takeOutgoing()
            if toServer.isEmpty && toClient.isEmpty { break }
            if !toServer.isEmpty, outcome.serverError == nil {
                do { try server.receive(toServer) } catch { outcome.serverError = error }
            }
            if !toClient.isEmpty, outcome.clientError == nil {
                do { try client.receive(toClient) } catch { outcome.clientError = error }
            }
        }
        return outcome
    }

    static func pair(
        clientTrust: TLSTrust = .pinned(bob.fingerprint), serverTrust: TLSTrust = .pinned(alice.fingerprint)
    )
        throws -> (client: TLSSession, server: TLSSession)
    {
        (
            try TLSSession(role: .client, identity: alice, trust: clientTrust),
            try TLSSession(role: .server, identity: bob, trust: serverTrust)
        )
    }

    /// All plaintext `session` can read now.
    static func readAll(_ session: TLSSession) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while case .bytes(let chunk) = try session.read() { bytes += chunk }
        return bytes
    }

    @Test func pinnedPeersHandshakeWithMutualAuthentication() throws {
        let (client, server) = try Self.pair()
        let outcome = Self.pump(client, server)
        #expect(outcome.clientError == nil && outcome.serverError == nil)
        guard case .established(let serverSeen) = server.state, case .established(let clientSeen) = client.state else {
            Issue.record("not established: client \(client.state), server \(server.state)")
            return
        }
        #expect(serverSeen.fingerprint == Self.alice.fingerprint)
        #expect(serverSeen.commonName == "alice")
        #expect(clientSeen.fingerprint == Self.bob.fingerprint)
        #expect(client.trustBasis == .pinned && server.trustBasis == .pinned)
    }

    @Test func pinnedMismatchIsRefusedOnBothSidesDuringTheHandshake() throws {
        let stranger = try TLSIdentity.generate(commonName: "stranger")
        let (client, server) = try Self.pair(clientTrust: .pinned(stranger.fingerprint))
        let outcome = Self.pump(client, server)
        #expect(outcome.clientError?.code == .untrustedPeer)
        #expect(outcome.clientError?.fingerprint == Self.bob.fingerprint)
        #expect(outcome.serverError?.code == .refusedByPeer)
        #expect(client.peerCertificate == nil && server.peerCertificate == nil)
    }

    @Test func serverRefusingTheClientFailsTheClientsHandshakeToo() throws {
        let stranger = try TLSIdentity.generate(commonName: "stranger")
        let (client, server) = try Self.pair(serverTrust: .pinned(stranger.fingerprint))
        let outcome = Self.pump(client, server)
        #expect(outcome.serverError?.code == .untrustedPeer)
        #expect(outcome.serverError?.fingerprint == Self.alice.fingerprint)
        #expect(outcome.clientError?.code == .refusedByPeer)
        #expect(!client.isHandshaking)
        if case .established = client.state { Issue.record("client established although the server refused it") }
    }

    @Test func trustOnFirstUseReportsThePeersFingerprint() throws {
        let (client, server) = try Self.pair(clientTrust: .trustOnFirstUse)
        #expect(Self.pump(client, server).clientError == nil)
        #expect(client.trustBasis == .firstUse)
        #expect(client.peerCertificate?.fingerprint == Self.bob.fingerprint)
    }

    @Test func customValidatorRefusalFailsTheHandshake() throws {
        let (client, server) = try Self.pair(serverTrust: .custom { $0.commonName == "carol" })
        let outcome = Self.pump(client, server)
        #expect(outcome.serverError?.code == .untrustedPeer)
        #expect(outcome.clientError?.code == .refusedByPeer)
    }

    @Test func customValidatorAcceptanceIsReported() throws {
        let (client, server) = try Self.pair(serverTrust: .custom { $0.commonName == "alice" })
        #expect(Self.pump(client, server).serverError == nil)
        #expect(server.trustBasis == .validator)
    }

    @Test func clientWithoutCertificateIsRefused() throws {
        let client = try TLSSession(
            role: .client, identity: nil, trust: .pinned(Self.bob.fingerprint), minimum: .tls13, maximum: .tls13)
        let server = try TLSSession(role: .server, identity: Self.bob, trust: .trustOnFirstUse)
        let outcome = Self.pump(client, server)
        #expect(outcome.serverError?.code == .missingPeerCertificate)
        #expect(outcome.clientError?.code == .refusedByPeer)
    }

    @Test func tls12ClientIsRefused() throws {
        let client = try TLSSession(
            role: .client, identity: Self.alice, trust: .trustOnFirstUse, minimum: .tls12, maximum: .tls12)
        let server = try TLSSession(role: .server, identity: Self.bob, trust: .trustOnFirstUse)
        let outcome = Self.pump(client, server)
        #expect(outcome.serverError?.code == .unsupportedVersion)
        #expect(outcome.clientError?.code == .unsupportedVersion)
    }

    @Test func dataFlowsBothWaysAfterTheHandshake() throws {
        let (client, server) = try Self.pair()
        Self.pump(client, server)
        let big = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try client.write(big)
        try server.receive(client.takeOutgoing())
        #expect(try Self.readAll(server) == big)
        try server.write(Array("pong".utf8))
        try client.receive(server.takeOutgoing())
        #expect(try Self.readAll(client) == Array("pong".utf8))
    }

    @Test func oneReadReturnsEveryRecordThatArrivedUpToTheMaximum() throws {
        let (client, server) = try Self.pair()
        Self.pump(client, server)
        let big = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }  // four records of at most 16 KiB
        try client.write(big)
        try server.receive(client.takeOutgoing())
        #expect(try server.read(maximum: 64 * 1024) == .bytes(big))
        #expect(try server.read() == .wantsInput)

        try client.write(big)
        try server.receive(client.takeOutgoing())
        #expect(try server.read(maximum: 20_000) == .bytes(Array(big[..<20_000])))
        #expect(try server.read(maximum: 64 * 1024) == .bytes(Array(big[20_000...])))
    }

    @Test func aRecordSplitAcrossReceivesIsReturnedOnceWhole() throws {
        let (client, server) = try Self.pair()
        Self.pump(client, server)
        try client.write(Array(repeating: 0x42, count: 1000))
        let ciphertext = client.takeOutgoing()
        try server.receive(Array(ciphertext[..<300]))
        #expect(try server.read() == .wantsInput)
        try server.receive(Array(ciphertext[300...]))
        #expect(try server.read() == .bytes(Array(repeating: 0x42, count: 1000)))
    }

    @Test func bytesBeforeACorruptRecordAreReadAndTheCorruptionIsReportedNext() throws {
        let (client, server) = try Self.pair()
        Self.pump(client, server)
        try client.write(Array("good".utf8))
        try server.receive(
            client.takeOutgoing() + [0x17, 0x03, 0x03, 0x00, 0x20] + [UInt8](repeating: 0xab, count: 32))
        #expect(try server.read() == .bytes(Array("good".utf8)))
        #expect(throws: TLSError.self) { _ = try server.read() }
        if case .failed(let error) = server.state {
            #expect(error.code == .protocolError)
        } else {
            Issue.record("not failed")
        }
    }

    @Test func aSliceOfALargerBufferIsWrittenAsItIs() throws {
        let (client, server) = try Self.pair()
        Self.pump(client, server)
        let buffer = Array(0..<200).map { UInt8($0) }
        try client.write(buffer[50..<150])
        try server.receive(client.takeOutgoing())
        #expect(try Self.readAll(server) == Array(buffer[50..<150]))
    }

    @Test func writeBeforeTheHandshakeIsATypedError() throws {
        let (client, _) = try Self.pair()
        #expect(throws: TLSError.self) { try client.write([1]) }
    }

    @Test func closeNotifyEndsTheStreamOnBothSides() throws {
        let (client, server) = try Self.pair()
        Self.pump(client, server)
        try client.write(Array("last".utf8))
        client.close()
        try server.receive(client.takeOutgoing())
        #expect(try server.read() == .bytes(Array("last".utf8)))
        #expect(try server.read() == .endOfStream)
        #expect(server.isPeerClosed)
        server.close()
        try client.receive(server.takeOutgoing())
        #expect(try client.read() == .endOfStream)
        #expect(throws: TLSError.self) { try client.write([1]) }
    }

    @Test func garbageCiphertextGivesATypedErrorNotATrap() throws {
        let (client, server) = try Self.pair()
        Self.pump(client, server)
        try server.receive([0x17, 0x03, 0x03, 0x00, 0x20] + [UInt8](repeating: 0xab, count: 32))
        #expect(throws: TLSError.self) { _ = try server.read() }
        if case .failed(let error) = server.state {
            #expect(error.code == .protocolError)
        } else {
            Issue.record("not failed")
        }

        let fresh = try TLSSession(role: .server, identity: Self.bob, trust: .trustOnFirstUse)
        #expect(throws: TLSError.self) { try fresh.receive(Array("GET / HTTP/1.1\r\n\r\n".utf8)) }
    }
}

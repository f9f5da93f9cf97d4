import Testing
import NANSystem
import NANWire
@testable import WiFiAware

/// Datagrams beside a connection over the loopback interface (no radio): agreed in the preface, UDP each
/// way, bounded receiving, and what happens when one end did not ask for them.
@Suite struct DatagramLoopbackTests {
    static func pair(
        client: WADatagramOptions? = WADatagramOptions(), server: WADatagramOptions? = WADatagramOptions(),
        tls: Bool = false
    ) async throws -> (WAConnection, WAConnection) {
        var parameters = WAConnectionParameters(dataPathSecurity: .open)
        parameters.datagrams = client
        var serverParameters = WAConnectionParameters(dataPathSecurity: .open)
        serverParameters.datagrams = server
        let dataPath = ConnectionLoopbackTests.dataPath()
        let listener = try StreamSocket.listen()
        async let accepted = listener.accept()
        let clientSocket = try await StreamSocket.connect(
            to: LinkLocalEndpoint(address: .loopback, interface: "lo", port: listener.localPort),
            timeout: .seconds(10))
        let serverSocket = try await accepted
        let a = WAPeerIdentifier(bytes: Array(1...16)), b = WAPeerIdentifier(bytes: Array(101...116))
        async let serverEnd = ConnectionSetup.establish(
            socket: serverSocket, isInitiator: false, parameters: serverParameters, localPeer: b,
            peerAddress: dataPath.peer, device: nil, dataPath: dataPath,
            tls: tls
                ? ConnectionTLS(identity: ConnectionTLSTests.identityB, trust: .pairedDevicesOrFirstUse, store: nil)
                : nil)
        let clientEnd = try await ConnectionSetup.establish(
            socket: clientSocket, isInitiator: true, parameters: parameters, localPeer: a,
            peerAddress: dataPath.peer, device: nil, dataPath: dataPath,
            tls: tls
                ? ConnectionTLS(identity: ConnectionTLSTests.identityA, trust: .pairedDevicesOrFirstUse, store: nil)
                : nil)
        return (clientEnd, try await serverEnd)
    }

    /// The first datagram that comes within `seconds`, nil if none.
    static func first(_ datagrams: AsyncStream<[UInt8]>, within seconds: Int = 10) async -> [UInt8]? {
        await withTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                for await datagram in datagrams { return datagram }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let value = await group.next() ?? nil
            group.cancelAll()
            return value
        }
    }

    @Test func datagramsGoEachWayBesideMessages() async throws {
        let (client, server) = try await Self.pair()
        #expect(client.hasDatagrams && server.hasDatagrams)
        #expect(client.datagramProtection?.contains("plain") == true)
        try client.send(datagram: Array("ping".utf8))
        #expect(await Self.first(server.receivedDatagrams) == Array("ping".utf8))
        try server.send(datagram: Array("pong".utf8))
        #expect(await Self.first(client.receivedDatagrams) == Array("pong".utf8))
        try await client.send(Array("a message still works".utf8))
        #expect(try await server.receive() == .message(Array("a message still works".utf8)))
        #expect(client.datagramStatistics.sent == 1 && client.datagramStatistics.received == 1)
        #expect(server.datagramStatistics.received == 1 && server.datagramStatistics.rejected == 0)
        client.cancel()
        server.cancel()
    }

    @Test func underTLSTheDatagramKeysAreExportedFromTheSession() async throws {
        let (client, server) = try await Self.pair(tls: true)
        #expect(client.transportDescription == "TLS 1.3")
        #expect(client.datagramProtection == "AES-256-GCM, keys exported from TLS 1.3")
        #expect(server.datagramProtection == client.datagramProtection)
        try client.send(datagram: Array("sealed".utf8))
        #expect(await Self.first(server.receivedDatagrams) == Array("sealed".utf8))
        try server.send(datagram: Array("back".utf8))
        #expect(await Self.first(client.receivedDatagrams) == Array("back".utf8))
        #expect(server.datagramStatistics.rejected == 0)
        client.cancel()
        server.cancel()
    }

    @Test func aFullQueueDropsTheOldestAndCountsThem() async throws {
        var small = WADatagramOptions()
        small.queueLimit = 4
        let (client, server) = try await Self.pair(server: small)
        for i in 0..<20 { try client.send(datagram: [UInt8(i)]) }
        var waited = 0
        while (server.datagramStatistics.received < 20 || server.datagramStatistics.droppedOldest < 16) && waited < 100
        {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        #expect(server.datagramStatistics.received == 20)
        #expect(server.datagramStatistics.droppedOldest == 16)
        #expect(await Self.first(server.receivedDatagrams) == [16])
        client.cancel()
        server.cancel()
    }

    @Test func aDatagramAboveThePeersLimitIsRefusedAtTheSender() async throws {
        var small = WADatagramOptions()
        small.maximumSize = 100
        let (client, server) = try await Self.pair(server: small)
        #expect(client.maximumDatagramSize == 100)
        #expect(throws: WAError.self) { try client.send(datagram: [UInt8](repeating: 0, count: 101)) }
        try client.send(datagram: [UInt8](repeating: 0, count: 100))
        #expect(await Self.first(server.receivedDatagrams)?.count == 100)
        client.cancel()
        server.cancel()
    }

    @Test func whenOneEndDidNotAskThereAreNoDatagramsAndTheConnectionStillWorks() async throws {
        let (client, server) = try await Self.pair(server: nil)
        #expect(!client.hasDatagrams && !server.hasDatagrams)
        #expect(throws: WAError.self) { try client.send(datagram: [1]) }
        try await client.send(Array("hi".utf8))
        #expect(try await server.receive() == .message(Array("hi".utf8)))
        client.cancel()
        server.cancel()
    }

    @Test func theReceivedSequenceEndsWithTheConnection() async throws {
        let (client, server) = try await Self.pair()
        let ended = Task { () -> Int in
            var n = 0
            for await _ in server.receivedDatagrams { n += 1 }
            return n
        }
        try client.send(datagram: [1])
        var waited = 0
        while server.datagramStatistics.received < 1 && waited < 400 {  // a loaded machine can take seconds
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        server.cancel()
        #expect(await ended.value == 1)
        #expect(throws: WAError.self) { try server.send(datagram: [2]) }
        client.cancel()
    }
}

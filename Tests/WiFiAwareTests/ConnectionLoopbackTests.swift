import Testing
import NANCrypto
import NANSystem
import NANWire
@testable import WiFiAware

/// Two connection ends over TCP on the loopback interface (no radio): the layer above the data path.
@Suite struct ConnectionLoopbackTests {
    static func dataPath() -> WADataPathConnection {
        WADataPathConnection(
            peer: MACAddress(2, 0, 0, 0, 1, 0), ndpID: 1, interfaceName: "lo",
            localInterfaceAddress: MACAddress(2, 0, 0, 0, 0, 1),
            peerInterfaceAddress: MACAddress(2, 0, 0, 0, 1, 1),
            localAddress: .loopback, peerAddress: .loopback, cipherSuite: nil, peerServiceInfo: [])
    }

    static func pair(
        mode: WAConnectionMode = .messages, maximum: Int = 1 << 20,
        server serverMode: WAConnectionMode? = nil
    ) async throws -> (WAConnection, WAConnection) {
        var parameters = WAConnectionParameters(dataPathSecurity: .open)
        parameters.transport = .plain
        parameters.mode = mode
        parameters.maximumMessageSize = maximum
        var serverParameters = parameters
        serverParameters.mode = serverMode ?? mode
        let listener = try StreamSocket.listen()
        async let accepted = listener.accept()
        let clientSocket = try await StreamSocket.connect(
            to: LinkLocalEndpoint(address: .loopback, interface: "lo", port: listener.localPort),
            timeout: .seconds(10))
        let serverSocket = try await accepted
        let a = WAPeerIdentifier(bytes: Array(1...16)), b = WAPeerIdentifier(bytes: Array(101...116))
        async let server = ConnectionSetup.establish(
            socket: serverSocket, isInitiator: false, parameters: serverParameters, localPeer: b,
            peerAddress: dataPath().peer, device: nil, dataPath: dataPath(), tls: nil)
        let client = try await ConnectionSetup.establish(
            socket: clientSocket, isInitiator: true, parameters: parameters, localPeer: a,
            peerAddress: dataPath().peer, device: nil, dataPath: dataPath(), tls: nil)
        return (client, try await server)
    }

    @Test func bothEndsLearnEachOthersPeerIdentifierAndMessagesGoEachWay() async throws {
        let (client, server) = try await Self.pair()
        #expect(client.remotePeer == server.localPeer)
        #expect(server.remotePeer == client.localPeer)
        try await client.send(Array("ping".utf8))
        #expect(try await server.receive() == .message(Array("ping".utf8)))
        try await server.send(Array("pong".utf8))
        #expect(try await client.receive() == .message(Array("pong".utf8)))
        await client.finishSending()
        #expect(try await server.receive() == nil)
        #expect(server.currentState == .cancelled)
    }

    @Test func aSenderWaitsWhileThePeerDoesNotReadAndNothingIsLost() async throws {
        let (client, server) = try await Self.pair()
        let message = [UInt8](repeating: 7, count: 512 * 1024)
        let sender = Task {
            for _ in 0..<24 { try await client.send(message) }
        }
        try await Task.sleep(for: .milliseconds(300))
        // 12 MiB do not fit in the socket buffers: the sender must still be waiting.
        #expect(!sender.isCancelled)
        var count = 0
        while count < 24, case .message(let bytes) = try await server.receive() {
            #expect(bytes == message)
            count += 1
        }
        try await sender.value
        #expect(count == 24)
    }

    @Test func aMessageAboveTheLimitIsRefusedAtTheSender() async throws {
        let (client, _) = try await Self.pair(maximum: 1024)
        await #expect(throws: WAError.self) { try await client.send([UInt8](repeating: 0, count: 1025)) }
    }

    @Test func endsThatDisagreeOnTheModeFailToConnect() async throws {
        await #expect(throws: WAError.self) { _ = try await Self.pair(mode: .messages, server: .byteStream) }
    }

    @Test func aByteStreamCarriesBytesAsTheyAre() async throws {
        let (client, server) = try await Self.pair(mode: .byteStream)
        try await client.write(Array("raw bytes".utf8))
        var got: [UInt8] = []
        while got.count < 9 { got += try await server.read() }
        #expect(got == Array("raw bytes".utf8))
        await #expect(throws: WAError.self) { try await client.send([1]) }
    }

    @Test func aResourceArrivesWithItsChecksumUnderItsFinalNameOnly() async throws {
        let folder = "/tmp/waware-resource-test-\(UInt32.random(in: 0...UInt32.max))"
        try FileSystem.createFolder(at: folder, mode: 0o700)
        let source = folder + "/source.bin"
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try PrivateFile.replace(at: source, with: bytes)
        let (client, server) = try await Self.pair()
        async let sent: Void = client.sendResource(at: source, named: "copy.bin")
        guard case .resource(let offer) = try await server.receive() else { Issue.record("no resource"); return }
        #expect(offer == WAResourceOffer(name: "copy.bin", size: 300_000))
        let digest = try await server.receiveResource(offer, to: folder + "/copy.bin")
        try await sent
        #expect(try FileContents.readRegularFile(at: folder + "/copy.bin", limit: 1 << 20, what: "copy") == bytes)
        #expect(digest.count == 64)
        #expect(!FileSystem.exists(folder + "/copy.bin.partial"))
    }

    @Test func aResourceCutShortLeavesNoFileBehind() async throws {
        let folder = "/tmp/waware-resource-test-\(UInt32.random(in: 0...UInt32.max))"
        try FileSystem.createFolder(at: folder, mode: 0o700)
        let (client, server) = try await Self.pair()
        try await client.sendFrame(
            ConnectionFrame(kind: .resourceBegin, payload: WAResourceOffer(name: "big.bin", size: 1000).encoded))
        try await client.sendFrame(ConnectionFrame(kind: .resourceData, payload: [UInt8](repeating: 1, count: 400)))
        client.cancel()
        guard case .resource(let offer) = try await server.receive() else { Issue.record("no resource"); return }
        await #expect(throws: WAError.self) { try await server.receiveResource(offer, to: folder + "/big.bin") }
        #expect(!FileSystem.exists(folder + "/big.bin"))
        #expect(!FileSystem.exists(folder + "/big.bin.partial"))
    }

    @Test func anOfferLargerThanTheLimitOrTheFreeSpaceIsRefusedBeforeAByteIsWritten() async throws {
        let folder = "/tmp/waware-resource-test-\(UInt32.random(in: 0...UInt32.max))"
        try FileSystem.createFolder(at: folder, mode: 0o700)
        let (client, server) = try await Self.pair()
        try await client.sendFrame(
            ConnectionFrame(kind: .resourceBegin, payload: WAResourceOffer(name: "big.bin", size: 5000).encoded))
        try await client.sendFrame(
            ConnectionFrame(
                kind: .resourceBegin, payload: WAResourceOffer(name: "huge.bin", size: UInt64.max / 2).encoded))
        guard case .resource(let big) = try await server.receive() else { Issue.record("no resource"); return }
        await #expect { try await server.receiveResource(big, to: folder + "/big.bin", maximumSize: 4096) } throws: {
            ($0 as? WAError)?.message.contains("more than the 4096 allowed") == true
        }
        // A disk filler: more than any file system here has free.
        await #expect {
            try await server.receiveResource(
                WAResourceOffer(name: "huge.bin", size: UInt64.max / 2), to: folder + "/huge.bin")
        } throws: {
            ($0 as? WAError)?.message.contains("free; refused") == true
        }
        #expect(!FileSystem.exists(folder + "/big.bin.partial") && !FileSystem.exists(folder + "/huge.bin.partial"))
        client.cancel()
    }

    @Test func aFileThatAppearsDuringTheTransferIsNotReplaced() async throws {
        let folder = "/tmp/waware-resource-test-\(UInt32.random(in: 0...UInt32.max))"
        try FileSystem.createFolder(at: folder, mode: 0o700)
        let (client, server) = try await Self.pair()
        let bytes = [UInt8](repeating: 7, count: 1000)
        try await client.sendFrame(
            ConnectionFrame(kind: .resourceBegin, payload: WAResourceOffer(name: "x.bin", size: 1000).encoded))
        guard case .resource(let offer) = try await server.receive() else { Issue.record("no resource"); return }
        // Another program saves its own x.bin once the transfer has started (after the first check).
        let received = Task { () async throws(WAError) -> String in
            try await server.receiveResource(offer, to: folder + "/x.bin")
        }
        try await client.sendFrame(ConnectionFrame(kind: .resourceData, payload: bytes))
        try await Task.sleep(for: .milliseconds(100))
        try PrivateFile.replace(at: folder + "/x.bin", with: Array("theirs".utf8))
        let digest = try Digest.sha256(bytes)
        try await client.sendFrame(ConnectionFrame(kind: .resourceEnd, payload: digest))
        await #expect { _ = try await received.value } throws: {
            ($0 as? WAError)?.message.contains("not overwritten") == true
        }
        #expect(try FileContents.readRegularFile(at: folder + "/x.bin", limit: 100, what: "x") == Array("theirs".utf8))
        #expect(!FileSystem.exists(folder + "/x.bin.partial"))
    }
}

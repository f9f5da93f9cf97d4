import NANWire
import Testing
@testable import NANSystem

@Suite struct StreamSocketTests {
    @Test func aConnectedPairCarriesBytesBothWaysAndReportsTheEndOfTheStream() async throws {
        let listener = try StreamSocket.listen()
        #expect(listener.localPort != 0)
        async let accepted = listener.accept()
        let client = try await StreamSocket.connect(
            to: LinkLocalEndpoint(address: .loopback, interface: "lo", port: listener.localPort),
            timeout: .seconds(10))
        let server = try await accepted
        #expect(server.peer?.address == .loopback)
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        async let sent: Void = client.send(big)
        var received: [UInt8] = []
        while received.count < big.count { received += try await server.receive(maximum: 65536) }
        try await sent
        #expect(received == big)
        try await server.send(Array("pong".utf8))
        #expect(try await client.receive(maximum: 16) == Array("pong".utf8))
        client.shutdownWrite()
        #expect(try await server.receive(maximum: 16).isEmpty)
    }

    @Test func cancellingASocketEndsAReceiveThatWaits() async throws {
        let listener = try StreamSocket.listen()
        async let accepted = listener.accept()
        let client = try await StreamSocket.connect(
            to: LinkLocalEndpoint(address: .loopback, interface: "lo", port: listener.localPort),
            timeout: .seconds(10))
        _ = try await accepted
        Task {
            try await Task.sleep(for: .milliseconds(100)); client.cancel()
        }
        await #expect(throws: StreamSocketError.self) { _ = try await client.receive(maximum: 16) }
        #expect(client.isCancelled)
    }

    @Test func cancellingAListenerEndsAnAcceptThatWaits() async throws {
        let listener = try StreamSocket.listen()
        Task {
            try await Task.sleep(for: .milliseconds(100)); listener.cancel()
        }
        do {
            _ = try await listener.accept()
            Issue.record("accept returned")
        } catch {
            #expect(error.isCancelled)
        }
    }

    @Test func connectingWhereNothingListensIsRefused() async throws {
        let listener = try StreamSocket.listen()
        let port = listener.localPort
        listener.cancel()
        do {
            _ = try await StreamSocket.connect(
                to: LinkLocalEndpoint(address: .loopback, interface: "lo", port: port), timeout: .seconds(5))
            Issue.record("connected")
        } catch {
            #expect(error.isPeerUnreachable)
        }
    }
}

import Testing

@testable import WiFiAware

/// Apple's viability: a connection starts viable, follows its data path's (the engine's keepalives), tells
/// each change once, and ends its updates with the connection.
@Suite struct ConnectionViabilityTests {
    @Test func aConnectionFollowsItsDataPathsViabilityAndTellsEachChangeOnce() async throws {
        let a = ConnectionTLSTests.End(peer: ConnectionTLSTests.peerA, tls: nil)
        let b = ConnectionTLSTests.End(peer: ConnectionTLSTests.peerB, tls: nil)
        let connected = try await ConnectionTLSTests.connect(a, b, cipherSuite: nil)
        let made = try connected.client.get(), accepted = try connected.server.get()
        let registry = ConnectionRegistry()
        #expect(await registry.register(made))
        #expect(made.isViable)
        var updates = made.viabilityUpdates.makeAsyncIterator()
        // The shared data path to the peer goes quiet, twice (told once), then answers.
        await registry.setViability(to: made.peer, false)
        await registry.setViability(to: made.peer, false)
        #expect(!made.isViable)
        await registry.setViability(to: made.peer, true)
        #expect(made.isViable)
        #expect(await updates.next() == false)
        #expect(await updates.next() == true)
        made.cancel()
        #expect(await updates.next() == nil)
        accepted.cancel()
    }
}

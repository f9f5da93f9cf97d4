import FoundationEssentials
import NANSystem
import Testing

@testable import NANDaemon

/// `DaemonStatusQuery` (what `waware diagnose` asks) against a server on a real Unix socket, a path with
/// nothing at it and a stale socket.
@Suite struct DaemonStatusQueryTests {
    /// A provider whose status names one adapter held and one client.
    struct StatusProvider: RadioProvider {
        let radio = FakeRadio()
        func radio(for name: String) async throws(DaemonError) -> any DaemonRadio { radio }
        func statusLines() async -> [String] { ["adapter phy3 nmi 02:00:00:00:03:00", "clients 1"] }
    }

    static func temporaryPath() -> String {
        "/tmp/wawared-status-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).sock"
    }

    @Test func theDaemonAnswersWithItsVersionAdaptersAndClients() async throws {
        let path = Self.temporaryPath()
        let listener = try LocalSocket.listen(at: path, mode: 0o600)
        let server = DaemonServer(listener: listener, radios: StatusProvider())
        let serving = Task { try await server.run() }
        defer {
            serving.cancel()
            listener.unlinkPath()
        }
        let reply = try await DaemonStatusQuery.ask(path: path, timeout: DaemonSocketTests.answerWithin)
        #expect(reply.software == DaemonProtocol.softwareVersion)
        #expect(reply.adapters == ["phy3"])
        #expect(reply.clients == 1)
        #expect(reply.lines?.first == "adapter phy3 nmi 02:00:00:00:03:00")
    }

    @Test func nothingAtThePathIsNoDaemon() async {
        do {
            _ = try await DaemonStatusQuery.ask(path: Self.temporaryPath())
            Issue.record("asked nothing and got an answer")
        } catch {
            #expect(error.code == "noDaemon")
            #expect(error.message.hasPrefix("no socket at /tmp/wawared-status-"))
        }
    }

    @Test func aStaleSocketIsUnavailable() async throws {
        let path = Self.temporaryPath()
        let listener = try LocalSocket.listen(at: path, mode: 0o600)
        listener.cancel()
        defer { listener.unlinkPath() }
        do {
            _ = try await DaemonStatusQuery.ask(path: path, timeout: .seconds(2))
            Issue.record("a closed socket answered")
        } catch {
            #expect(error.code == "unavailable")
        }
    }

    @Test func theStatusReplyCountsAdaptersAndClientsFromItsLines() {
        let reply = DaemonClient.statusReply(lines: [
            "adapter phy0 nmi 02:00:00:00:00:01", "adapter phy2 nmi 02:00:00:00:00:02", "clients 4",
            "client 3 session 1 subscribe 0123456789ab instance 1",
        ])
        #expect(reply.adapters == ["phy0", "phy2"])
        #expect(reply.clients == 4)
        #expect(reply.software == DaemonProtocol.softwareVersion)
        #expect(reply.lines?.count == 4)
    }
}

import FoundationEssentials
import NANEngine
import NANSystem
import NANWire
import Synchronization
import Testing

@testable import NANDaemon

/// The server and the library's connection over a real Unix socket, with a radio that has no air.
@Suite struct DaemonSocketTests {
    /// How long a connection waits for the server's answer to its hello: the default 5 s ran out in the whole
    /// suite on two cores (CI's run of 2026-12-06, both tests at 5.9 s), with every test competing for them.
    static let answerWithin: Duration = .seconds(60)

    func withServer(_ body: (String, FakeRadio) async throws -> Void) async throws {
        let path =
            "/tmp/wawared-test-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).sock"
        let listener = try LocalSocket.listen(at: path, mode: 0o600)
        let radio = FakeRadio()
        let server = DaemonServer(listener: listener, radios: FakeProvider(radio: radio))
        let serving = Task { try await server.run() }
        defer {
            serving.cancel()
            listener.unlinkPath()
        }
        try await body(path, radio)
    }

    @Test func twoProgramsEachGetTheirOwnEventsOverTheSocket() async throws {
        try await withServer { path, radio in
            let a = try await DaemonConnection.connect(path: path, adapter: "phy0", timeout: Self.answerWithin)
            let b = try await DaemonConnection.connect(path: path, adapter: "phy0", timeout: Self.answerWithin)
            #expect(a.localAddress == radio.localAddress)
            var subscribe = DaemonRequest(id: 0, method: .subscribe)
            subscribe.subscribe = WireSubscribe(.init(serviceID: serviceID), reportHeardWithin: nil)
            var publish = DaemonRequest(id: 0, method: .publish)
            publish.publish = WirePublish(.init(serviceID: serviceID))
            let sa = try await a.startSession(subscribe)
            let sb = try await b.startSession(publish)
            radio.feed(sa.instanceID.rawValue, .discovered(result(sa.instanceID.rawValue)))
            radio.feed(sb.instanceID.rawValue, .replied(result(sb.instanceID.rawValue)))
            var ia = sa.events.makeAsyncIterator()
            var ib = sb.events.makeAsyncIterator()
            guard case .discovered(let found) = await ia.next() else {
                Issue.record("A got no discovery")
                return
            }
            #expect(found.peerInstanceID == 7)
            guard case .replied = await ib.next() else {
                Issue.record("B got no reply event")
                return
            }
            // B cannot stop A's session by its number.
            var stop = DaemonRequest(id: 0, method: .stop)
            stop.session = sa.session + 100
            await #expect(throws: DaemonError.self) { try await b.call(stop) }
        }
    }

    @Test func aProgramThatGoesAwayHasItsSessionsStopped() async throws {
        try await withServer { path, radio in
            let a = try await DaemonConnection.connect(path: path, adapter: "phy0", timeout: Self.answerWithin)
            var publish = DaemonRequest(id: 0, method: .publish)
            publish.publish = WirePublish(.init(serviceID: serviceID))
            _ = try await a.startSession(publish)
            _ = try await a.startSession(publish)
            a.close()
            for _ in 0..<100 where radio.state.withLock({ $0.stopped.count }) < 2 {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(radio.state.withLock { $0.stopped.sorted() } == [1, 2])
        }
    }

    @Test func nothingListeningIsUnavailableNotAnError() async {
        do {
            _ = try await DaemonConnection.connect(
                path: "/tmp/wawared-nobody-\(UInt32.random(in: 0...UInt32.max))", adapter: "phy0")
            Issue.record("connected to nothing")
        } catch {
            #expect(error.code == "unavailable")
        }
    }
}

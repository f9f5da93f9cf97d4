import NANWire
import Testing
@testable import NANSystem

/// The one wait on a socket (``SocketDescriptor/wait(for:until:what:)``) over real loopback UDP sockets: it
/// ends on data, at its deadline, on the socket's cancel and on the task's, exactly once. No upper bounds on
/// wall-clock time: under the full suite on two loaded cores, a resumed task may wait seconds for a thread.
@Suite(.timeLimit(.minutes(2))) struct SocketDescriptorTests {
    /// A bound socket and one connected to it.
    private static func pair() throws -> (receiver: PeerDatagramSocket, sender: PeerDatagramSocket) {
        let receiver = try PeerDatagramSocket.bind(to: LinkLocalEndpoint(address: .loopback, interface: "lo", port: 0))
        return (receiver, try PeerDatagramSocket.connected(to: receiver.local))
    }

    @Test func aWaitEndsWhenDataComes() async throws {
        let (receiver, sender) = try Self.pair()
        Task {
            try await Task.sleep(for: .milliseconds(50))
            _ = try sender.send([1, 2, 3])
        }
        try await receiver.descriptor.wait(for: .readable, until: nil, what: "test")
        #expect(try await receiver.receive(maximum: 16, timeout: .zero)?.bytes == [1, 2, 3])
    }

    @Test func aWaitEndsAtItsDeadline() async throws {
        let (receiver, _) = try Self.pair()
        let start = ContinuousClock.now
        do {
            try await receiver.descriptor.wait(for: .readable, until: start + .milliseconds(100), what: "test")
            Issue.record("the wait ended without data")
        } catch {
            #expect(error.isTimedOut)
        }
        #expect(ContinuousClock.now - start >= .milliseconds(100))
        #expect(!receiver.isCancelled)
        #expect(try await receiver.receive(maximum: 16, timeout: .milliseconds(10)) == nil)
    }

    @Test func cancellingTheSocketEndsEveryWaitAtOnce() async throws {
        let (receiver, _) = try Self.pair()
        Task {
            try await Task.sleep(for: .milliseconds(50))
            receiver.cancel()
        }
        let first = Task { try await receiver.descriptor.wait(for: .readable, until: nil, what: "first") }
        let second = Task { try await receiver.descriptor.wait(for: .readable, until: .now + .seconds(600), what: "x") }
        await #expect(throws: StreamSocketError.cancelled("first")) { try await first.value }
        await #expect(throws: StreamSocketError.cancelled("x")) { try await second.value }
        await #expect(throws: StreamSocketError.cancelled("later")) {
            try await receiver.descriptor.wait(for: .readable, until: nil, what: "later")
        }
    }

    @Test func cancellingTheTaskEndsItsWaitAndCancelsTheSocket() async throws {
        let (receiver, _) = try Self.pair()
        let waiting = Task { try await receiver.receive(maximum: 16) }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        do {
            _ = try await waiting.value
            Issue.record("the receive ended without data")
        } catch {
            #expect((error as? StreamSocketError)?.isCancelled == true)
        }
        #expect(receiver.isCancelled)
    }

    /// Data, deadlines and cancels racing each other: a continuation resumed twice would trap, one never
    /// resumed would hang the test.
    @Test func racingEndsResumeEachWaitExactlyOnce() async throws {
        for round in 0..<200 {
            let (receiver, sender) = try Self.pair()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try? await receiver.descriptor.wait(
                        for: .readable, until: .now + .microseconds(round % 7 * 100), what: "race")
                }
                group.addTask { _ = try? sender.send([UInt8(truncatingIfNeeded: round)]) }
                if round % 3 == 0 { group.addTask { receiver.cancel() } }
            }
        }
    }

    /// The sources' handlers hold the wait; Dispatch drops them once the source is cancelled.
    @Test(arguments: [true, false]) func anEndedWaitIsReleased(dataCame: Bool) async throws {
        let (receiver, sender) = try Self.pair()
        if dataCame { _ = try sender.send([1]) }
        weak var ended: ReadinessWait?
        do {
            let wait = ReadinessWait(
                on: receiver.descriptor, readiness: .readable, deadline: .now + .seconds(dataCame ? 600 : 0))
            ended = wait
            #expect(await wait.run() == (dataCame ? .ready : .timedOut))
        }
        for _ in 0..<100 where ended != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(ended == nil)
    }
}

@testable import NANSystem
import Synchronization
import Testing

@Suite struct DumpGateTests {
    @Test func secondDumpWaitsUntilTheFirstEnds() async throws {
        let gate = DumpGate()
        let started = Mutex(false)
        await gate.acquire()
        let second = Task {
            await gate.acquire()
            started.withLock { $0 = true }
            gate.release()
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(started.withLock { $0 } == false)
        gate.release()
        await second.value
        #expect(started.withLock { $0 })
    }
}

import Testing
import NANWire
import Synchronization
@testable import NANEngine

/// A radio that, like the netlink session, refuses every call made from a cancelled task (the frame is not
/// sent, the kernel step not done; the calls that cannot throw do nothing), and passes the frames it does send to a linked peer engine.
private final class CancellationRefusingRadio: DataPathRadio, @unchecked Sendable {
    let localAddress: MACAddress
    let ndi: MACAddress
    /// Interfaces, stations and whether a schedule is installed (what a stopped engine leaves at zero); cookies.
    typealias State = (interfaces: Int, stations: Set<MACAddress>, schedule: Bool, cookie: UInt64)
    let state = Mutex<State>((0, [], false, 0))
    let deliver: Mutex<(@Sendable ([UInt8]) -> Void)?> = Mutex(nil)
    /// The NAF subtype of every frame sent.
    let sent = Mutex<[UInt8]>([])

    init(nmi: MACAddress, ndi: MACAddress) {
        localAddress = nmi
        self.ndi = ndi
    }

    /// Throws as the session does when the calling task is cancelled.
    private func refuseIfCancelled() throws { try Task.checkCancellation() }
    var fiveGHzCandidates: [DataPathChannel] { [.channel149] }
    var capabilities: (DeviceCapabilityAttribute, [InformationElement]) {
        (DeviceCapabilityAttribute(committedDWInfo: 1, supportedBands: 0x14), [])
    }
    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 {
        try refuseIfCancelled()
        sent.withLock { $0.append(frame.count > 30 ? frame[30] : 0) }
        deliver.withLock { $0 }?(frame)
        return state.withLock {
            $0.cookie += 1; return $0.cookie
        }
    }
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? { nil }
    func createDataInterface() async throws -> DataInterface {
        try refuseIfCancelled()
        state.withLock { $0.interfaces += 1 }
        return DataInterface(name: "nan0data", index: 7, address: ndi)
    }
    func removeDataInterface(_ interface: DataInterface) async {
        if !Task.isCancelled { state.withLock { $0.interfaces -= 1 } }
    }
    func setLocalSchedule(_ schedule: DataPathSchedule) async throws {
        try refuseIfCancelled()
        state.withLock { $0.schedule = true }
    }
    func clearLocalSchedule() async {
        if !Task.isCancelled { state.withLock { $0.schedule = false } }
    }
    func addPeer(_ link: NDPLink, localSchedule: DataPathSchedule) async throws {
        try refuseIfCancelled()
        state.withLock { _ = $0.stations.insert(link.id.peer) }
    }
    func updatePeerSchedule(_ link: NDPLink, localSchedule: DataPathSchedule) async throws {}
    func addPeerDataStation(_ link: NDPLink, on interface: DataInterface) async throws {
        try refuseIfCancelled()
        state.withLock { _ = $0.stations.insert(link.peerNDI) }
    }
    func installPairwiseKey(
        _ key: DataPathPairwiseKey, for peerNDI: MACAddress, of peerNMI: MACAddress,
        on interface: DataInterface
    ) async throws { try refuseIfCancelled() }
    func authorizePeerDataStation(
        _ peerNDI: MACAddress, of peerNMI: MACAddress, on interface: DataInterface
    ) async throws {
        try refuseIfCancelled()
    }
    func removePeerDataStation(_ peerNDI: MACAddress, of peerNMI: MACAddress, on interface: DataInterface) async {
        if !Task.isCancelled { state.withLock { _ = $0.stations.remove(peerNDI) } }
    }
    func packetCount(of peerNDI: MACAddress, on interface: DataInterface) async -> UInt64? { 0 }
    func removePeer(_ peerNMI: MACAddress) async {
        if !Task.isCancelled { state.withLock { _ = $0.stations.remove(peerNMI) } }
    }
    var sentTermination: Bool { sent.withLock { $0.contains(NANActionSubtype.dataPathTermination.rawValue) } }
    var leftovers: Bool { state.withLock { $0.interfaces != 0 || !$0.stations.isEmpty || $0.schedule } }
}

/// Ending a data path from a cancelled task (Ctrl-C cancels the task that holds it) still tells the peer and
/// cleans up. In the VM (datapath-teardown, 2026-12-01) a subscriber's Ctrl-C sent no termination ("dp tx
/// failed: CancellationError()"): the publisher reported `peer-lost` seconds later instead of `peer-request`.
@Suite struct DataPathCancellationTests {
    let nmiA = MACAddress(0x42, 0, 0, 0, 0, 0)
    let nmiB = MACAddress(0x42, 0, 0, 0, 1, 0)

    /// A accepting, B connected to it; both sides' event iterators past `connected`.
    private func connected() async throws -> (
        a: DataPathEngine, b: DataPathEngine, radioB: CancellationRefusingRadio,
        id: NDPIdentifier, aEvents: AsyncStream<DataPathEvent>.Iterator
    ) {
        let radioA = CancellationRefusingRadio(nmi: nmiA, ndi: MACAddress(0x52, 0, 0, 0, 0, 0))
        let radioB = CancellationRefusingRadio(nmi: nmiB, ndi: MACAddress(0x52, 0, 0, 0, 1, 0))
        let a = DataPathEngine(radio: radioA)
        let b = DataPathEngine(radio: radioB)
        radioA.deliver.withLock { $0 = { bytes in Task { await b.handle(.frameReceived(bytes: bytes)) } } }
        radioB.deliver.withLock { $0 = { bytes in Task { await a.handle(.frameReceived(bytes: bytes)) } } }
        let accepted = try await a.accept(publishID: InstanceID(1))
        let (id, events) = try await b.request(to: nmiA, publishID: InstanceID(1))
        var bIterator = events.makeAsyncIterator()
        guard case .connected = await bIterator.next() else { throw DataPathError(.kernelStep, "B not connected") }
        var aIterator = accepted.makeAsyncIterator()
        guard case .requested = await aIterator.next(), case .connected = await aIterator.next() else {
            throw DataPathError(.kernelStep, "A not connected")
        }
        return (a, b, radioB, id, aIterator)
    }

    /// Runs `body` in a task that is already cancelled.
    private func cancelled(_ body: @escaping @Sendable () async -> Void) async {
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            await body()
        }
        task.cancel()
        await task.value
    }

    @Test func endingFromACancelledTaskStillTellsThePeer() async throws {
        let (a, b, radioB, id, events) = try await connected()
        var aEvents = events
        await cancelled { await b.end(id) }
        // Checked first: without the termination A would wait for it forever.
        guard radioB.sentTermination else { Issue.record("B sent no Data Path Termination"); return }
        guard case .terminated(_, let reason) = await aEvents.next() else { Issue.record("A not told"); return }
        #expect(reason.kind == .peerRequest)
        await a.shutDown()
        await b.shutDown()
        #expect(!radioB.leftovers)
    }

    @Test func shuttingDownFromACancelledTaskTellsThePeerAndLeavesNothing() async throws {
        let (a, b, radioB, _, events) = try await connected()
        var aEvents = events
        await cancelled { await b.shutDown() }
        #expect(!radioB.leftovers)
        guard radioB.sentTermination else { Issue.record("B sent no Data Path Termination"); return }
        guard case .terminated(_, let reason) = await aEvents.next() else { Issue.record("A not told"); return }
        #expect(reason.kind == .peerRequest)
        await a.shutDown()
    }
}

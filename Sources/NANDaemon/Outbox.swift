internal import Synchronization

/// The bounded queue of lines waiting to be written to one client. Events that find it full are dropped
/// and counted per session (the session's next event that fits is preceded by an `eventsLost`); a reply that
/// finds no room, or more than the byte budget, overflows it: the client is then disconnected.
final class Outbox: Sendable {
    private struct State {
        var lines: [[UInt8]] = []
        var head = 0
        var bytes = 0
        var dropped: [UInt32: Int] = [:]
        var closed = false
        var waiting: CheckedContinuation<[UInt8]?, Never>?
    }

    private let state = Mutex(State())
    let limits: DaemonLimits

    init(limits: DaemonLimits) { self.limits = limits }

    /// Queues a reply or error: false when the queue overflowed (disconnect the client).
    func enqueueReply(_ line: [UInt8]) -> Bool { push(line, event: nil) }

    /// Queues an event of `session`; a full queue drops it (counted). False when the queue is closed.
    @discardableResult
    func enqueueEvent(_ event: WireEvent) -> Bool {
        let line = LineCodec.encode(DaemonMessage.event(event))
        return push(line, event: event.session)
    }

    private func push(_ line: [UInt8], event session: UInt32?) -> Bool {
        let resume: (CheckedContinuation<[UInt8]?, Never>, [UInt8])? = state.withLock { s in
            guard !s.closed else { return nil }
            let count = s.lines.count - s.head
            if let session {
                let droppedBefore = s.dropped[session] ?? 0
                let needed = droppedBefore > 0 ? 2 : 1
                guard count + needed <= limits.queuedMessages, s.bytes + line.count <= limits.queuedBytes else {
                    s.dropped[session] = droppedBefore + 1
                    return nil
                }
                if droppedBefore > 0 {
                    var loss = WireEvent(session: session, kind: .eventsLost)
                    loss.dropped = droppedBefore
                    let lossLine = LineCodec.encode(DaemonMessage.event(loss))
                    s.lines.append(lossLine)
                    s.bytes += lossLine.count
                    s.dropped[session] = nil
                }
            } else {
                guard count < limits.queuedMessages * 2, s.bytes + line.count <= limits.queuedBytes else {
                    s.closed = true
                    return nil
                }
            }
            s.lines.append(line)
            s.bytes += line.count
            guard let waiting = s.waiting else { return nil }
            s.waiting = nil
            return (waiting, take(&s))
        }
        if let (waiting, line) = resume { waiting.resume(returning: line) }
        return state.withLock { !$0.closed }
    }

    private func take(_ s: inout State) -> [UInt8] {
        let line = s.lines[s.head]
        s.head += 1
        s.bytes -= line.count
        if s.head > 64, s.head * 2 > s.lines.count {
            s.lines.removeFirst(s.head)
            s.head = 0
        }
        return line
    }

    /// The next line to write; nil once closed.
    func next() async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            let ready: [UInt8]?? = state.withLock { s in
                if s.head < s.lines.count { return .some(take(&s)) }
                if s.closed { return .some(nil) }
                s.waiting = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Closes the queue: the writer's wait ends with nil.
    func close() {
        let waiting = state.withLock { s -> CheckedContinuation<[UInt8]?, Never>? in
            s.closed = true
            defer { s.waiting = nil }
            return s.waiting
        }
        waiting?.resume(returning: nil)
    }

    /// Whether the queue is closed (overflowed or ended).
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Lines waiting.
    var count: Int { state.withLock { $0.lines.count - $0.head } }
}

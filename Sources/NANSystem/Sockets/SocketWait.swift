internal import Glibc
import Synchronization

/// Waits until a non-blocking socket is ready, off Swift's cooperative pool: `poll` runs on a Dispatch
/// thread (``BlockingWork``), together with a pipe that task cancellation writes to, so a cancelled task
/// never waits for its timeout.
enum SocketWait {
    /// Waits until `descriptor` is readable (or writable), or an error or hang-up is pending on it.
    ///
    /// - Parameters:
    ///   - deadline: when to give up; nil waits without limit.
    ///   - call: the step waiting, for errors.
    /// - Throws: ``StreamSocketError`` `.timedOut` at the deadline, `.cancelled` if the task is cancelled.
    static func wait(
        _ descriptor: Int32, writable: Bool, until deadline: ContinuousClock.Instant?, call: String
    ) async throws(StreamSocketError) {
        if Task.isCancelled { throw StreamSocketError(.cancelled, call: call) }
        var milliseconds: Int32 = -1
        if let deadline {
            let left = deadline - .now
            guard left > .zero else { throw StreamSocketError(.timedOut, call: call) }
            let (seconds, attoseconds) = left.components
            milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw StreamSocketError.failed("pipe", .current) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        let waker = Mutex<Int32>(ends[1])  // the write end; -1 once the wait is over
        defer {
            waker.withLock { end in
                _ = Glibc.close(end)
                end = -1
            }
            _ = Glibc.close(ends[0])
        }
        let readEnd = ends[0]
        let limit = milliseconds
        let events = Int16(writable ? POLLOUT : POLLIN)
        let outcome: Int32 = await withTaskCancellationHandler {
            await BlockingWork.run { () -> Int32 in
                var entries = [pollfd(fd: descriptor, events: events, revents: 0), pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
                while true {
                    let result = poll(&entries, 2, limit)
                    if result >= 0 {
                        if entries[1].revents != 0 { return -2 }  // cancelled
                        return result
                    }
                    if Errno.current == .interrupted { continue }
                    return -Errno.current.rawValue - 1000
                }
            }
        } onCancel: {
            waker.withLock { end in
                if end >= 0 {
                    var one: UInt8 = 1
                    _ = Glibc.write(end, &one, 1)
                }
            }
        }
        switch outcome {
        case 1...: return
        case 0: throw StreamSocketError(.timedOut, call: call)
        case -2: throw StreamSocketError(.cancelled, call: call)
        default: throw StreamSocketError.failed("poll", Errno(rawValue: -(outcome + 1000)), detail: call)
        }
    }
}

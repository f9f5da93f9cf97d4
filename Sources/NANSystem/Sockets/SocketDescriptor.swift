internal import Glibc
internal import Synchronization

/// The non-blocking IPv6 socket descriptor under a ``StreamSocket`` or a ``PeerDatagramSocket``: its calls,
/// each through ``SystemCall/retrying(_:)``, and the one place where a socket waits.
///
/// A call that finds the socket not ready (``Errno/wouldBlock``) awaits ``wait(for:until:what:)``, a
/// ``ReadinessWait``: event-driven on Dispatch, no thread held. ``cancel()``, or cancelling a waiting task,
/// shuts the socket down and ends every wait at once with ``StreamSocketError/cancelled(_:)``. The
/// descriptor is closed when the object is released, which Dispatch's watch of it never outlives (see
/// ``ReadinessWait``).
final class SocketDescriptor: Sendable {
    /// The descriptor.
    let raw: Int32
    /// Whether ``cancel()`` was called, and the waits it must end.
    private let state = Mutex<(cancelled: Bool, waits: [ObjectIdentifier: ReadinessWait])>((false, [:]))

    /// A new socket of `type` (`SOCK_STREAM`, `SOCK_DGRAM`) in `family` (IPv6 unless said: `AF_UNIX` for
    /// ``LocalSocket``).
    init(_ type: __socket_type, family: Int32 = AF_INET6) throws(StreamSocketError) {
        let flags = Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        do throws(Errno) {
            raw = try SystemCall.retrying { socket(family, flags, 0) }
        } catch {
            throw StreamSocketError(call: "socket", errno: error)
        }
    }

    /// Takes over `raw` (an accepted connection; the caller makes it non-blocking).
    init(adopting raw: Int32) { self.raw = raw }

    // close(2) is never retried: Linux frees the descriptor even when a signal interrupts it.
    deinit { close(raw) }

    /// `bind(2)` or `connect(2)` (`function`, named `call` in the error) to `address`.
    func call(
        _ call: String, _ function: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32, _ address: sockaddr_in6,
        detail: String
    ) throws(StreamSocketError) {
        do throws(Errno) {
            _ = try SystemCall.retrying { address.withSocketAddress { function(raw, $0, $1) } }
        } catch {
            throw StreamSocketError(call: call, errno: error, detail: detail)
        }
    }

    /// Sets an integer socket option (`setsockopt(2)`).
    func setOption(_ level: Int32, _ name: Int32, to value: Int32) throws(Errno) {
        var value = value
        _ = try SystemCall.retrying { setsockopt(raw, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// Where the socket is bound (`getsockname(2)`; all zero when that fails).
    var localAddress: sockaddr_in6 {
        var address = sockaddr_in6()
        _ = try? SystemCall.retrying { address.fill { getsockname(raw, $0, $1) } }
        return address
    }

    /// The bytes of one `recvfrom(2)` with `flags`, at most `capacity` of them (with `MSG_TRUNC`, a longer
    /// datagram comes back cut to `capacity`), and their sender; waits until some come or `deadline`.
    func receive(
        capacity: Int, flags: Int32, until deadline: ContinuousClock.Instant?, detail: String?
    ) async throws(StreamSocketError) -> (bytes: [UInt8], sender: sockaddr_in6) {
        while true {
            var sender = sockaddr_in6()
            var failure: Errno?
            // Straight into the returned array: no zero fill, no copy.
            let bytes = [UInt8](unsafeUninitializedCapacity: max(1, capacity)) { buffer, initialized in
                do throws(Errno) {
                    let count = try SystemCall.retrying {
                        sender.fill { recvfrom(raw, buffer.baseAddress, buffer.count, flags, $0, $1) }
                    }
                    initialized = min(count, buffer.count)
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            guard let failure else { return (bytes, sender) }
            guard failure == .wouldBlock else { throw self.failure("recv", failure, detail: detail) }
            try await wait(for: .readable, until: deadline, what: "receive")
        }
    }

    /// Sends every byte of `bytes` on a stream socket, waiting for room in the send buffer as long as the peer
    /// does not read, at most `timeout` each time; `detail` names the peer in errors (made only for one).
    func send(
        _ bytes: [UInt8], timeout: Duration?, detail: @autoclosure () -> String?
    ) async throws(StreamSocketError) {
        var offset = 0
        while offset < bytes.count {
            do throws(Errno) {
                offset += try SystemCall.retrying {
                    bytes.withUnsafeBytes { buffer in
                        Glibc.send(raw, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    }
                }
            } catch  where error == .wouldBlock {
                try await wait(for: .writable, until: timeout.map { ContinuousClock.now + $0 }, what: "send")
            } catch {
                throw failure("send", error, detail: detail())
            }
        }
    }

    /// The error of a failed call: `cancelled` once the socket is cancelled (a cancelled socket's calls fail).
    func failure(_ call: String, _ errno: Errno, detail: String? = nil) -> StreamSocketError {
        isCancelled ? .cancelled(call) : StreamSocketError(call: call, errno: errno, detail: detail)
    }

    /// Waits until the socket is `readiness`: throws `timedOut` at `deadline` (nil: none), `cancelled` when
    /// the socket is cancelled or the task is (which cancels the socket). `what` names the wait in errors.
    func wait(
        for readiness: ReadinessWait.Readiness, until deadline: ContinuousClock.Instant?, what: String
    ) async throws(StreamSocketError) {
        let wait = ReadinessWait(on: self, readiness: readiness, deadline: deadline)
        let key = ObjectIdentifier(wait)
        let registered = state.withLock { state in
            if !state.cancelled { state.waits[key] = wait }
            return !state.cancelled
        }
        if !registered { wait.end(.cancelled) }
        let outcome = await withTaskCancellationHandler {
            await wait.run()
        } onCancel: {
            cancel()
        }
        state.withLock { _ = $0.waits.removeValue(forKey: key) }
        switch outcome {
        case .ready where !isCancelled: return
        case .timedOut: throw .timedOut(what)
        default: throw .cancelled(what)
        }
    }

    /// Shuts the socket down both ways and ends every wait with `cancelled`. Safe from any thread, more
    /// than once.
    func cancel() {
        let waits = state.withLock { state -> [ReadinessWait]? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            defer { state.waits = [:] }
            return Array(state.waits.values)
        }
        guard let waits else { return }
        _ = try? SystemCall.retrying { shutdown(raw, Int32(SHUT_RDWR)) }
        for wait in waits { wait.end(.cancelled) }
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { state.withLock { $0.cancelled } }
}

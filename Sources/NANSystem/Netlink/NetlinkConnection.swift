// Dispatch sources are thread-safe but not yet annotated Sendable.
@preconcurrency import Dispatch
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Something the kernel sent that is not a reply to one of our requests.
enum NetlinkInbound: Sendable {
    /// A generic netlink message with sequence number 0: a multicast or unicast event.
    case event(GenericNetlinkMessage)
    /// The socket's receive buffer overflowed (`ENOBUFS`); messages were lost.
    case overrun
    /// A message could not be decoded; it was dropped.
    case malformed(NetlinkError)
    /// The socket failed and the reader stopped.
    case failed(NetlinkError)
    /// The connection was closed; nothing more will arrive.
    case closed
}

/// The kernel's complete answer to one request.
struct NetlinkReply: Sendable {
    /// The data messages (one for a plain reply, many for a dump, none for a bare ack).
    var messages: [GenericNetlinkMessage]
    /// The ack's value: 0, or a positive result some commands return (hwsim's new radio id).
    var ackValue: Int32
}

/// One generic netlink socket carrying both our requests' replies and the kernel's events.
///
/// A reader on a `DispatchSource` drains the socket: a message whose sequence number belongs to a
/// waiting request goes to that request; everything else is handed to `onInbound`, on the reader's queue.
/// Requests may be issued concurrently from any task.
final class NetlinkConnection: Sendable {
    private struct Pending {
        var call: String
        var messages: [GenericNetlinkMessage] = []
        var continuation: CheckedContinuation<NetlinkReply, any Error>
    }

    private struct State {
        var nextSequence: UInt32 = 1
        var pending: [UInt32: Pending] = [:]
        var cancelledBeforeStart: Set<UInt32> = []
        var closed = false
        var readerStopped = false
    }

    /// The socket; its pointer is freed by the reader's cancel handler.
    let socket: NetlinkSocket
    private let state = Mutex(State())
    /// The reader: a read source on the socket.
    private let source: any DispatchSourceRead
    /// The receive buffer, used only by the reader (the lock is never contended). Raw and never cleared: a
    /// page of it becomes resident only when a datagram reaches it, and the kernel's are a few KiB (dumps at
    /// most 32 KiB), so most of its 256 KiB never does (zero-filled, all of it was resident in every process).
    private let buffer = Mutex(UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16))
    private let stopped = DispatchSemaphore(value: 0)
    /// One dump at a time: the kernel refuses a second concurrent dump on a socket with EBUSY.
    private let dumps = DumpGate()
    private let onInbound: @Sendable (NetlinkInbound) -> Void
    private let recorder: NetlinkRecorder?

    /// Wraps a connected socket and starts reading it.
    ///
    /// - Parameters:
    ///   - socket: a socket whose families and groups are already resolved (resolution reads the
    ///     socket synchronously and must not race the reader).
    ///   - label: names the reader's queue.
    ///   - onInbound: receives events, overruns and the final `closed`, on the reader's queue. It must not block.
    init(socket: NetlinkSocket, label: String, onInbound: @escaping @Sendable (NetlinkInbound) -> Void) {
        self.socket = socket
        self.onInbound = onInbound
        self.recorder = NetlinkDiagnostics.recorder()
        let queue = DispatchQueue(label: "waware.netlink.\(label)")
        source = DispatchSource.makeReadSource(fileDescriptor: socket.fileDescriptor, queue: queue)
        source.setEventHandler { [unowned self] in
            self.drain()
        }
        source.setCancelHandler { [socket, stopped, onInbound] in
            socket.free()
            onInbound(.closed)
            stopped.signal()
        }
        source.resume()
    }

    deinit {
        // Backstop only: owners call close().
        close()
        buffer.withLock { $0.deallocate() }
    }

    /// Sends a request and waits for the kernel's complete answer.
    ///
    /// - Parameters:
    ///   - family: the resolved family id.
    ///   - command: the command number.
    ///   - version: the family interface version.
    ///   - attributes: the request's attribute bytes.
    ///   - dump: whether this is a dump (`NLM_F_DUMP`), answered by many messages and `NLMSG_DONE`.
    ///   - call: the command's name, used in errors (e.g. `NL80211_CMD_START_NAN`).
    /// - Throws: ``NetlinkError`` with the kernel's errno and message, `closed`, `overrun`, or `CancellationError`.
    ///
    /// Runs on the caller's executor (no hop): the request is on the socket before the first suspension.
    nonisolated(nonsending) func request(
        family: UInt16, command: UInt8, version: UInt8, attributes: [UInt8], dump: Bool = false, call: String
    ) async throws -> NetlinkReply {
        let sequence = state.withLock { state -> UInt32 in
            let sequence = state.nextSequence
            // Sequence 0 is what events carry; never use it for a request.
            state.nextSequence = state.nextSequence == UInt32.max ? 1 : state.nextSequence + 1
            return sequence
        }
        if dump { await dumps.acquire() }
        defer { if dump { dumps.release() } }
        var flags = NetlinkMessage.flagRequest | NetlinkMessage.flagAck
        if dump { flags |= NetlinkMessage.flagDump }
        let bytes = GenericNetlinkMessage.encodeRequest(
            family: family, command: command, version: version, flags: flags, sequence: sequence, attributes: attributes
        )

        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<NetlinkReply, any Error>) in
                let refusal = state.withLock { state -> (any Error)? in
                    if state.closed { return NetlinkError(code: .closed, call: call) }
                    if state.cancelledBeforeStart.remove(sequence) != nil { return CancellationError() }
                    state.pending[sequence] = Pending(call: call, continuation: continuation)
                    return nil
                }
                if let refusal {
                    continuation.resume(throwing: refusal)
                    return
                }
                do throws(NetlinkError) {
                    try socket.send(bytes)
                } catch {
                    let pending = state.withLock { $0.pending.removeValue(forKey: sequence) }
                    var failure = error
                    failure.call = "\(call) (\(error.call))"
                    pending?.continuation.resume(throwing: failure)
                }
            }
        } onCancel: {
            let pending = state.withLock { state -> Pending? in
                if let pending = state.pending.removeValue(forKey: sequence) { return pending }
                state.cancelledBeforeStart.insert(sequence)
                return nil
            }
            // A late reply to a cancelled request is dropped by the reader (no waiter).
            pending?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Puts a request on the socket and returns at once, without waiting for the kernel's answer (which the
    /// reader drops: no request waits for its sequence number). For the one caller that cannot wait: a reply
    /// sent from the reader's own thread, which would otherwise have to read its own answer.
    ///
    /// - Throws: ``NetlinkError`` `closed`, or the socket's failure to take the message.
    func post(family: UInt16, command: UInt8, version: UInt8, attributes: [UInt8], call: String) throws(NetlinkError) {
        let sequence = state.withLock { state -> UInt32? in
            guard !state.closed else { return nil }
            let sequence = state.nextSequence
            state.nextSequence = state.nextSequence == UInt32.max ? 1 : state.nextSequence + 1
            return sequence
        }
        guard let sequence else { throw NetlinkError(code: .closed, call: call) }
        let bytes = GenericNetlinkMessage.encodeRequest(
            family: family, command: command, version: version, flags: NetlinkMessage.flagRequest,
            sequence: sequence, attributes: attributes)
        do {
            try socket.send(bytes)
        } catch {
            var failure = error
            failure.call = "\(call) (\(error.call))"
            throw failure
        }
    }

    /// Stops the reader, fails waiting requests with `closed` and frees the socket. Idempotent.
    /// Returns once the socket is closed (so a SOCKET_OWNER interface is already being torn down).
    func close() {
        let pending = state.withLock { state -> [Pending]? in
            guard !state.closed else { return nil }
            state.closed = true
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        guard let pending else { return }
        for request in pending {
            request.continuation.resume(throwing: NetlinkError(code: .closed, call: request.call))
        }
        stopReader()
        stopped.wait()
    }

    // MARK: Reader (runs only on `queue`)

    /// Cancels the read source once; its cancel handler frees the socket.
    private func stopReader() {
        let first = state.withLock { state -> Bool in
            defer { state.readerStopped = true }
            return !state.readerStopped
        }
        if first { source.cancel() }
    }

    private func drain() {
        let fd = socket.fileDescriptor
        while true {
            // recv(2) directly rather than nl_recv(): libnl reports ENOBUFS as NLE_NOMEM, merging an
            // overrun with an allocation failure; we must tell them apart.
            let outcome = buffer.withLock { buffer -> Result<(Int, [UInt8]), Errno> in
                let capacity = buffer.count
                do throws(Errno) {
                    let received = try SystemCall.retrying {
                        recv(fd, buffer.baseAddress, capacity, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC))
                    }
                    return .success(
                        (received, Array(UnsafeRawBufferPointer(rebasing: buffer[0..<min(received, capacity)]))))
                } catch {
                    return .failure(error)
                }
            }
            let capacity = 256 * 1024
            let received: Int
            let datagram: [UInt8]
            switch outcome {
            case .success(let value):
                (received, datagram) = value
            case .failure(.wouldBlock):
                return
            case .failure(.noBufferSpace):
                failAllPending(NetlinkError(code: .overrun, errno: .noBufferSpace, call: "recv"))
                onInbound(.overrun)
                continue
            case .failure(let error):
                let failure = NetlinkError(code: .system, errno: error, call: "recv")
                failAllPending(failure)
                onInbound(.failed(failure))
                stopReader()
                return
            }
            if received == 0 { return }
            if received > capacity {
                // Cannot happen with netlink's message sizes; if it did, a reply might be lost.
                let failure = NetlinkError(
                    code: .malformedMessage, call: "recv",
                    detail: "datagram of \(received) bytes truncated to \(capacity)")
                failAllPending(failure)
                onInbound(.malformed(failure))
                continue
            }
            dispatch(datagram: datagram)
        }
    }

    private func dispatch(datagram: [UInt8]) {
        let messages: [NetlinkMessage]
        do {
            messages = try NetlinkMessage.split(datagram: datagram)
        } catch {
            onInbound(.malformed(error))
            return
        }
        for message in messages {
            dispatch(message)
        }
    }

    private func dispatch(_ message: NetlinkMessage) {
        let call = message.sequence == 0 ? nil : state.withLock { $0.pending[message.sequence]?.call }
        recorder?.record(
            message, label: call.map { "reply-\($0)" } ?? "event-type\(message.type)-cmd\(message.payload.first ?? 0)")
        guard let call else {
            if message.type == NetlinkMessage.typeError || message.type == NetlinkMessage.typeDone
                || message.type == NetlinkMessage.typeNoop || message.sequence != 0
            {
                return  // a late answer to a cancelled request, or noise
            }
            do {
                onInbound(.event(try GenericNetlinkMessage(message)))
            } catch {
                onInbound(.malformed(error))
            }
            return
        }
        switch message.type {
        case NetlinkMessage.typeError, NetlinkMessage.typeDone:
            let outcome: Result<Int32, NetlinkError>
            do {
                let ack = try NetlinkAck(message)
                if let refusal = ack.refusal {
                    outcome = .failure(.kernel(errno: refusal, kernelMessage: ack.kernelMessage, call: call))
                } else {
                    outcome = .success(ack.error)
                }
            } catch {
                var failure = error
                failure.call = call
                outcome = .failure(failure)
            }
            guard let pending = state.withLock({ $0.pending.removeValue(forKey: message.sequence) }) else { return }
            switch outcome {
            case .success(let value):
                pending.continuation.resume(returning: NetlinkReply(messages: pending.messages, ackValue: value))
            case .failure(let error):
                pending.continuation.resume(throwing: error)
            }
        case NetlinkMessage.typeNoop, NetlinkMessage.typeOverrun:
            return
        default:
            do {
                let decoded = try GenericNetlinkMessage(message)
                state.withLock { $0.pending[message.sequence]?.messages.append(decoded) }
            } catch {
                var failure = error
                failure.call = call
                let pending = state.withLock { $0.pending.removeValue(forKey: message.sequence) }
                pending?.continuation.resume(throwing: failure)
            }
        }
    }

    private func failAllPending(_ error: NetlinkError) {
        let pending = state.withLock { state -> [Pending] in
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        for request in pending {
            var failure = error
            failure.call = "\(request.call) (\(error.call))"
            request.continuation.resume(throwing: failure)
        }
    }
}

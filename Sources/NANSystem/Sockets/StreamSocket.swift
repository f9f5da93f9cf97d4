internal import Glibc
internal import Synchronization

/// Why a stream-socket call failed: the call, its errno (when a system call failed) and what it was for.
public struct StreamSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure: a system call's, a local cancellation, or a deadline.
    public enum Kind: Hashable, Sendable {
        /// A system call failed (``errno`` says why) or the peer closed early.
        case system
        /// The socket was cancelled locally.
        case cancelled
        /// A deadline passed before the call could finish.
        case timedOut
    }

    /// The kind of failure; match on this, never on ``call``.
    public var kind: Kind
    /// The system call or step (`connect`, `recv`, `timeout`, `cancelled`), for the message.
    public var call: String
    /// The errno of a failed system call.
    public var errno: Errno?
    /// What was being done.
    public var detail: String?

    /// Creates an error.
    public init(call: String, errno: Errno?, detail: String? = nil) {
        self.kind = .system
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    /// The socket was cancelled (``StreamSocket/cancel()``) while a call waited on it.
    public static func cancelled(_ detail: String? = nil) -> StreamSocketError {
        var error = StreamSocketError(call: "cancelled", errno: nil, detail: detail)
        error.kind = .cancelled
        return error
    }

    /// A deadline passed before the call could finish.
    public static func timedOut(_ detail: String? = nil) -> StreamSocketError {
        var error = StreamSocketError(call: "timeout", errno: nil, detail: detail)
        error.kind = .timedOut
        return error
    }

    /// Whether the socket was cancelled locally.
    public var isCancelled: Bool { kind == .cancelled }

    /// Whether a deadline passed.
    public var isTimedOut: Bool { kind == .timedOut }

    /// Whether the peer refused, reset, or is unreachable (nothing listens there, or the link is gone).
    public var isPeerUnreachable: Bool {
        guard let errno else { return kind == .timedOut }
        let unreachable: Set<Errno> = [
            .connectionRefused, .hostUnreachable, .networkUnreachable, .timedOut, .connectionReset, .brokenPipe,
            .addressNotAvailable,
        ]
        return unreachable.contains(errno)
    }

    /// `connect: Connection refused (ECONNREFUSED) ([fe80::1%nan0data]:7000)`.
    public var description: String {
        var text = call
        if let errno { text += ": \(errno)" }
        if let detail { text += " (\(detail))" }
        return text
    }
}

/// A TCP socket over IPv6 (a listener, or one connected stream), the one stream-socket type of the
/// package: connections over NAN data paths (plain or under TLS) and the performance probes' transfers
/// use it.
///
/// The descriptor is non-blocking; every call that waits does so on a Dispatch thread (``BlockingWork``),
/// never on Swift's cooperative pool, in slices of 200 ms. ``cancel()`` (or cancelling the waiting task)
/// shuts the socket down and ends every wait with ``StreamSocketError/cancelled(_:)``. The descriptor is
/// closed when the object is released, never while a call may still use it.
///
/// Flow control is the kernel's: ``send(_:)`` returns when every byte is in the socket's send buffer, so
/// a sender waits while the peer does not read, and nothing is queued in user space.
public final class StreamSocket: @unchecked Sendable, CustomStringConvertible {
    let descriptor: Int32
    private let cancelled = Atomic<Bool>(false)
    /// The local port of a listener (where peers connect); 0 for a connected socket.
    public let localPort: UInt16
    /// The peer, for a connected socket.
    public let peer: LinkLocalEndpoint?

    private init(descriptor: Int32, peer: LinkLocalEndpoint?) {
        self.descriptor = descriptor
        self.peer = peer
        var address = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        localPort = ok == 0 ? UInt16(bigEndian: address.sin6_port) : 0
    }

    deinit { close(descriptor) }

    /// `listener :7000` or `stream [fe80::1%nan0data]:7000`.
    public var description: String {
        peer.map { "stream \($0)" } ?? "listener :\(localPort)"
    }

    private static func makeDescriptor() throws(StreamSocketError) -> Int32 {
        let fd = socket(
            AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw StreamSocketError(call: "socket", errno: .current) }
        return fd
    }

    /// A TCP listener on every IPv6 address of this network namespace (link-local ones included) at
    /// `port` (0: a port the kernel picks; read it in ``localPort``).
    public static func listen(port: UInt16 = 0, backlog: Int32 = 16) throws(StreamSocketError) -> StreamSocket {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        address.sin6_addr = in6addr_any
        return try listen(at: address, backlog: backlog, what: "port \(port)")
    }

    /// A TCP listener on one address: `endpoint`'s, on its interface (a data interface's link-local
    /// address, which refuses the bind with `EADDRNOTAVAIL` until duplicate address detection is over).
    public static func listen(
        on endpoint: LinkLocalEndpoint, backlog: Int32 = 16
    ) throws(StreamSocketError) -> StreamSocket {
        try listen(at: try endpoint.socketAddress(), backlog: backlog, what: "\(endpoint)")
    }

    private static func listen(
        at address: sockaddr_in6, backlog: Int32, what: String
    ) throws(StreamSocketError) -> StreamSocket {
        let fd = try makeDescriptor()
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = address
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard bound == 0 else {
            let error = StreamSocketError(call: "bind", errno: .current, detail: what)
            close(fd)
            throw error
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let error = StreamSocketError(call: "listen", errno: .current, detail: what)
            close(fd)
            throw error
        }
        return StreamSocket(descriptor: fd, peer: nil)
    }

    /// A TCP connection to `endpoint`, given up after `timeout` (`timeout` error) or when the task is
    /// cancelled.
    public static func connect(
        to endpoint: LinkLocalEndpoint, timeout: Duration
    ) async throws(StreamSocketError) -> StreamSocket {
        let fd = try makeDescriptor()
        let address: sockaddr_in6
        do { address = try endpoint.socketAddress() } catch {
            close(fd)
            throw error
        }
        let socket = StreamSocket(descriptor: fd, peer: endpoint)
        var target = address
        let started = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        if started != 0 && Errno.current.rawValue != EINPROGRESS {
            throw StreamSocketError(call: "connect", errno: .current, detail: "\(endpoint)")
        }
        try await socket.waitFor(readable: false, timeout: timeout, what: "connect to \(endpoint)")
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        guard code == 0 else {
            throw StreamSocketError(call: "connect", errno: Errno(rawValue: code), detail: "\(endpoint)")
        }
        return socket
    }

    /// The next connection and its peer (address, interface, port). Waits until one comes or the
    /// listener is cancelled.
    public func accept() async throws(StreamSocketError) -> StreamSocket {
        while true {
            try await waitFor(readable: true, timeout: nil, what: "accept")
            var address = sockaddr_in6()
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            let fd: Int32
            do throws(Errno) {
                fd = try SystemCall.retrying {
                    withUnsafeMutablePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(descriptor, $0, &length) }
                    }
                }
            } catch  where error == .wouldBlock || error == .connectionAborted {
                continue
            } catch {
                if cancelled.load(ordering: .acquiring) { throw .cancelled("accept") }
                throw StreamSocketError(call: "accept", errno: error)
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            return StreamSocket(descriptor: fd, peer: LinkLocalEndpoint(address))
        }
    }

    /// Sends every byte of `bytes`, waiting for room in the send buffer as long as the peer does not
    /// read (flow control); ends with the error of the first failed write, or `cancelled`.
    public func send(_ bytes: [UInt8], timeout: Duration? = nil) async throws(StreamSocketError) {
        var offset = 0
        while offset < bytes.count {
            do throws(Errno) {
                offset += try SystemCall.retrying {
                    bytes.withUnsafeBytes { raw in
                        Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    }
                }
            } catch  where error == .wouldBlock {
                try await waitFor(readable: false, timeout: timeout, what: "send")
            } catch {
                if cancelled.load(ordering: .acquiring) { throw .cancelled("send") }
                throw StreamSocketError(call: "send", errno: error, detail: peer.map { "\($0)" })
            }
        }
    }

    /// Receives up to `maximum` bytes, waiting until some come: an empty array means the peer ended
    /// its direction (end of stream).
    public func receive(maximum: Int, timeout: Duration? = nil) async throws(StreamSocketError) -> [UInt8] {
        while true {
            var failure: Errno?
            // Straight into the returned array: no zero fill, no copy.
            let buffer = [UInt8](unsafeUninitializedCapacity: max(1, maximum)) { buffer, initialized in
                do throws(Errno) {
                    initialized = try SystemCall.retrying {
                        Glibc.recv(descriptor, buffer.baseAddress, buffer.count, 0)
                    }
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            guard let failure else { return buffer }
            guard failure == .wouldBlock else {
                if cancelled.load(ordering: .acquiring) { throw .cancelled("receive") }
                throw StreamSocketError(call: "recv", errno: failure, detail: peer.map { "\($0)" })
            }
            try await waitFor(readable: true, timeout: timeout, what: "receive")
        }
    }

    /// Receives exactly `count` bytes within `timeout` overall; throws `timeout`, or a `recv` error when
    /// the peer ends its direction first.
    public func receiveExactly(_ count: Int, timeout: Duration) async throws(StreamSocketError) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        while bytes.count < count {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw .timedOut("\(bytes.count) of \(count) bytes within \(timeout)")
            }
            let chunk = try await receive(maximum: count - bytes.count, timeout: left)
            guard !chunk.isEmpty else {
                throw StreamSocketError(
                    call: "recv", errno: nil, detail: "the peer closed after \(bytes.count) of \(count) bytes")
            }
            bytes += chunk
        }
        return bytes
    }

    /// Ends our direction: the peer reads the end of the stream; we can still receive.
    public func shutdownWrite() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Shuts the socket down both ways and ends every call waiting on it with `cancelled`. Safe from any
    /// thread, more than once; the descriptor itself is closed when the object is released.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Waits on a Dispatch thread until the descriptor is readable (or writable), in 200 ms slices that
    /// notice ``cancel()``; cancelling the task cancels the socket.
    private func waitFor(readable: Bool, timeout: Duration?, what: String) async throws(StreamSocketError) {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        let descriptor = descriptor
        let cancelled: @Sendable () -> Bool = { [self] in self.cancelled.load(ordering: .acquiring) }
        let outcome: StreamSocketError? = await withTaskCancellationHandler {
            await BlockingWork.run { () -> StreamSocketError? in
                var entry = pollfd(fd: descriptor, events: Int16(readable ? POLLIN : POLLOUT), revents: 0)
                while true {
                    if cancelled() { return .cancelled(what) }
                    if let deadline, ContinuousClock.now >= deadline {
                        return .timedOut(what)
                    }
                    let result = poll(&entry, 1, 200)
                    if result > 0 { return cancelled() ? .cancelled(what) : nil }
                    if result < 0 && Errno.current != .interrupted {
                        return StreamSocketError(call: "poll", errno: .current)
                    }
                }
            }
        } onCancel: {
            self.cancel()
        }
        if let outcome { throw outcome }
    }
}

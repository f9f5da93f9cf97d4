internal import Glibc

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
/// The descriptor is non-blocking; a call that must wait awaits the socket's readiness on Dispatch
/// (``SocketDescriptor``), holding no thread. ``cancel()`` (or cancelling the waiting task) shuts the
/// socket down and ends every wait at once with ``StreamSocketError/cancelled(_:)``. The descriptor is
/// closed when the object is released, never while a call may still use it.
///
/// Flow control is the kernel's: ``send(_:timeout:)`` returns when every byte is in the socket's send
/// buffer, so a sender waits while the peer does not read, and nothing is queued in user space.
public final class StreamSocket: Sendable, CustomStringConvertible {
    let descriptor: SocketDescriptor
    /// The local port of a listener (where peers connect); for a connected socket, its own.
    public let localPort: UInt16
    /// The peer, for a connected socket.
    public let peer: LinkLocalEndpoint?

    private init(descriptor: SocketDescriptor, peer: LinkLocalEndpoint?) {
        self.descriptor = descriptor
        self.peer = peer
        localPort = UInt16(bigEndian: descriptor.localAddress.sin6_port)
    }

    /// `listener :7000` or `stream [fe80::1%nan0data]:7000`.
    public var description: String {
        peer.map { "stream \($0)" } ?? "listener :\(localPort)"
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
        let descriptor = try SocketDescriptor(SOCK_STREAM)
        try? descriptor.setOption(SOL_SOCKET, SO_REUSEADDR, to: 1)
        try descriptor.call("bind", Glibc.bind, address, detail: what)
        do throws(Errno) {
            _ = try SystemCall.retrying { Glibc.listen(descriptor.raw, backlog) }
        } catch {
            throw StreamSocketError(call: "listen", errno: error, detail: what)
        }
        return StreamSocket(descriptor: descriptor, peer: nil)
    }

    /// A TCP connection to `endpoint`, given up after `timeout` (`timeout` error) or when the task is
    /// cancelled.
    public static func connect(
        to endpoint: LinkLocalEndpoint, timeout: Duration
    ) async throws(StreamSocketError) -> StreamSocket {
        let descriptor = try SocketDescriptor(SOCK_STREAM)
        do throws(StreamSocketError) {
            try descriptor.call("connect", Glibc.connect, try endpoint.socketAddress(), detail: "\(endpoint)")
        } catch  where error.errno == .nowInProgress || error.errno == .alreadyInProgress {}
        let deadline = ContinuousClock.now + timeout
        try await descriptor.wait(for: .writable, until: deadline, what: "connect to \(endpoint)")
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try? SystemCall.retrying { getsockopt(descriptor.raw, SOL_SOCKET, SO_ERROR, &code, &length) }
        guard code == 0 else {
            throw StreamSocketError(call: "connect", errno: Errno(rawValue: code), detail: "\(endpoint)")
        }
        return StreamSocket(descriptor: descriptor, peer: endpoint)
    }

    /// The next connection and its peer (address, interface, port). Waits until one comes or the
    /// listener is cancelled.
    public func accept() async throws(StreamSocketError) -> StreamSocket {
        while true {
            var address = sockaddr_in6()
            do throws(Errno) {
                let fd = try SystemCall.retrying { address.fill { Glibc.accept(descriptor.raw, $0, $1) } }
                let accepted = SocketDescriptor(adopting: fd)
                _ = try? SystemCall.retrying { fcntl(fd, F_SETFD, FD_CLOEXEC) }
                _ = try? SystemCall.retrying { fcntl(fd, F_SETFL, O_NONBLOCK) }
                return StreamSocket(descriptor: accepted, peer: LinkLocalEndpoint(address))
            } catch  where error == .wouldBlock {
                try await descriptor.wait(for: .readable, until: nil, what: "accept")
            } catch  where error == .connectionAborted {
                continue
            } catch {
                throw descriptor.failure("accept", error)
            }
        }
    }

    /// Sends every byte of `bytes`, waiting for room in the send buffer as long as the peer does not
    /// read (flow control; at most `timeout` each time); ends with the error of the first failed write, or
    /// `cancelled`.
    public func send(_ bytes: [UInt8], timeout: Duration? = nil) async throws(StreamSocketError) {
        try await descriptor.send(bytes, timeout: timeout, detail: peer.map { "\($0)" })
    }

    /// Receives up to `maximum` bytes, waiting until some come (for at most `timeout`): an empty array
    /// means the peer ended its direction (end of stream).
    public func receive(maximum: Int, timeout: Duration? = nil) async throws(StreamSocketError) -> [UInt8] {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        return try await descriptor.receive(capacity: maximum, flags: 0, until: deadline, detail: peer.map { "\($0)" })
            .bytes
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
        _ = try? SystemCall.retrying { shutdown(descriptor.raw, Int32(SHUT_WR)) }
    }

    /// Shuts the socket down both ways and ends every call waiting on it with `cancelled`. Safe from any
    /// thread, more than once; the descriptor itself is closed when the object is released.
    public func cancel() { descriptor.cancel() }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { descriptor.isCancelled }
}

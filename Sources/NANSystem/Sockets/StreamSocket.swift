internal import Glibc
import Synchronization

/// A connected stream socket (TCP over IPv6, or one end of a local socket pair), non-blocking, with async
/// send and receive: the one stream-socket type of waware, under plain connections and under ``TLSStream``.
///
/// Waits happen off Swift's cooperative pool (see `SocketWait`); every wait takes an optional deadline and
/// ends early when its task is cancelled. ``send(_:timeout:)`` returns once the kernel has taken every byte,
/// so a sender waits while the peer does not read (backpressure: nothing queues here). One receiver and one
/// sender at a time may use it concurrently (full duplex). ``close()`` wakes both; the descriptor itself is
/// closed when the object is released, so it is never reused under a waiting call.
public final class StreamSocket: Sendable {
    let descriptor: Int32
    private let closed = Mutex(false)

    /// Adopts a connected stream socket descriptor and makes it non-blocking and close-on-exec.
    init(adopting descriptor: Int32) {
        self.descriptor = descriptor
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Two connected sockets (`socketpair(AF_UNIX, SOCK_STREAM)`), for tests and in-process pipes.
    public static func pair() throws(StreamSocketError) -> (StreamSocket, StreamSocket) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw StreamSocketError.failed("socketpair", .current)
        }
        return (StreamSocket(adopting: ends[0]), StreamSocket(adopting: ends[1]))
    }

    /// A TCP connection to `endpoint` (an IPv6 link-local address on an interface, or `::1` on `lo`).
    ///
    /// - Throws: ``StreamSocketError``: `.connectionRefused`, `.unreachable`, `.timedOut` after `timeout`.
    public static func connect(to endpoint: LinkLocalEndpoint, timeout: Duration) async throws(StreamSocketError) -> StreamSocket {
        var address = try endpoint.streamSocketAddress()
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw StreamSocketError.failed("socket", .current) }
        let socket = StreamSocket(adopting: fd)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        if result != 0 {
            let error = Errno.current
            guard error == .nowInProgress || error == .interrupted else {
                throw StreamSocketError.failed("connect", error, detail: "\(endpoint)")
            }
            try await SocketWait.wait(fd, writable: true, until: .now + timeout, call: "connect to \(endpoint)")
            var pending: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length) == 0 else {
                throw StreamSocketError.failed("getsockopt(SO_ERROR)", .current)
            }
            if pending != 0 { throw StreamSocketError.failed("connect", Errno(rawValue: pending), detail: "\(endpoint)") }
        }
        socket.setNoDelay()
        return socket
    }

    /// Sends small writes at once (`TCP_NODELAY`): messages and TLS records are written whole.
    func setNoDelay() {
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { closed.withLock { $0 } }

    private func checkOpen(_ call: String) throws(StreamSocketError) {
        if isClosed { throw StreamSocketError(.closed, call: call) }
    }

    /// Receives up to `maximum` bytes, waiting for at least one.
    ///
    /// - Parameter timeout: how long to wait for data; nil waits without limit.
    /// - Returns: the bytes; an empty array at the end of the stream (the peer closed its side).
    /// - Throws: ``StreamSocketError``: `.connectionReset`, `.timedOut`, `.cancelled`, `.closed`.
    public func receive(maximum: Int, timeout: Duration? = nil) async throws(StreamSocketError) -> [UInt8] {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var buffer = [UInt8](repeating: 0, count: max(1, maximum))
        while true {
            try checkOpen("recv")
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 {
                buffer.removeSubrange(count...)
                return buffer
            }
            let error = Errno.current
            guard error == .wouldBlock || error == .interrupted else { throw StreamSocketError.failed("recv", error) }
            try await SocketWait.wait(descriptor, writable: false, until: deadline, call: "recv")
        }
    }

    /// Sends all of `bytes`, waiting while the kernel's send buffer is full.
    ///
    /// - Parameter timeout: how long to wait for room each time none is left; nil waits without limit.
    /// - Throws: ``StreamSocketError``: `.connectionReset` (also for a peer that closed: `EPIPE`), `.timedOut`,
    ///   `.cancelled`, `.closed`. Part of `bytes` may have been sent.
    public func send(_ bytes: [UInt8], timeout: Duration? = nil) async throws(StreamSocketError) {
        var offset = 0
        while offset < bytes.count {
            try checkOpen("send")
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent >= 0 {
                offset += sent
                continue
            }
            let error = Errno.current
            guard error == .wouldBlock || error == .interrupted else { throw StreamSocketError.failed("send", error) }
            try await SocketWait.wait(descriptor, writable: true, until: timeout.map { ContinuousClock.now + $0 }, call: "send")
        }
    }

    /// Ends this side's sending (`shutdown(SHUT_WR)`): the peer reads the end of the stream; receiving goes on.
    public func shutdownWrite() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the connection both ways (`shutdown(SHUT_RDWR)`) and wakes any waiting call, which then throws
    /// `.closed`. The descriptor is released with the object.
    public func close() {
        closed.withLock { $0 = true }
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// The peer's address and port, for a TCP connection over IPv6.
    public var peerEndpoint: LinkLocalEndpoint? {
        var address = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard result == 0, address.sin6_family == sa_family_t(AF_INET6) else { return nil }
        return LinkLocalEndpoint(socketAddress: address)
    }
}

extension LinkLocalEndpoint {
    /// The socket address for a stream socket, with ``StreamSocketError`` for an unknown interface or a bad
    /// address.
    func streamSocketAddress() throws(StreamSocketError) -> sockaddr_in6 {
        do throws(ProbeSocketError) {
            return try socketAddress()
        } catch {
            throw StreamSocketError(error.call == "if_nametoindex" ? .unreachable : .system, call: error.call, errno: error.errno,
                                    detail: error.detail)
        }
    }

    /// The endpoint of a socket address (its zone becomes the interface's name).
    init(socketAddress address: sockaddr_in6) {
        var a = address
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        _ = inet_ntop(AF_INET6, &a.sin6_addr, &text, socklen_t(text.count))
        var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
        let interface = address.sin6_scope_id == 0 || if_indextoname(address.sin6_scope_id, &name) == nil ? "" : Self.text(name)
        self.init(address: Self.text(text), interface: interface, port: UInt16(bigEndian: address.sin6_port))
    }

    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

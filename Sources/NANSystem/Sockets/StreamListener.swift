internal import Glibc
import Synchronization

/// A TCP listening socket over IPv6 whose connections are ``StreamSocket``s.
public final class StreamListener: Sendable {
    let descriptor: Int32
    private let closed = Mutex(false)
    /// The port it listens on (the one asked for, or the kernel's choice for port 0).
    public let port: UInt16

    private init(descriptor: Int32, port: UInt16) {
        self.descriptor = descriptor
        self.port = port
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Listens on `endpoint` (an interface's link-local address, or `::1` on `lo`; port 0 lets the kernel choose).
    ///
    /// - Throws: ``StreamSocketError`` naming `bind` or `listen` and the errno (`EADDRINUSE`, …).
    public static func listen(on endpoint: LinkLocalEndpoint, backlog: Int32 = 16) throws(StreamSocketError) -> StreamListener {
        var address = try endpoint.streamSocketAddress()
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw StreamSocketError.failed("socket", .current) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        guard bound == 0 else {
            let error = Errno.current
            _ = Glibc.close(fd)
            throw StreamSocketError.failed("bind", error, detail: "\(endpoint)")
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let error = Errno.current
            _ = Glibc.close(fd)
            throw StreamSocketError.failed("listen", error, detail: "\(endpoint)")
        }
        var local = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return StreamListener(descriptor: fd, port: UInt16(bigEndian: local.sin6_port))
    }

    /// The next connection.
    ///
    /// - Parameter timeout: how long to wait; nil waits without limit.
    /// - Throws: ``StreamSocketError``: `.timedOut`, `.cancelled`, `.closed`.
    public func accept(timeout: Duration? = nil) async throws(StreamSocketError) -> StreamSocket {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if closed.withLock({ $0 }) { throw StreamSocketError(.closed, call: "accept") }
            let fd = Glibc.accept(descriptor, nil, nil)
            if fd >= 0 {
                let socket = StreamSocket(adopting: fd)
                socket.setNoDelay()
                return socket
            }
            let error = Errno.current
            // A connection that went away before it was accepted, or one not there yet: wait for the next.
            guard [EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED].contains(error.rawValue) else {
                throw StreamSocketError.failed("accept", error)
            }
            try await SocketWait.wait(descriptor, writable: false, until: deadline, call: "accept")
        }
    }

    /// Stops listening and wakes a waiting ``accept(timeout:)``, which then throws `.closed`.
    public func close() {
        closed.withLock { $0 = true }
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }
}

internal import Glibc

/// An IPv6 link-local address on a named interface with a port: where a performance probe goes over a
/// NAN data path (`fe80::…%nan0data`, port 5301).
public struct LinkLocalEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The IPv6 address as text, e.g. `fe80::4000:ff:fe00:100` (no `%zone`).
    public var address: String
    /// The interface the address is on (its zone), e.g. `nan0data`.
    public var interface: String
    /// The TCP/UDP port.
    public var port: UInt16

    /// Creates an endpoint.
    public init(address: String, interface: String, port: UInt16) {
        self.address = address
        self.interface = interface
        self.port = port
    }

    /// `[fe80::1%nan0data]:5301`.
    public var description: String { "[\(address)%\(interface)]:\(port)" }

    /// The socket address, or an error naming what is wrong (an unknown interface, a bad address).
    func socketAddress() throws(ProbeSocketError) -> sockaddr_in6 {
        let index = if_nametoindex(interface)
        guard index != 0 else { throw ProbeSocketError(call: "if_nametoindex", errno: .current, detail: "no interface \(interface)") }
        var a = sockaddr_in6()
        a.sin6_family = sa_family_t(AF_INET6)
        a.sin6_port = port.bigEndian
        a.sin6_scope_id = index
        guard inet_pton(AF_INET6, address, &a.sin6_addr) == 1 else {
            throw ProbeSocketError(call: "inet_pton", errno: nil, detail: "'\(address)' is not an IPv6 address")
        }
        return a
    }
}

/// Why a probe socket call failed: the call, its errno (if a system call failed) and what it was for.
public struct ProbeSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The system call or step (`connect`, `recv`, `timeout`, `protocol`).
    public var call: String
    /// The errno of a failed system call.
    public var errno: Errno?
    /// What was being done.
    public var detail: String?

    /// Creates an error.
    public init(call: String, errno: Errno?, detail: String? = nil) {
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    /// Whether the peer refused or is unreachable (nothing listens there, or the link is gone).
    public var isPeerUnreachable: Bool {
        guard let errno else { return call == "timeout" }
        return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, ECONNRESET, EPIPE, EINPROGRESS, EADDRNOTAVAIL]
            .contains(errno.rawValue)
    }

    /// `connect: Connection refused (ECONNREFUSED) (capacity probe to [fe80::1%nan0data]:5301)`.
    public var description: String {
        var text = call
        if let errno { text += ": \(errno)" }
        if let detail { text += " (\(detail))" }
        return text
    }
}

/// A TCP or UDP socket over IPv6 for the performance probes, closed when released. Every call that can
/// wait takes a time limit, so a probe never hangs on a peer that went away. Meant for one thread at a
/// time (the probes run on a thread of their own, see ``BlockingWork``).
public final class ProbeSocket: @unchecked Sendable {
    let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }
    deinit { close(descriptor) }

    private static func make(stream: Bool) throws(ProbeSocketError) -> ProbeSocket {
        let kind = stream ? Int32(SOCK_STREAM.rawValue) : Int32(SOCK_DGRAM.rawValue)
        let fd = socket(AF_INET6, kind | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ProbeSocketError(call: "socket", errno: .current) }
        return ProbeSocket(descriptor: fd)
    }

    private func bind(_ endpoint: LinkLocalEndpoint) throws(ProbeSocketError) {
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = try endpoint.socketAddress()
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard result == 0 else { throw ProbeSocketError(call: "bind", errno: .current, detail: "\(endpoint)") }
    }

    /// A UDP socket bound to `endpoint`.
    public static func datagram(boundTo endpoint: LinkLocalEndpoint) throws(ProbeSocketError) -> ProbeSocket {
        let s = try make(stream: false)
        try s.bind(endpoint)
        return s
    }

    /// A UDP socket for sending to one peer (bound by the kernel to the peer's interface).
    public static func datagram(connectedTo endpoint: LinkLocalEndpoint) throws(ProbeSocketError) -> ProbeSocket {
        let s = try make(stream: false)
        var address = try endpoint.socketAddress()
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(s.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard result == 0 else { throw ProbeSocketError(call: "connect", errno: .current, detail: "\(endpoint)") }
        return s
    }

    /// A TCP socket listening on `endpoint`.
    public static func listener(boundTo endpoint: LinkLocalEndpoint) throws(ProbeSocketError) -> ProbeSocket {
        let s = try make(stream: true)
        try s.bind(endpoint)
        guard listen(s.descriptor, 4) == 0 else { throw ProbeSocketError(call: "listen", errno: .current, detail: "\(endpoint)") }
        return s
    }

    /// A TCP connection to `endpoint`, given up after `timeout`.
    public static func connect(to endpoint: LinkLocalEndpoint, timeout: Duration) throws(ProbeSocketError) -> ProbeSocket {
        let s = try make(stream: true)
        s.setTimeout(SO_SNDTIMEO, timeout)
        var address = try endpoint.socketAddress()
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(s.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard result == 0 else { throw ProbeSocketError(call: "connect", errno: .current, detail: "\(endpoint)") }
        return s
    }

    private func setTimeout(_ option: Int32, _ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(max(0, seconds)), tv_usec: Int(max(0, attoseconds) / 1_000_000_000_000))
        _ = setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Waits up to `timeout` until the socket is readable (or writable); false on timeout.
    public func wait(readable: Bool = true, timeout: Duration) throws(ProbeSocketError) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(readable ? POLLIN : POLLOUT), revents: 0)
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: max(0, seconds) * 1000 + max(0, attoseconds) / 1_000_000_000_000_000)
        while true {
            let result = poll(&entry, 1, milliseconds)
            if result >= 0 { return result > 0 }
            if Errno.current == .interrupted { continue }
            throw ProbeSocketError(call: "poll", errno: .current)
        }
    }

    /// The next connection, or nil if none came within `timeout`.
    public func accept(timeout: Duration) throws(ProbeSocketError) -> ProbeSocket? {
        guard try wait(timeout: timeout) else { return nil }
        let fd = Glibc.accept(descriptor, nil, nil)
        guard fd >= 0 else {
            if [EAGAIN, EINTR, ECONNABORTED].contains(Errno.current.rawValue) { return nil }
            throw ProbeSocketError(call: "accept", errno: .current)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return ProbeSocket(descriptor: fd)
    }

    /// Marks what this socket sends with an IPv6 traffic class (DSCP << 2), which Linux maps to the
    /// 802.11 user priority and so to the access category.
    public func setTrafficClass(_ value: UInt8) throws(ProbeSocketError) {
        var v = Int32(value)
        guard setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_TCLASS, &v, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw ProbeSocketError(call: "setsockopt(IPV6_TCLASS)", errno: .current)
        }
    }

    /// Sends all of `bytes`, waiting at most `timeout` for room each time.
    public func sendAll(_ bytes: [UInt8], timeout: Duration) throws(ProbeSocketError) {
        var offset = 0
        while offset < bytes.count {
            guard try wait(readable: false, timeout: timeout) else {
                throw ProbeSocketError(call: "timeout", errno: nil, detail: "no room to send for \(timeout)")
            }
            let sent = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if [EAGAIN, EINTR].contains(Errno.current.rawValue) { continue }
                throw ProbeSocketError(call: "send", errno: .current)
            }
            offset += sent
        }
    }

    /// Receives up to `maximum` bytes: nil if nothing came within `timeout`, an empty array at the end of
    /// the stream.
    public func receive(maximum: Int, timeout: Duration) throws(ProbeSocketError) -> [UInt8]? {
        guard try wait(timeout: timeout) else { return nil }
        var buffer = [UInt8](repeating: 0, count: max(1, maximum))
        let count = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if [EAGAIN, EINTR].contains(Errno.current.rawValue) { return nil }
            throw ProbeSocketError(call: "recv", errno: .current)
        }
        return Array(buffer.prefix(count))
    }

    /// Receives exactly `count` bytes within `timeout` overall, or throws (end of stream, timeout).
    public func receiveExactly(_ count: Int, timeout: Duration) throws(ProbeSocketError) -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        while bytes.count < count {
            let left = deadline - ContinuousClock.now
            guard left > .zero, let chunk = try receive(maximum: count - bytes.count, timeout: left) else {
                throw ProbeSocketError(call: "timeout", errno: nil, detail: "\(bytes.count) of \(count) bytes within \(timeout)")
            }
            guard !chunk.isEmpty else {
                throw ProbeSocketError(call: "recv", errno: nil, detail: "the peer closed after \(bytes.count) of \(count) bytes")
            }
            bytes += chunk
        }
        return bytes
    }

    /// Ends our direction of a TCP connection (the peer reads the end of the stream).
    public func shutdownWrite() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Sends one datagram on a connected UDP socket.
    public func sendDatagram(_ bytes: [UInt8]) throws(ProbeSocketError) {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent >= 0 else { throw ProbeSocketError(call: "send", errno: .current) }
    }

    /// A datagram's sender, to answer it with ``sendDatagram(_:to:)``.
    public struct Sender: Sendable {
        fileprivate var address: sockaddr_in6
    }

    /// Receives one datagram of at most `maximum` bytes and its sender; nil if none came within `timeout`.
    public func receiveDatagram(maximum: Int, timeout: Duration) throws(ProbeSocketError) -> (bytes: [UInt8], sender: Sender)? {
        guard try wait(timeout: timeout) else { return nil }
        var buffer = [UInt8](repeating: 0, count: max(1, maximum))
        var from = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let count = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, raw.baseAddress, raw.count, 0, $0, &length)
                }
            }
        }
        if count < 0 {
            if [EAGAIN, EINTR].contains(Errno.current.rawValue) { return nil }
            throw ProbeSocketError(call: "recvfrom", errno: .current)
        }
        return (Array(buffer.prefix(count)), Sender(address: from))
    }

    /// Answers a datagram's sender.
    public func sendDatagram(_ bytes: [UInt8], to sender: Sender) throws(ProbeSocketError) {
        var address = sender.address
        let sent = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        guard sent >= 0 else { throw ProbeSocketError(call: "sendto", errno: .current) }
    }
}

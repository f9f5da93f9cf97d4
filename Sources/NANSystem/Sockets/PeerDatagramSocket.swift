internal import Glibc
internal import Synchronization

/// A UDP socket over IPv6, the one datagram-socket type of the package: for a connection's best-effort
/// datagrams, bound to this side's link-local address on the NAN data interface, then connected to the
/// peer's address and port, so the kernel delivers only the peer's datagrams to it; the performance probes
/// use it connected (latency probes) or bound and answering each sender (their responder's echo).
///
/// Never waits to send: a datagram that finds no room in the send buffer is not sent (``send(_:)`` returns
/// false and the caller counts it). ``receive(maximum:timeout:)`` blocks for at most `timeout`; call it from
/// a thread of its own (``BlockingWork``), never from Swift's cooperative pool. ``cancel()`` makes every
/// later call fail; the descriptor is closed when the object is released.
public final class PeerDatagramSocket: @unchecked Sendable, CustomStringConvertible {
    let descriptor: Int32
    private let cancelled = Atomic<Bool>(false)
    /// The local port (the kernel's choice when bound to port 0).
    public let localPort: UInt16
    /// Where it is bound.
    public let local: LinkLocalEndpoint

    private init(descriptor: Int32, local: LinkLocalEndpoint) {
        self.descriptor = descriptor
        var address = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        localPort = ok == 0 ? UInt16(bigEndian: address.sin6_port) : 0
        var bound = local
        bound.port = localPort
        self.local = bound
    }

    deinit { close(descriptor) }

    /// `datagrams [fe80::1%nan0data]:40000`.
    public var description: String { "datagrams \(local)" }

    /// A UDP socket bound to `endpoint` (port 0: one the kernel picks, read it in ``localPort``).
    public static func bind(to endpoint: LinkLocalEndpoint) throws(StreamSocketError) -> PeerDatagramSocket {
        let fd = socket(
            AF_INET6, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw StreamSocketError(call: "socket", errno: .current, detail: "UDP") }
        let address: sockaddr_in6
        do { address = try endpoint.socketAddress() } catch {
            close(fd)
            throw error
        }
        var target = address
        let bound = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard bound == 0 else {
            let error = StreamSocketError(call: "bind", errno: .current, detail: "UDP \(endpoint)")
            close(fd)
            throw error
        }
        return PeerDatagramSocket(descriptor: fd, local: endpoint)
    }

    /// A UDP socket connected to `peer`, bound by the kernel to an address of the peer's interface.
    public static func connected(to peer: LinkLocalEndpoint) throws(StreamSocketError) -> PeerDatagramSocket {
        let fd = socket(
            AF_INET6, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw StreamSocketError(call: "socket", errno: .current, detail: "UDP") }
        var target: sockaddr_in6
        do { target = try peer.socketAddress() } catch {
            close(fd)
            throw error
        }
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard result == 0 else {
            let error = StreamSocketError(call: "connect", errno: .current, detail: "UDP \(peer)")
            close(fd)
            throw error
        }
        var local = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return PeerDatagramSocket(descriptor: fd, local: LinkLocalEndpoint(local))
    }

    /// Marks what this socket sends with an IPv6 traffic class (DSCP << 2), which Linux maps to the 802.11
    /// user priority and so to the access category.
    public func setTrafficClass(_ value: UInt8) throws(StreamSocketError) {
        var v = Int32(value)
        guard setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_TCLASS, &v, socklen_t(MemoryLayout<Int32>.size)) == 0
        else {
            throw StreamSocketError(call: "setsockopt(IPV6_TCLASS)", errno: .current)
        }
    }

    /// Sends to `peer` only and receives from `peer` only from now on.
    public func connect(to peer: LinkLocalEndpoint) throws(StreamSocketError) {
        var target = try peer.socketAddress()
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
        guard result == 0 else { throw StreamSocketError(call: "connect", errno: .current, detail: "UDP \(peer)") }
    }

    /// Sends one datagram to the connected peer without waiting: false when it was not sent (no room in the
    /// send buffer, or the peer's port answered unreachable), so the caller can count it.
    ///
    /// - Throws: ``StreamSocketError/cancelled(_:)`` after ``cancel()``; another error for a datagram the
    ///   kernel refuses outright (too large: `EMSGSIZE`).
    public func send(_ bytes: [UInt8]) throws(StreamSocketError) -> Bool {
        guard !isCancelled else { throw .cancelled("send datagram") }
        do throws(Errno) {
            _ = try SystemCall.retrying {
                OpenBytes.with(bytes) { Glibc.send(descriptor, $0, $1, Int32(MSG_NOSIGNAL)) }
            }
            return true
        } catch  where Self.notSent.contains(error) {
            return false
        } catch {
            throw StreamSocketError(call: "send", errno: error, detail: "UDP datagram of \(bytes.count) bytes")
        }
    }

    /// The next datagram (at most `maximum` bytes; a longer one comes back longer than `maximum`, cut, so
    /// the caller can tell), or nil when none came within `timeout`. Blocks the calling thread.
    ///
    /// - Throws: ``StreamSocketError/cancelled(_:)`` after ``cancel()``.
    public func receive(maximum: Int, timeout: Duration) throws(StreamSocketError) -> [UInt8]? {
        guard !isCancelled else { throw .cancelled("receive datagram") }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: max(0, seconds) * 1000 + max(0, attoseconds) / 1_000_000_000_000_000)
        let ready = poll(&entry, 1, milliseconds)
        if ready < 0 {
            if Errno.current == .interrupted { return nil }
            throw StreamSocketError(call: "poll", errno: .current)
        }
        guard !isCancelled else { throw .cancelled("receive datagram") }
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: max(1, maximum) + 1)
        let count: Int
        do throws(Errno) {
            count = try SystemCall.retrying {
                buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_TRUNC)) }
            }
        } catch  where Self.noDatagram.contains(error) {
            return nil
        } catch {
            throw StreamSocketError(call: "recv", errno: error, detail: "UDP")
        }
        return Array(buffer.prefix(min(count, buffer.count)))
    }

    /// A datagram's sender, to answer it with ``send(_:to:)`` (on a socket that is not connected).
    public struct Sender: Sendable {
        fileprivate var address: sockaddr_in6
    }

    /// The next datagram (at most `maximum` bytes) and its sender, or nil when none came within `timeout`.
    /// Blocks the calling thread.
    ///
    /// - Throws: ``StreamSocketError/cancelled(_:)`` after ``cancel()``.
    public func receiveWithSender(
        maximum: Int, timeout: Duration
    ) throws(StreamSocketError) -> (bytes: [UInt8], sender: Sender)? {
        guard !isCancelled else { throw .cancelled("receive datagram") }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = timeout.components
        let ready = poll(
            &entry, 1, Int32(clamping: max(0, seconds) * 1000 + max(0, attoseconds) / 1_000_000_000_000_000))
        guard !isCancelled else { throw .cancelled("receive datagram") }
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: max(1, maximum))
        var from = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let count: Int
        do throws(Errno) {
            count = try SystemCall.retrying {
                buffer.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &from) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            recvfrom(descriptor, raw.baseAddress, raw.count, 0, $0, &length)
                        }
                    }
                }
            }
        } catch  where error == .wouldBlock {
            return nil
        } catch {
            throw StreamSocketError(call: "recvfrom", errno: error, detail: "UDP")
        }
        return (Array(buffer.prefix(count)), Sender(address: from))
    }

    /// Answers a datagram's sender without waiting: false when it was not sent (no room in the send buffer).
    public func send(_ bytes: [UInt8], to sender: Sender) throws(StreamSocketError) -> Bool {
        guard !isCancelled else { throw .cancelled("send datagram") }
        var address = sender.address
        do throws(Errno) {
            _ = try SystemCall.retrying {
                OpenBytes.with(bytes) { base, count in
                    withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(
                                descriptor, base, count, Int32(MSG_NOSIGNAL), $0,
                                socklen_t(MemoryLayout<sockaddr_in6>.size))
                        }
                    }
                }
            }
            return true
        } catch  where error == .wouldBlock || error == .noBufferSpace {
            return false
        } catch {
            throw StreamSocketError(call: "sendto", errno: error, detail: "UDP")
        }
    }

    /// Why a datagram was not sent though nothing is wrong with the socket: no room in the send buffer, or the
    /// peer's port answered unreachable to an earlier one. The caller counts it as lost.
    static let notSent: Set<Errno> = [
        .wouldBlock, .noBufferSpace, .connectionRefused, .hostUnreachable, .networkUnreachable, .addressNotAvailable,
    ]

    /// Why a receive found no datagram: none queued, or an ICMP unreachable for an earlier send, which a
    /// connected socket reports here.
    static let noDatagram: Set<Errno> = [.wouldBlock, .connectionRefused, .hostUnreachable, .networkUnreachable]

    /// Makes every later call fail with `cancelled` (a receive waiting in `poll` notices within its
    /// timeout). Safe from any thread, more than once.
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

/// A pointer to an array's bytes that is never nil, even for an empty array.
private enum OpenBytes {
    static func with<R>(_ bytes: [UInt8], _ body: (UnsafeRawPointer, Int) -> R) -> R {
        if bytes.isEmpty {
            var placeholder: UInt8 = 0
            return withUnsafePointer(to: &placeholder) { body(UnsafeRawPointer($0), 0) }
        }
        return bytes.withUnsafeBytes { body($0.baseAddress!, $0.count) }
    }
}

internal import Glibc

/// A UDP socket over IPv6, the one datagram-socket type of the package: for a connection's best-effort
/// datagrams, bound to this side's link-local address on the NAN data interface, then connected to the
/// peer's address and port, so the kernel delivers only the peer's datagrams to it; the performance probes
/// use it connected (latency probes) or bound and answering each sender (their responder's echo).
///
/// Never waits to send: a datagram that finds no room in the send buffer is not sent (``send(_:to:)``
/// returns false and the caller counts it). ``receive(maximum:timeout:)`` awaits the socket's readiness on
/// Dispatch (``SocketDescriptor``), holding no thread, as ``StreamSocket`` does. ``cancel()`` (or cancelling
/// the waiting task) ends every wait at once and makes every later call fail; the descriptor is closed when
/// the object is released.
public final class PeerDatagramSocket: Sendable, CustomStringConvertible {
    let descriptor: SocketDescriptor
    /// Where it is bound.
    public let local: LinkLocalEndpoint

    private init(descriptor: SocketDescriptor, local: LinkLocalEndpoint) {
        self.descriptor = descriptor
        var bound = local
        bound.port = UInt16(bigEndian: descriptor.localAddress.sin6_port)
        self.local = bound
    }

    /// The local port (the kernel's choice when bound to port 0).
    public var localPort: UInt16 { local.port }

    /// `datagrams [fe80::1%nan0data]:40000`.
    public var description: String { "datagrams \(local)" }

    /// A UDP socket bound to `endpoint` (port 0: one the kernel picks, read it in ``localPort``).
    public static func bind(to endpoint: LinkLocalEndpoint) throws(StreamSocketError) -> PeerDatagramSocket {
        let descriptor = try SocketDescriptor(SOCK_DGRAM)
        try descriptor.call("bind", Glibc.bind, try endpoint.socketAddress(), detail: "UDP \(endpoint)")
        return PeerDatagramSocket(descriptor: descriptor, local: endpoint)
    }

    /// A UDP socket connected to `peer`, bound by the kernel to an address of the peer's interface.
    public static func connected(to peer: LinkLocalEndpoint) throws(StreamSocketError) -> PeerDatagramSocket {
        let descriptor = try SocketDescriptor(SOCK_DGRAM)
        try descriptor.call("connect", Glibc.connect, try peer.socketAddress(), detail: "UDP \(peer)")
        return PeerDatagramSocket(descriptor: descriptor, local: LinkLocalEndpoint(descriptor.localAddress))
    }

    /// Marks what this socket sends with an IPv6 traffic class (DSCP << 2), which Linux maps to the 802.11
    /// user priority and so to the access category.
    public func setTrafficClass(_ value: UInt8) throws(StreamSocketError) {
        do throws(Errno) { try descriptor.setOption(Int32(IPPROTO_IPV6), IPV6_TCLASS, to: Int32(value)) } catch {
            throw StreamSocketError(call: "setsockopt(IPV6_TCLASS)", errno: error)
        }
    }

    /// Sends to `peer` only and receives from `peer` only from now on.
    public func connect(to peer: LinkLocalEndpoint) throws(StreamSocketError) {
        try descriptor.call("connect", Glibc.connect, try peer.socketAddress(), detail: "UDP \(peer)")
    }

    /// A datagram's sender, to answer it with ``send(_:to:)`` (on a socket that is not connected).
    public struct Sender: Sendable {
        fileprivate var address: sockaddr_in6
    }

    /// Sends one datagram without waiting, to `sender` or (nil) to the connected peer: false when it was not
    /// sent (no room in the send buffer, or the peer's port answered unreachable), so the caller can count it.
    ///
    /// - Throws: ``StreamSocketError/cancelled(_:)`` after ``cancel()``; another error for a datagram the
    ///   kernel refuses outright (too large: `EMSGSIZE`).
    public func send(_ bytes: [UInt8], to sender: Sender? = nil) throws(StreamSocketError) -> Bool {
        guard !isCancelled else { throw .cancelled("send datagram") }
        let flags = Int32(MSG_NOSIGNAL)
        do throws(Errno) {
            _ = try SystemCall.retrying {
                bytes.withUnsafeBytes { raw in
                    guard let sender else { return sendto(descriptor.raw, raw.baseAddress, raw.count, flags, nil, 0) }
                    return sender.address.withSocketAddress {
                        sendto(descriptor.raw, raw.baseAddress, raw.count, flags, $0, $1)
                    }
                }
            }
            return true
        } catch  where Self.notSent.contains(error) {
            return false
        } catch {
            throw descriptor.failure("sendto", error, detail: "UDP datagram of \(bytes.count) bytes")
        }
    }

    /// The next datagram and its sender, or nil when none came within `timeout` (nil: wait until one
    /// comes). At most `maximum` bytes: a longer datagram comes back cut to `maximum + 1`, so the caller
    /// can tell.
    ///
    /// - Throws: ``StreamSocketError/cancelled(_:)`` after ``cancel()``.
    public func receive(
        maximum: Int, timeout: Duration? = nil
    ) async throws(StreamSocketError) -> (bytes: [UInt8], sender: Sender)? {
        guard !isCancelled else { throw .cancelled("receive datagram") }
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            do throws(StreamSocketError) {
                let (bytes, sender) = try await descriptor.receive(
                    capacity: maximum + 1, flags: Int32(MSG_TRUNC), until: deadline, detail: "UDP")
                return (bytes, Sender(address: sender))
            } catch  where error.isTimedOut {
                return nil
            } catch  where error.errno.map(Self.noDatagram.contains) == true {
                continue
            }
        }
    }

    /// Why a datagram was not sent though nothing is wrong with the socket: no room in the send buffer, or the
    /// peer's port answered unreachable to an earlier one. The caller counts it as lost.
    static let notSent: Set<Errno> = [
        .wouldBlock, .noBufferSpace, .connectionRefused, .hostUnreachable, .networkUnreachable, .addressNotAvailable,
    ]

    /// Why a receive found no datagram: an ICMP unreachable for an earlier send, which a connected socket
    /// reports here.
    static let noDatagram: Set<Errno> = [.connectionRefused, .hostUnreachable, .networkUnreachable]

    /// Ends every wait on the socket and makes every later call fail with `cancelled`. Safe from any thread,
    /// more than once.
    public func cancel() { descriptor.cancel() }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { descriptor.isCancelled }
}

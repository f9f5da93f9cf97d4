internal import Glibc
public import NANWire

/// An IPv6 link-local address on a named interface with a port: where a connection or a performance probe
/// goes over a NAN data path (`fe80::…%nan0data`, port 5301).
public struct LinkLocalEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The IPv6 address, e.g. `fe80::4000:ff:fe00:100` (its zone is ``interface``).
    public var address: IPv6Address
    /// The interface the address is on (its zone), e.g. `nan0data`.
    public var interface: String
    /// The TCP/UDP port.
    public var port: UInt16

    /// Creates an endpoint.
    public init(address: IPv6Address, interface: String, port: UInt16) {
        self.address = address
        self.interface = interface
        self.port = port
    }

    /// `[fe80::1%nan0data]:5301`.
    public var description: String { "[\(address)%\(interface)]:\(port)" }

    /// The socket address, or an error naming what is wrong (an unknown interface, a bad address).
    func socketAddress() throws(StreamSocketError) -> sockaddr_in6 {
        let index = if_nametoindex(interface)
        guard index != 0 else {
            throw StreamSocketError(call: "if_nametoindex", errno: .current, detail: "no interface \(interface)")
        }
        var a = sockaddr_in6()
        a.sin6_family = sa_family_t(AF_INET6)
        a.sin6_port = port.bigEndian
        a.sin6_scope_id = index
        withUnsafeMutableBytes(of: &a.sin6_addr) { raw in raw.copyBytes(from: address.bytes) }
        return a
    }

    /// The endpoint a socket address names (the interface is empty when it has no scope).
    init(_ socketAddress: sockaddr_in6) {
        let a = socketAddress
        var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
        let interface =
            a.sin6_scope_id != 0 && if_indextoname(a.sin6_scope_id, &name) != nil
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let bytes = withUnsafeBytes(of: a.sin6_addr) { Array($0) }
        self.init(
            address: IPv6Address(bytes: bytes) ?? .unspecified,
            interface: interface, port: UInt16(bigEndian: a.sin6_port))
    }
}

extension sockaddr_in6 {
    /// Runs `body` with this address as the `sockaddr` pointer and length that `bind`, `connect` and
    /// `sendto` take.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = self
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Self>.size)) }
        }
    }

    /// Runs `body` with this address as the `sockaddr` pointer and length that `getsockname`, `accept` and
    /// `recvfrom` fill.
    mutating func fill<Result>(
        _ body: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Result
    )
        -> Result
    {
        var length = socklen_t(MemoryLayout<Self>.size)
        return withUnsafeMutablePointer(to: &self) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &length) }
        }
    }
}

internal import Glibc
public import NANWire

/// Permanent IPv6 neighbour entries (rtnetlink `RTM_NEWNEIGH`, `NUD_PERMANENT`): the link-layer address a
/// data path's peer address resolves to, fixed when the data path comes up.
///
/// Neighbour discovery believes any Neighbour Advertisement on the link. On an NDI shared by several data
/// paths, a peer could answer for another peer's link-local address and so take its TCP connections (a
/// listener knows a connection's data path by its source address). A permanent entry is never replaced by
/// an advertisement, so the address stays bound to the station the data path keyed.
public enum NeighborTable {
    /// `RTM_NEWNEIGH`.
    static let newNeighbor: UInt16 = 28
    /// `NLM_F_REPLACE | NLM_F_CREATE`.
    static let replaceOrCreate: UInt16 = 0x100 | 0x400
    /// `NUD_PERMANENT`.
    static let permanent: UInt16 = 0x80
    /// `NDA_DST`, `NDA_LLADDR`.
    static let attributeDestination: UInt16 = 1, attributeLinkAddress: UInt16 = 2

    /// Binds `address` (16 bytes, IPv6) to `linkAddress` on the interface with index `interface`, replacing
    /// whatever the kernel had learned.
    ///
    /// - Throws: ``NetlinkError`` with the kernel's refusal (`permissionDenied` without `CAP_NET_ADMIN`,
    ///   `noSuchDevice` for an interface gone), or a socket failure.
    public static func pin(_ address: [UInt8], to linkAddress: MACAddress, interface: UInt32) throws(NetlinkError) {
        let request = try Self.request(address, to: linkAddress, interface: interface, sequence: 1)
        // NETLINK_ROUTE is protocol 0. Spelled here: importing the kernel's netlink headers beside Glibc's
        // hides Glibc's SOCK_* constants from the other files of this module.
        let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw NetlinkError(code: .system, errno: .current, call: "socket", detail: "NETLINK_ROUTE")
        }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // An unconnected netlink socket sends to the kernel (port 0).
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else {
            throw NetlinkError(code: .system, errno: .current, call: "sendto", detail: "RTM_NEWNEIGH")
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard received > 0 else {
            throw NetlinkError(code: .system, errno: .current, call: "recv", detail: "RTM_NEWNEIGH acknowledgement")
        }
        for message in try NetlinkMessage.split(datagram: Array(buffer.prefix(received)))
        where message.type == NetlinkMessage.typeError {
            let ack = try NetlinkAck(message)
            if let refusal = ack.refusal {
                let code: NetlinkError.Code =
                    switch refusal {
                    case .notPermitted, .accessDenied: .permissionDenied
                    case .noSuchDevice: .noSuchDevice
                    default: .kernel
                    }
                throw NetlinkError(code: code, errno: refusal, kernelMessage: ack.kernelMessage, call: "RTM_NEWNEIGH")
            }
            return
        }
        throw NetlinkError.malformed("no acknowledgement of RTM_NEWNEIGH", at: 0)
    }

    /// The request: `nlmsghdr`, `struct ndmsg` (AF_INET6, the interface, NUD_PERMANENT), then `NDA_DST` and
    /// `NDA_LLADDR`.
    static func request(
        _ address: [UInt8], to linkAddress: MACAddress, interface: UInt32, sequence: UInt32
    ) throws(NetlinkError) -> [UInt8] {
        guard address.count == 16 else {
            throw NetlinkError(
                code: .invalidRequest, call: "RTM_NEWNEIGH",
                detail: "an IPv6 address has 16 bytes, not \(address.count)")
        }
        var body: [UInt8] = [UInt8(AF_INET6), 0, 0, 0]  // family, padding
        appendU32(&body, interface)  // ifindex (host order, as the kernel reads it)
        appendU16(&body, permanent)  // state
        body += [0, 0]  // flags, type
        var attributes = NetlinkAttributeWriter()
        try attributes.putRaw(type: attributeDestination, payload: address)
        try attributes.putRaw(type: attributeLinkAddress, payload: linkAddress.bytes)
        body += attributes.bytes
        var message: [UInt8] = []
        appendU32(&message, UInt32(NetlinkMessage.headerSize + body.count))
        appendU16(&message, newNeighbor)
        appendU16(&message, NetlinkMessage.flagRequest | NetlinkMessage.flagAck | replaceOrCreate)
        appendU32(&message, sequence)
        appendU32(&message, 0)
        return message + body
    }
}

internal import CNetlink
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// The one place libnl is called from. Every call goes through one of these helpers, which turn a
/// failure into a ``NetlinkError`` naming the call.
///
/// Policy: the raw `errno` is kept when the call failed in a system call (libnl leaves it set); libnl's
/// own error code is only shown as text in `detail`, never used as our code, because libnl merges
/// distinct errnos (ENOBUFS and ENOMEM are both NLE_NOMEM). A caller may map one specific libnl code
/// (`genl_ctrl_resolve_grp`'s NLE_OBJ_NOTFOUND) to a code of ours with `notFound`.
enum LibNL {
    /// Runs a libnl call that returns a negative libnl error code on failure.
    ///
    /// - Parameters:
    ///   - call: the libnl function name, for the error.
    ///   - notFound: the code to use when libnl says NLE_OBJ_NOTFOUND.
    ///   - body: the call.
    @discardableResult
    static func call(
        _ call: String, notFound: NetlinkError.Code? = nil, _ body: () -> Int32
    ) throws(NetlinkError) -> Int32 {
        Glibc.errno = 0
        let result = body()
        guard result < 0 else { return result }
        let savedErrno = Glibc.errno
        if -result == NLE_OBJ_NOTFOUND, let notFound {
            throw NetlinkError(code: notFound, errno: .noSuchFile, call: call, detail: nil)
        }
        throw NetlinkError(
            code: .system, errno: savedErrno != 0 ? Errno(rawValue: savedErrno) : nil, call: call,
            detail: "libnl: \(String(cString: nl_geterror(result)))")
    }

    /// Runs a libnl call that returns a pointer, nil meaning failure.
    static func pointer(_ call: String, _ body: () -> OpaquePointer?) throws(NetlinkError) -> OpaquePointer {
        Glibc.errno = 0
        guard let pointer = body() else {
            let savedErrno = Glibc.errno
            throw NetlinkError(
                code: .system, errno: savedErrno != 0 ? Errno(rawValue: savedErrno) : .noMemory, call: call)
        }
        return pointer
    }
}

/// A resolved generic netlink family.
struct GenericNetlinkFamily: Sendable, Hashable {
    /// The family's name, e.g. `nl80211`.
    var name: String
    /// The numeric id used as `nlmsg_type`.
    var id: UInt16
    /// The highest attribute number this kernel's family accepts (`CTRL_ATTR_MAXATTR`).
    var maxAttribute: UInt32
}

/// The raw `nl_sock` pointer. `@unchecked Sendable` because C pointers are not Sendable to the
/// compiler; it is sound because the pointer is only ever used inside ``NetlinkSocket``'s lock.
private struct LibNLSocketPointer: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Owns one libnl `nl_sock` connected to generic netlink.
///
/// The C pointer lives in a `Mutex`: every use (sending, resolving) and the final `nl_socket_free`
/// take the lock, so a request racing `close()` gets a `closed` error instead of touching freed memory.
/// The descriptor is read by the connection's reader, which has stopped before ``free()`` is called.
final class NetlinkSocket: Sendable {
    /// The libnl socket; nil once freed.
    private let socket: Mutex<LibNLSocketPointer?>
    /// The socket's file descriptor (read by the connection's reader).
    let fileDescriptor: Int32
    /// The netlink port id the kernel assigned to us.
    let localPort: UInt32

    /// Opens and connects a generic netlink socket with extended acks on.
    init() throws(NetlinkError) {
        let socket = try LibNL.pointer("nl_socket_alloc") { nl_socket_alloc() }
        do throws(NetlinkError) {
            try LibNL.call("genl_connect") { genl_connect(socket) }
            try LibNL.call("nl_socket_set_nonblocking") { nl_socket_set_nonblocking(socket) }
            // A large receive buffer makes overruns rare; they are still reported when they happen.
            try LibNL.call("nl_socket_set_buffer_size") { nl_socket_set_buffer_size(socket, 4 << 20, 0) }
            let fd = nl_socket_get_fd(socket)
            // NETLINK_EXT_ACK: the kernel explains refusals in text. NETLINK_CAP_ACK: errors do not echo our request.
            for option in [NETLINK_EXT_ACK, NETLINK_CAP_ACK] {
                var one: Int32 = 1
                guard setsockopt(fd, Int32(SOL_NETLINK), option, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                    throw NetlinkError(
                        code: .system, errno: .current, call: "setsockopt",
                        detail: "netlink option \(option)")
                }
            }
            self.fileDescriptor = fd
            self.localPort = nl_socket_get_local_port(socket)
            self.socket = Mutex(LibNLSocketPointer(pointer: socket))
        } catch {
            nl_socket_free(socket)
            throw error
        }
    }

    /// Runs `body` with the live socket, or throws `closed` (naming `call`) if it was freed.
    private func withSocket<T>(
        _ call: String, _ body: (OpaquePointer) throws(NetlinkError) -> T
    ) throws(NetlinkError) -> T {
        let result = socket.withLock { (pointer) -> Result<T, NetlinkError> in
            guard let pointer else { return .failure(NetlinkError(code: .closed, call: call)) }
            do throws(NetlinkError) {
                return .success(try body(pointer.pointer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Resolves a family by name (synchronously; only before the reader starts).
    ///
    /// - Throws: `familyNotFound` (or `missingCode`) if the kernel has no such family.
    func resolveFamily(
        _ name: String, missingCode: NetlinkError.Code = .familyNotFound
    ) throws(NetlinkError) -> GenericNetlinkFamily {
        try withSocket("genl_ctrl_alloc_cache") { (socket) throws(NetlinkError) in
            var cache: OpaquePointer?
            try LibNL.call("genl_ctrl_alloc_cache") { genl_ctrl_alloc_cache(socket, &cache) }
            guard let cache else { throw NetlinkError(code: .system, call: "genl_ctrl_alloc_cache") }
            defer { nl_cache_free(cache) }
            guard let family = genl_ctrl_search_by_name(cache, name) else {
                throw NetlinkError(
                    code: missingCode, errno: .noSuchFile, call: "genl_ctrl_search_by_name",
                    detail: "no generic netlink family \"\(name)\"")
            }
            defer { genl_family_put(family) }
            let id = genl_family_get_id(family)
            return GenericNetlinkFamily(
                name: name, id: UInt16(truncatingIfNeeded: id),
                maxAttribute: genl_family_get_maxattr(family))
        }
    }

    /// The id of a multicast group of a family. Resolve every group before joining any: once the socket is
    /// in a group, an event of that group can arrive before the controller's reply, and libnl then reports
    /// the family as not found.
    func resolveGroup(family: String, group: String) throws(NetlinkError) -> Int32 {
        try withSocket("genl_ctrl_resolve_grp") { (socket) throws(NetlinkError) in
            try LibNL.call("genl_ctrl_resolve_grp", notFound: .familyNotFound) {
                genl_ctrl_resolve_grp(socket, family, group)
            }
        }
    }

    /// Joins a multicast group resolved with ``resolveGroup(family:group:)``.
    func joinGroup(_ id: Int32) throws(NetlinkError) {
        try withSocket("nl_socket_add_membership") { (socket) throws(NetlinkError) in
            _ = try LibNL.call("nl_socket_add_membership") { nl_socket_add_membership(socket, id) }
        }
    }

    /// Sends one encoded netlink message to the kernel.
    func send(_ bytes: [UInt8]) throws(NetlinkError) {
        try withSocket("nl_sendto") { (socket) throws(NetlinkError) in
            var copy = bytes
            let sent = try LibNL.call("nl_sendto") {
                copy.withUnsafeMutableBytes { nl_sendto(socket, $0.baseAddress, $0.count) }
            }
            guard Int(sent) == bytes.count else {
                throw NetlinkError(code: .system, call: "nl_sendto", detail: "sent \(sent) of \(bytes.count) bytes")
            }
        }
    }

    /// Frees the socket (closes the descriptor). Idempotent; call after the reader has stopped.
    func free() {
        socket.withLock { pointer in
            if let live = pointer { nl_socket_free(live.pointer) }
            pointer = nil
        }
    }
}

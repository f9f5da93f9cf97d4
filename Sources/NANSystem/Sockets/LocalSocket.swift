internal import Glibc

/// Who is at the other end of a local socket, as the kernel says (`SO_PEERCRED`): not what the peer
/// claims, so a daemon may decide on it.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    /// The peer's process id when it connected.
    public var processID: Int32
    /// Its effective user id.
    public var userID: UInt32
    /// Its effective group id.
    public var groupID: UInt32

    /// Makes credentials (tests).
    public init(processID: Int32, userID: UInt32, groupID: UInt32) {
        self.processID = processID
        self.userID = userID
        self.groupID = groupID
    }

    /// `pid 42 uid 1000 gid 1000`.
    public var description: String { "pid \(processID) uid \(userID) gid \(groupID)" }

    /// Whether the peer runs as root.
    public var isRoot: Bool { userID == 0 }

    /// Whether the peer's user belongs to `group` (its primary group or a supplementary one, from the
    /// group database: `getgrnam(3)`, `getpwuid(3)`, `getgrouplist(3)`). False when the group does not exist.
    public func isMember(ofGroup group: String) -> Bool {
        guard let entry = getgrnam(group) else { return false }
        let wanted = entry.pointee.gr_gid
        if groupID == wanted { return true }
        guard let user = getpwuid(userID), let name = user.pointee.pw_name else { return false }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, user.pointee.pw_gid, &groups, &count) == -1 {
            groups = [gid_t](repeating: 0, count: Int(max(count, 1)))
            guard getgrouplist(name, user.pointee.pw_gid, &groups, &count) != -1 else { return false }
        }
        return groups.prefix(Int(count)).contains(wanted)
    }
}

/// A Unix-domain stream socket (`AF_UNIX`): a listener at a path, or one connection; the daemon's socket and
/// its clients' connections.
///
/// As ``StreamSocket``: non-blocking, every wait on Dispatch (``SocketDescriptor``), ``cancel()`` ends every
/// wait at once, the descriptor is closed when the object is released.
public final class LocalSocket: Sendable, CustomStringConvertible {
    let descriptor: SocketDescriptor
    /// The path of a listener, or the path connected to.
    public let path: String
    /// The peer of an accepted connection, as the kernel reported it.
    public let peer: PeerCredentials?

    private init(descriptor: SocketDescriptor, path: String, peer: PeerCredentials?) {
        self.descriptor = descriptor
        self.path = path
        self.peer = peer
    }

    /// `local /run/waware/wawared.socket` or `local peer pid 42 uid 0 gid 0`.
    public var description: String { peer.map { "local peer \($0)" } ?? "local \(path)" }

    /// The longest path a socket address holds (`sun_path` less its terminating zero).
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    private static func address(_ path: String) throws(StreamSocketError) -> sockaddr_un {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPathLength, !bytes.contains(0) else {
            throw StreamSocketError(
                call: "socket", errno: .invalidArgument,
                detail: "\(path): a socket path is 1 to \(maximumPathLength) bytes")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }

    private static func call(
        _ name: String, _ function: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32, _ raw: Int32,
        _ address: sockaddr_un, detail: String
    ) throws(StreamSocketError) {
        var address = address
        do throws(Errno) {
            _ = try SystemCall.retrying {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        function(raw, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
        } catch {
            throw StreamSocketError(call: name, errno: error, detail: detail)
        }
    }

    /// A listener at `path`, replacing a stale socket file left there, with the file's `mode` (e.g.
    /// `0o660`) and, when `group` names an existing group, that group. A path another live listener holds is
    /// refused (`bind: EADDRINUSE`) rather than taken over.
    public static func listen(
        at path: String, mode: UInt32 = 0o660, group: String? = nil, backlog: Int32 = 64
    ) throws(StreamSocketError) -> LocalSocket {
        let address = try address(path)
        // A socket file nobody answers on is stale: remove it. One that answers is another daemon's.
        if access(path, F_OK) == 0 {
            let probe = try SocketDescriptor(SOCK_STREAM, family: AF_UNIX)
            var answered = true
            do throws(StreamSocketError) {
                try call("connect", Glibc.connect, probe.raw, address, detail: path)
            } catch  where error.errno == .wouldBlock || error.errno == .nowInProgress {
            } catch {
                answered = false
            }
            if answered {
                throw StreamSocketError(call: "bind", errno: Errno(rawValue: EADDRINUSE), detail: "\(path) is served")
            }
            unlink(path)
        }
        let descriptor = try SocketDescriptor(SOCK_STREAM, family: AF_UNIX)
        try call("bind", Glibc.bind, descriptor.raw, address, detail: path)
        if let group, let entry = getgrnam(group) { _ = chown(path, 0, entry.pointee.gr_gid) }
        _ = chmod(path, mode_t(mode))
        do throws(Errno) {
            _ = try SystemCall.retrying { Glibc.listen(descriptor.raw, backlog) }
        } catch {
            throw StreamSocketError(call: "listen", errno: error, detail: path)
        }
        return LocalSocket(descriptor: descriptor, path: path, peer: nil)
    }

    /// Takes over a listening descriptor handed over by systemd's socket activation (`LISTEN_FDS`: the
    /// first is 3), making it non-blocking and close-on-exec.
    public static func adoptListener(descriptor raw: Int32, path: String) -> LocalSocket {
        _ = try? SystemCall.retrying { fcntl(raw, F_SETFD, FD_CLOEXEC) }
        let flags = fcntl(raw, F_GETFL)
        _ = try? SystemCall.retrying { fcntl(raw, F_SETFL, (flags == -1 ? 0 : flags) | O_NONBLOCK) }
        return LocalSocket(descriptor: SocketDescriptor(adopting: raw), path: path, peer: nil)
    }

    /// Removes the listener's socket file (a daemon's at its end).
    public func unlinkPath() { unlink(path) }

    /// A connection to the listener at `path`. Fails at once (`ENOENT`, `ECONNREFUSED`, `EACCES`) when
    /// nothing listens there or the caller may not open it; waits at most `timeout` for a full backlog.
    public static func connect(to path: String, timeout: Duration) async throws(StreamSocketError) -> LocalSocket {
        let address = try address(path)
        let descriptor = try SocketDescriptor(SOCK_STREAM, family: AF_UNIX)
        do throws(StreamSocketError) {
            try call("connect", Glibc.connect, descriptor.raw, address, detail: path)
        } catch  where error.errno == .wouldBlock || error.errno == .nowInProgress {
            try await descriptor.wait(for: .writable, until: ContinuousClock.now + timeout, what: "connect to \(path)")
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = try? SystemCall.retrying { getsockopt(descriptor.raw, SOL_SOCKET, SO_ERROR, &code, &length) }
            guard code == 0 else {
                throw StreamSocketError(call: "connect", errno: Errno(rawValue: code), detail: path)
            }
        }
        return LocalSocket(descriptor: descriptor, path: path, peer: nil)
    }

    /// `SO_PEERCRED` (17 on Linux).
    static let peerCredentialsOption: Int32 = 17

    /// The next connection, with its peer's credentials. Waits until one comes or the listener is cancelled.
    public func accept() async throws(StreamSocketError) -> LocalSocket {
        while true {
            do throws(Errno) {
                let fd = try SystemCall.retrying { Glibc.accept(descriptor.raw, nil, nil) }
                let accepted = SocketDescriptor(adopting: fd)
                _ = try? SystemCall.retrying { fcntl(fd, F_SETFD, FD_CLOEXEC) }
                _ = try? SystemCall.retrying { fcntl(fd, F_SETFL, O_NONBLOCK) }
                // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (glibc declares it only with _GNU_SOURCE).
                var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, .max, .max)
                var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
                _ = try? SystemCall.retrying {
                    getsockopt(fd, SOL_SOCKET, Self.peerCredentialsOption, &credentials, &length)
                }
                let peer = PeerCredentials(
                    processID: credentials.pid, userID: credentials.uid, groupID: credentials.gid)
                return LocalSocket(descriptor: accepted, path: path, peer: peer)
            } catch  where error == .wouldBlock {
                try await descriptor.wait(for: .readable, until: nil, what: "accept")
            } catch  where error == .connectionAborted {
                continue
            } catch {
                throw descriptor.failure("accept", error)
            }
        }
    }

    /// Sends every byte, waiting for room while the peer does not read, at most `timeout` each time (a peer
    /// that stops reading is thus found out).
    public func send(_ bytes: [UInt8], timeout: Duration? = nil) async throws(StreamSocketError) {
        try await descriptor.send(bytes, timeout: timeout, detail: path)
    }

    /// Receives up to `maximum` bytes, waiting until some come: an empty array is the end of the stream.
    public func receive(maximum: Int, timeout: Duration? = nil) async throws(StreamSocketError) -> [UInt8] {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            var failure: Errno?
            let bytes = [UInt8](unsafeUninitializedCapacity: max(1, maximum)) { buffer, initialized in
                do throws(Errno) {
                    initialized = try SystemCall.retrying { recv(descriptor.raw, buffer.baseAddress, buffer.count, 0) }
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            guard let failure else { return bytes }
            guard failure == .wouldBlock else { throw descriptor.failure("recv", failure, detail: path) }
            try await descriptor.wait(for: .readable, until: deadline, what: "receive")
        }
    }

    /// Shuts the socket down both ways and ends every call waiting on it with `cancelled`.
    public func cancel() { descriptor.cancel() }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { descriptor.isCancelled }
}

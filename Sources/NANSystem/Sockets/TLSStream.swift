public import NANCrypto

/// A ``TLSSession`` driven over a connected ``StreamSocket``: TLS 1.3 with mutual authentication, async
/// reads and writes of plaintext.
///
/// ```swift
/// let socket = try await StreamSocket.connect(to: endpoint, timeout: .seconds(10))
/// let stream = try await TLSStream.handshake(.client, over: socket, identity: identity, trust: .pinned(fingerprint))
/// try await stream.write(Array("ping".utf8))
/// let reply = try await stream.read()        // [] once the peer closed with close_notify
/// await stream.close()
/// ```
///
/// Backpressure: ``write(_:timeout:)`` encrypts at most 64 KiB at a time and returns only when the kernel
/// has taken all of it, so a writer waits while the peer does not read and nothing queues without bound. One
/// reader and any number of writers may use it at once (reads are served in turn, writes in order). The end
/// of the stream without the peer's `close_notify` and a reset are typed errors
/// (``TLSError/Code-swift.struct/unexpectedEndOfStream``, ``TLSError/Code-swift.struct/connectionReset``).
public actor TLSStream {
    /// The peer's certificate, trusted during the handshake.
    public nonisolated let peerCertificate: PeerCertificate
    /// Why the peer was trusted (``TLSTrust/Basis/firstUse``: store its fingerprint now).
    public nonisolated let trustBasis: TLSTrust.Basis
    /// The socket under the session.
    public nonisolated let socket: StreamSocket

    let session: TLSSession
    /// The turns to read and to send (``Turn/read``, ``Turn/send``).
    private var turns = [Turn(), Turn()]

    /// The largest plaintext encrypted in one step, and the largest read from the socket at once.
    static let chunkSize = 64 * 1024

    private init(socket: StreamSocket, session: TLSSession, peer: PeerCertificate, basis: TLSTrust.Basis) {
        self.socket = socket
        self.session = session
        self.peerCertificate = peer
        self.trustBasis = basis
    }

    /// Runs the TLS handshake over `socket` as `role`.
    ///
    /// On failure the alert for the peer is sent (briefly) and the socket's sending side is shut.
    ///
    /// - Parameters:
    ///   - role: ``TLSSession/Role/client`` for the side that connected, ``TLSSession/Role/server`` for the
    ///     side that accepted.
    ///   - identity: this device's identity.
    ///   - trust: how to decide on the peer's certificate.
    ///   - timeout: for the whole handshake.
    /// - Throws: ``TLSError``: `.untrustedPeer` (with the fingerprint), `.refusedByPeer`,
    ///   `.missingPeerCertificate`, `.unsupportedVersion`, `.timedOut`, `.unexpectedEndOfStream`,
    ///   `.connectionReset`, `.cancelled`, …
    public static func handshake(
        _ role: TLSSession.Role, over socket: StreamSocket, identity: TLSIdentity, trust: TLSTrust,
        timeout: Duration = .seconds(30)
    ) async throws(TLSError) -> TLSStream {
        let session = try TLSSession(role: role, identity: identity, trust: trust)
        let deadline = ContinuousClock.now + timeout
        do throws(TLSError) {
            try session.start()
            while session.isHandshaking {
                try await send(session.takeOutgoing(), on: socket, until: deadline)
                let received = try await receive(on: socket, until: deadline)
                guard !received.isEmpty else {
                    throw TLSError(.unexpectedEndOfStream, "the peer closed the connection during the TLS handshake")
                }
                try session.receive(received)
            }
            try await send(session.takeOutgoing(), on: socket, until: deadline)
        } catch {
            // Tell the peer why (the alert libssl queued), without waiting long for it.
            if session.hasOutgoing {
                try? await send(session.takeOutgoing(), on: socket, until: .now + .seconds(1))
            }
            socket.shutdownWrite()
            throw error
        }
        guard let peer = session.peerCertificate, let basis = session.trustBasis else {
            throw TLSError(.missingPeerCertificate, "the handshake finished without a trusted peer certificate")
        }
        return TLSStream(socket: socket, session: session, peer: peer, basis: basis)
    }

    /// Reads the next plaintext bytes, at most `maximum`: what the records received so far decrypt to.
    ///
    /// - Parameter timeout: how long to wait for data; nil waits without limit.
    /// - Returns: the bytes; an empty array once the peer closed with `close_notify`.
    /// - Throws: ``TLSError``: `.unexpectedEndOfStream` (the connection ended without `close_notify`),
    ///   `.connectionReset`, `.timedOut`, `.cancelled`, `.protocolError`.
    public func read(maximum: Int = 64 * 1024, timeout: Duration? = nil) async throws(TLSError) -> [UInt8] {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        await acquire(Turn.read)
        defer { release(Turn.read) }
        while true {
            switch try session.read(maximum: maximum) {
            case .bytes(let bytes): return bytes
            case .endOfStream: return []
            case .wantsInput: break
            }
            let received = try await Self.receive(on: socket, until: deadline)
            guard !received.isEmpty else {
                throw TLSError(.unexpectedEndOfStream, "the peer closed the connection without TLS close_notify")
            }
            try session.receive(received)
        }
    }

    /// Encrypts and sends all of `bytes`, 64 KiB at a time, each piece handed to the kernel before the next
    /// is encrypted.
    ///
    /// - Parameter timeout: how long to wait for room in the socket each time; nil waits without limit.
    /// - Throws: ``TLSError``: `.connectionReset`, `.timedOut`, `.cancelled`, `.closed` after ``close()``.
    public func write(_ bytes: [UInt8], timeout: Duration? = nil) async throws(TLSError) {
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + Self.chunkSize)
            try session.write(bytes[offset..<end])
            try await flush(timeout: timeout)
            offset = end
        } while offset < bytes.count
    }

    /// Closes this side: sends `close_notify` and ends the socket's sending side. The peer reads the end of
    /// the stream; this side may still read what the peer sends until its `close_notify`.
    public func close(timeout: Duration = .seconds(5)) async {
        session.close()
        try? await flush(timeout: timeout)
        socket.shutdownWrite()
    }

    /// Drops the connection at once, both ways, without `close_notify`; waiting calls throw.
    public nonisolated func abort() {
        socket.cancel()
    }

    // MARK: Sending in order

    private func flush(timeout: Duration?) async throws(TLSError) {
        await acquire(Turn.send)
        defer { release(Turn.send) }
        while session.hasOutgoing {
            let bytes = session.takeOutgoing(maximum: 4 * Self.chunkSize)
            try await Self.send(bytes, on: socket, until: timeout.map { ContinuousClock.now + $0 })
        }
    }

    /// A FIFO of tasks waiting for their turn (to read, or to send).
    private struct Turn {
        static let read = 0
        static let send = 1
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private func acquire(_ turn: Int) async {
        if !turns[turn].busy {
            turns[turn].busy = true
            return
        }
        await withCheckedContinuation { turns[turn].waiting.append($0) }
    }

    private func release(_ turn: Int) {
        if turns[turn].waiting.isEmpty {
            turns[turn].busy = false
        } else {
            turns[turn].waiting.removeFirst().resume()  // the turn passes on: busy stays true
        }
    }

    // MARK: Socket errors as TLS errors

    private static func send(
        _ bytes: [UInt8], on socket: StreamSocket, until deadline: ContinuousClock.Instant?
    ) async throws(TLSError) {
        guard !bytes.isEmpty else { return }
        do throws(StreamSocketError) {
            try await socket.send(bytes, timeout: deadline.map { $0 - .now })
        } catch {
            throw tlsError(error)
        }
    }

    private static func receive(
        on socket: StreamSocket, until deadline: ContinuousClock.Instant?
    ) async throws(TLSError) -> [UInt8] {
        do throws(StreamSocketError) {
            if let deadline, deadline <= .now { throw StreamSocketError.timedOut("receive") }
            return try await socket.receive(maximum: chunkSize, timeout: deadline.map { $0 - .now })
        } catch {
            throw tlsError(error)
        }
    }

    static func tlsError(_ error: StreamSocketError) -> TLSError {
        let code: TLSError.Code =
            if error.isCancelled { .cancelled } else if error.isTimedOut {
                .timedOut
            } else if let errno = error.errno, errno == .connectionReset || errno == .brokenPipe {
                .connectionReset
            } else { .socket }
        return TLSError(code, error.description)
    }
}

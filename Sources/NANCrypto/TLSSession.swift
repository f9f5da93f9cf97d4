/// One TLS 1.3 session with mutual authentication, over memory: the caller pumps it.
///
/// No sockets, files or threads: the caller feeds what it received (``receive(_:)``), sends what
/// ``takeOutgoing(maximum:)`` gives, and reads and writes plaintext once the session is
/// ``State-swift.enum/established(_:)``. Both sides present their ``TLSIdentity`` and require the other's
/// certificate, and each decides during the handshake, with its ``TLSTrust``, whether to accept it: a refused
/// peer fails the handshake on both sides with a `bad_certificate` alert, this side with
/// ``TLSError/Code-swift.struct/untrustedPeer``, the other with ``TLSError/Code-swift.struct/refusedByPeer``.
///
/// ```swift
/// let session = try TLSSession(role: .client, identity: identity, trust: .pinned(fingerprint))
/// try session.start()
/// while case .handshaking = session.state {
///     send(session.takeOutgoing())
///     try session.receive(await receive())
/// }
/// ```
///
/// In TLS 1.3 a client finishes its handshake before the server has checked the client's certificate; this
/// session therefore stays ``State-swift.enum/handshaking`` on the client until the server's first message
/// after the handshake (its session ticket) arrives, so that a server's refusal fails the client's handshake
/// too, not its first read. TLS 1.2 and older are refused. Not thread-safe: one caller at a time
/// (`NANSystem.TLSStream` drives one over a socket).
public final class TLSSession {
    /// Which end of the handshake this side is.
    public enum Role: Hashable, Sendable {
        /// Sends the first message (connects).
        case client
        /// Answers (accepts).
        case server
    }

    /// Where the session is.
    public enum State: Sendable, CustomStringConvertible {
        /// The handshake is under way.
        case handshaking
        /// The handshake finished and the peer's certificate was trusted.
        case established(PeerCertificate)
        /// The session failed; it sends and receives nothing more (an alert may still be waiting in
        /// ``takeOutgoing(maximum:)``).
        case failed(TLSError)
        /// This side closed (``close()``); reading continues until the peer's `close_notify`.
        case closed

        /// `handshaking`, `established (…)`, `failed: …`, `closed`.
        public var description: String {
            switch self {
            case .handshaking: "handshaking"
            case .established(let peer): "established (\(peer))"
            case .failed(let error): "failed: \(error)"
            case .closed: "closed"
            }
        }
    }

    /// What ``read(maximum:)`` gave.
    public enum ReadResult: Hashable, Sendable {
        /// Decrypted bytes (never empty).
        case bytes([UInt8])
        /// Nothing decrypted yet: feed more ciphertext.
        case wantsInput
        /// The peer closed its side with `close_notify`: nothing more will come.
        case endOfStream
    }

    /// This side's role.
    public let role: Role
    /// Where the session is.
    public private(set) var state: State = .handshaking
    /// Why the peer's certificate was trusted (once it was).
    public private(set) var trustBasis: TLSTrust.Basis?
    /// Whether the peer's `close_notify` arrived.
    public private(set) var isPeerClosed = false

    let engine: TLSEngine
    private var handshakeFinished = false
    /// Plaintext that arrived while the client was waiting for the server's acceptance.
    private var pendingPlaintext: [UInt8] = []

    /// A TLS 1.3 session presenting `identity` and trusting peers by `trust`.
    ///
    /// - Throws: ``TLSError/Code-swift.struct/library`` if libssl cannot make the session.
    public convenience init(role: Role, identity: TLSIdentity, trust: TLSTrust) throws(TLSError) {
        try self.init(role: role, identity: Optional(identity), trust: trust, minimum: .tls13, maximum: .tls13)
    }

    /// For tests: a session without a certificate, or with other TLS versions.
    init(
        role: Role, identity: TLSIdentity?, trust: TLSTrust, minimum: TLSProtocolVersion, maximum: TLSProtocolVersion
    ) throws(TLSError) {
        self.role = role
        engine = try TLSEngine(
            isServer: role == .server, identity: identity, trust: trust, minimum: minimum, maximum: maximum)
    }

    /// The peer's certificate, once trusted.
    public var peerCertificate: PeerCertificate? { engine.callbacks.accepted?.certificate }

    /// Whether the handshake is still under way.
    public var isHandshaking: Bool {
        if case .handshaking = state { return true }
        return false
    }

    /// Starts the handshake: a client queues its ClientHello; a server waits for one.
    ///
    /// - Throws: ``TLSError`` if libssl fails at once.
    public func start() throws(TLSError) {
        try advance()
    }

    /// Hands over ciphertext received from the peer, and advances the handshake with it.
    ///
    /// - Throws: the handshake's failure (the session is then ``State-swift.enum/failed(_:)``), or the
    ///   earlier failure if the session had already failed.
    public func receive(_ ciphertext: [UInt8]) throws(TLSError) {
        if case .failed(let error) = state { throw error }
        engine.feed(ciphertext)
        try advance()
    }

    /// Whether ciphertext is waiting to be sent.
    public var hasOutgoing: Bool { engine.outgoingCount > 0 }

    /// The number of ciphertext bytes waiting to be sent.
    public var outgoingCount: Int { engine.outgoingCount }

    /// Takes up to `maximum` bytes of ciphertext to send to the peer, in order.
    public func takeOutgoing(maximum: Int = .max) -> [UInt8] {
        engine.takeOutgoing(maximum: maximum)
    }

    /// Encrypts `plaintext`; its ciphertext waits in ``takeOutgoing(maximum:)``.
    ///
    /// - Throws: ``TLSError/Code-swift.struct/notEstablished`` during the handshake,
    ///   ``TLSError/Code-swift.struct/closed`` after ``close()``, or the session's failure.
    public func write(_ plaintext: [UInt8]) throws(TLSError) {
        try write(plaintext[...])
    }

    /// Encrypts `plaintext`, a part of a larger buffer (no copy is made of it first); its ciphertext waits in
    /// ``takeOutgoing(maximum:)``.
    ///
    /// - Throws: as ``write(_:)-(Array<UInt8>)``.
    public func write(_ plaintext: ArraySlice<UInt8>) throws(TLSError) {
        switch state {
        case .handshaking: throw TLSError(.notEstablished, "write before the handshake finished")
        case .failed(let error): throw error
        case .closed: throw TLSError(.closed, "write after close")
        case .established: break
        }
        guard !plaintext.isEmpty else { return }
        do throws(TLSError) {
            try engine.write(plaintext)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Decrypts what has been received: up to `maximum` bytes, from as many records as have arrived whole.
    ///
    /// - Returns: the bytes, ``ReadResult/wantsInput`` if more ciphertext is needed, or
    ///   ``ReadResult/endOfStream`` after the peer's `close_notify`.
    /// - Throws: ``TLSError/Code-swift.struct/protocolError`` for records that are not TLS or fail to
    ///   decrypt (the session is then failed), ``TLSError/Code-swift.struct/notEstablished`` during the
    ///   handshake.
    public func read(maximum: Int = 64 * 1024) throws(TLSError) -> ReadResult {
        if !pendingPlaintext.isEmpty {
            let count = max(1, min(maximum, pendingPlaintext.count))
            let bytes = Array(pendingPlaintext.prefix(count))
            pendingPlaintext.removeFirst(count)
            return .bytes(bytes)
        }
        switch state {
        case .handshaking: throw TLSError(.notEstablished, "read before the handshake finished")
        case .failed(let error): throw error
        case .established, .closed: break
        }
        if isPeerClosed { return .endOfStream }
        do throws(TLSError) {
            switch try engine.read(maximum: maximum) {
            case .bytes(let bytes): return .bytes(bytes)
            case .wantsInput: return .wantsInput
            case .endOfStream:
                isPeerClosed = true
                return .endOfStream
            }
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Closes this side: queues `close_notify` (if the session was established). Reading may go on until the
    /// peer's `close_notify`; writing ends.
    public func close() {
        switch state {
        case .established:
            engine.shutdown()
            state = .closed
        case .handshaking:
            state = .closed
        case .failed, .closed:
            break
        }
    }

    private func advance() throws(TLSError) {
        guard case .handshaking = state else { return }
        do throws(TLSError) {
            if !handshakeFinished { handshakeFinished = try engine.handshake() }
            guard handshakeFinished else { return }
            if role == .client {
                // Wait for the server's acceptance: its session ticket, or anything after the handshake.
                while !engine.callbacks.ticketReceived && pendingPlaintext.isEmpty && !isPeerClosed {
                    switch try engine.read(maximum: 16 * 1024) {
                    case .bytes(let bytes): pendingPlaintext += bytes
                    case .wantsInput: if !engine.callbacks.ticketReceived { return }
                    case .endOfStream: isPeerClosed = true
                    }
                }
            }
            guard let accepted = engine.callbacks.accepted else {
                throw TLSError(.missingPeerCertificate, "the handshake finished without a trusted peer certificate")
            }
            trustBasis = accepted.basis
            state = .established(accepted.certificate)
        } catch {
            state = .failed(error)
            throw error
        }
    }
}

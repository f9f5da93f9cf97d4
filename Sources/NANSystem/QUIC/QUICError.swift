/// Why a QUIC connection, stream or datagram failed.
public struct QUICError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Its name, as printed.
        public let name: String
        init(_ name: String) { self.name = name }

        /// libngtcp2, libngtcp2_crypto_gnutls or libgnutls is not installed (the detail names the package).
        public static let unavailable = Code("QUIC libraries not installed")
        /// The configuration or identity cannot be used (no ALPN, a malformed identity, an unusable address).
        public static let invalidConfiguration = Code("invalid QUIC configuration")
        /// This side refused the peer's certificate (the trust said no); the peer sees ``refusedByPeer``.
        public static let untrustedPeer = Code("peer certificate not trusted")
        /// The peer refused this side's certificate.
        public static let refusedByPeer = Code("the peer refused our certificate")
        /// No application protocol (ALPN) in common.
        public static let noApplicationProtocol = Code("no application protocol in common")
        /// The TLS handshake failed otherwise (the detail has the TLS alert).
        public static let handshakeFailed = Code("QUIC handshake failed")
        /// The handshake did not complete in time.
        public static let handshakeTimedOut = Code("QUIC handshake timed out")
        /// Nothing was heard from the peer for the idle timeout.
        public static let idleTimedOut = Code("QUIC connection idle timeout")
        /// The peer closed the connection (the detail has its application error code and reason).
        public static let closedByPeer = Code("closed by the peer")
        /// This side closed the connection.
        public static let closed = Code("QUIC connection closed")
        /// A QUIC protocol error, either side's.
        public static let protocolError = Code("QUIC protocol error")
        /// The socket failed.
        public static let socket = Code("socket failure")
        /// The peer reset the stream (the detail has its application error code).
        public static let streamReset = Code("stream reset by the peer")
        /// The stream was finished and takes no more bytes.
        public static let streamFinished = Code("stream finished")
        /// The datagram does not fit one packet, or the peer takes no datagrams.
        public static let datagramRefused = Code("datagram refused")
        /// The datagram queue is full; the datagram was not sent.
        public static let datagramQueueFull = Code("datagram queue full")

        /// This side cancelled the connection, or the waiting task was cancelled.
        public static let cancelled = Code("cancelled")

        /// ``name``.
        public var description: String { name }

        /// Matches an error against a code in `catch` and `switch` patterns.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? QUICError)?.code == code
        }
    }

    /// The kind of failure.
    public var code: Code
    /// What exactly, for a person.
    public var detail: String

    /// An error of kind `code`.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// `code: detail`.
    public var description: String { detail.isEmpty ? code.name : "\(code.name): \(detail)" }
}

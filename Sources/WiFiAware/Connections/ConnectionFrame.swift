/// One frame of a connection in message mode: a kind byte, a 32-bit big-endian length, the payload.
/// The codec is pure: ``ConnectionFrameDecoder`` takes bytes as they come and is total on bad input.
struct ConnectionFrame: Hashable, Sendable {
    /// What a frame carries.
    struct Kind: RawRepresentable, Hashable, Sendable {
        var rawValue: UInt8
        /// An application message.
        static let message = Kind(rawValue: 1)
        /// A resource (file) begins: 8-byte big-endian size, then the name in UTF-8.
        static let resourceBegin = Kind(rawValue: 2)
        /// A piece of the resource's bytes.
        static let resourceData = Kind(rawValue: 3)
        /// The resource ends: the SHA-256 of its bytes (32 bytes).
        static let resourceEnd = Kind(rawValue: 4)
        /// The sender closes: 1 byte, the reason (``ConnectionFrame/CloseReason``).
        static let close = Kind(rawValue: 5)
        /// Every kind a decoder accepts.
        static let known: Set<Kind> = [.message, .resourceBegin, .resourceData, .resourceEnd, .close]
    }

    /// Why a sender closes.
    enum CloseReason: UInt8, Sendable {
        /// The application ended the connection.
        case normal = 0
        /// Another connection between the same two peers survives (de-duplication).
        case duplicate = 1
    }

    /// The frame header's size: kind (1) and length (4).
    static let headerSize = 5

    var kind: Kind
    var payload: [UInt8]

    /// The frame's bytes on the wire.
    var encoded: [UInt8] { Self.header(kind, length: payload.count) + payload }

    /// A frame header for a payload of `length` bytes.
    static func header(_ kind: Kind, length: Int) -> [UInt8] {
        let n = UInt32(truncatingIfNeeded: length)
        return [
            kind.rawValue, UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8),
            UInt8(truncatingIfNeeded: n),
        ]
    }
}

/// Why received bytes are not a well-formed frame.
struct ConnectionFrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    var reason: String
    /// The frame's kind byte.
    var kind: UInt8

    var description: String { "bad frame of kind \(kind): \(reason)" }
}

/// Reassembles frames from a byte stream, holding at most one frame's bytes (the bound is
/// `maximumPayload`): bytes arrive with ``append(_:)``, whole frames leave with ``next()``.
struct ConnectionFrameDecoder: Sendable {
    /// The largest payload accepted; a larger length is an error before its bytes are read.
    let maximumPayload: Int
    private var buffer: [UInt8] = []
    private var start = 0

    init(maximumPayload: Int) { self.maximumPayload = maximumPayload }

    /// Bytes waiting to form a frame.
    var pendingCount: Int { buffer.count - start }

    /// Adds received bytes.
    mutating func append(_ bytes: [UInt8]) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer += bytes
    }

    /// The next whole frame, nil when more bytes are needed.
    ///
    /// - Throws: ``ConnectionFrameError`` for an unknown kind or a length above `maximumPayload`
    ///   (the stream cannot be resynchronised; the connection must end).
    mutating func next() throws(ConnectionFrameError) -> ConnectionFrame? {
        guard pendingCount >= ConnectionFrame.headerSize else { return nil }
        let kind = ConnectionFrame.Kind(rawValue: buffer[start])
        guard ConnectionFrame.Kind.known.contains(kind) else {
            throw ConnectionFrameError(reason: "unknown kind", kind: kind.rawValue)
        }
        var length = 0
        for i in 1...4 { length = length << 8 | Int(buffer[start + i]) }
        guard length <= maximumPayload else {
            throw ConnectionFrameError(
                reason: "\(length) bytes, more than the limit of \(maximumPayload)", kind: kind.rawValue)
        }
        guard pendingCount >= ConnectionFrame.headerSize + length else { return nil }
        let body = start + ConnectionFrame.headerSize
        let frame = ConnectionFrame(kind: kind, payload: Array(buffer[body..<body + length]))
        start = body + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65536 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return frame
    }
}

/// A QUIC stream's identifier (RFC 9000 section 2.1): its two low bits say who opened it and whether it
/// is bidirectional.
public struct QUICStreamID: Hashable, Sendable, CustomStringConvertible {
    /// The identifier as on the wire.
    public let rawValue: Int64

    /// The stream with this identifier.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Whether the client opened the stream (bit 0 clear).
    public var isClientInitiated: Bool { rawValue & 1 == 0 }

    /// `stream 4`.
    public var description: String { "stream \(rawValue)" }
}

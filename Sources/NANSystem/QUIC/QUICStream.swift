/// A bidirectional QUIC stream: an ordered, reliable byte stream each way, ended on each side by
/// ``finish()``. Written bytes are copied and kept until the peer acknowledges them; a writer waits while a
/// stream holds ``QUICConfiguration/streamSendBuffer`` unacknowledged bytes. Bytes received wait for
/// ``read(maximum:)`` and the peer sends no more than ``QUICConfiguration/streamWindow`` ahead of it.
public final class QUICStream: Sendable, CustomStringConvertible {
    /// The stream's identifier.
    public let id: QUICStreamID
    let engine: QUICEngine

    init(id: QUICStreamID, engine: QUICEngine) {
        self.id = id
        self.engine = engine
    }

    /// Sends `bytes` (waits while the send buffer is full).
    ///
    /// - Throws: ``QUICError/Code-swift.struct/streamFinished`` after ``finish()``, or why the connection
    ///   ended.
    public func write(_ bytes: [UInt8]) async throws(QUICError) {
        try await engine.write(bytes, to: id.rawValue, fin: false)
    }

    /// Ends this side of the stream after the bytes written so far; the peer's ``read(maximum:)`` returns
    /// empty once it has read them.
    public func finish() async throws(QUICError) {
        try await engine.write([], to: id.rawValue, fin: true)
    }

    /// Up to `maximum` bytes, in order, waiting until some arrive; empty once the peer finished the stream
    /// and everything it sent was read.
    ///
    /// - Throws: ``QUICError/Code-swift.struct/streamReset`` if the peer reset the stream, or why the
    ///   connection ended.
    public func read(maximum: Int = 64 * 1024) async throws(QUICError) -> [UInt8] {
        try await engine.read(from: id.rawValue, maximum: max(1, maximum))
    }

    /// Abandons the stream both ways, telling the peer application error `code`.
    public func reset(code: UInt64 = 0) { engine.reset(id.rawValue, code: code) }

    /// `QUIC stream 4`.
    public var description: String { "QUIC \(id)" }
}

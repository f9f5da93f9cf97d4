internal import NANSystem

/// The byte pipe under a ``WAConnection``: plain TCP (``PlainChannel``) or TLS over TCP. The connection's
/// framing, preface and resources only see this seam.
protocol ConnectionChannel: Sendable {
    /// Sends every byte, waiting for room (flow control).
    func send(_ bytes: [UInt8]) async throws(WAError)
    /// Up to `maximum` bytes, waiting until some come; empty at the end of the stream.
    func receive(maximum: Int) async throws(WAError) -> [UInt8]
    /// Ends our direction (the peer reads the end of the stream).
    func closeWrite() async
    /// Ends everything at once; waiting calls fail.
    func cancel()
    /// Keying material exported from the channel's TLS session (the datagram keys); nil for plain TCP
    /// (the default, in DatagramSetup.swift).
    func exportKeyingMaterial(label: String, context: [UInt8], count: Int) async throws(WAError) -> [UInt8]?
}

/// Plain TCP: the bytes go as they are (only with an explicit `.plain` transport).
struct PlainChannel: ConnectionChannel {
    let socket: StreamSocket

    func send(_ bytes: [UInt8]) async throws(WAError) {
        do { try await socket.send(bytes) } catch { throw ConnectionErrors.transport(error, while: "send") }
    }

    func receive(maximum: Int) async throws(WAError) -> [UInt8] {
        do { return try await socket.receive(maximum: maximum) } catch {
            throw ConnectionErrors.transport(error, while: "receive")
        }
    }

    func closeWrite() async { socket.shutdownWrite() }

    func cancel() { socket.cancel() }
}

/// How socket failures become ``WAError``s.
enum ConnectionErrors {
    static func transport(_ error: StreamSocketError, while action: String) -> WAError {
        if error.isCancelled {
            return WAError(.connectionTerminated, message: "the connection was cancelled", underlying: error)
        }
        return WAError(
            .connectionTerminated, message: "the connection to the peer ended (\(action): \(error))",
            errno: error.errno?.rawValue, underlying: error)
    }

    static let endedByPeer = WAError(.connectionTerminated, message: "the peer closed the connection")
}

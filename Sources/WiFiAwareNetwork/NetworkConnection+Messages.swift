// What each protocol stack sends and receives (Apple's `send` and `receive` for stream, TLV, Coder and UDP
// connections). Each call starts the connection if it has not started.

extension NetworkConnection where ApplicationProtocol: StreamProtocol {
    /// Sends bytes (`TCP()`, `TLS()`), waiting while the peer does not read.
    public func send(_ content: some DataProtocol) async throws(NWError) {
        let bytes = [UInt8](content)
        let connection = try await ready()
        do { try await connection.write(bytes) } catch { throw NWError(error) }
    }

    /// Exactly `count` bytes.
    ///
    /// - Throws: ``NWError/Code/closed`` when the peer ends the stream before.
    public func receive(exactly count: Int) async throws(NWError) -> Data {
        try await receive(atLeast: count, atMost: count)
    }

    /// At least `minimum` and at most `maximum` bytes (whatever has come, once there are `minimum`).
    ///
    /// - Throws: ``NWError/Code/closed`` when the peer ends the stream before.
    public func receive(atLeast minimum: Int = 1, atMost maximum: Int) async throws(NWError) -> Data {
        let connection = try await ready()
        return Data(try await buffer.read(atLeast: minimum, atMost: max(maximum, 1), from: connection))
    }
}

extension NetworkConnection where ApplicationProtocol == TLV {
    /// Sends one message of type `type`.
    ///
    /// - Throws: ``NWError/Code/coding`` when the type or the length does not fit its field.
    public func send(_ content: some DataProtocol, type: Int) async throws(NWError) {
        guard type >= 0 else { throw NWError(.coding, message: "a TLV type is not negative, not \(type)") }
        let frame = try stack.framing.encode(type: UInt64(type), value: [UInt8](content))
        let connection = try await ready()
        do { try await connection.write(frame) } catch { throw NWError(error) }
    }

    /// The next message and its type.
    ///
    /// - Throws: ``NWError/Code/malformedMessage`` for bytes that are not a message,
    ///   ``NWError/Code/closed`` when the peer ended the connection.
    public func receive() async throws(NWError) -> (content: Data, metadata: TLV.Metadata) {
        let connection = try await ready()
        let message = try await buffer.message(stack.framing, from: connection)
        return (Data(message.value), TLV.Metadata(type: Int(truncatingIfNeeded: message.type)))
    }
}

extension NetworkConnection {
    /// Sends one value, encoded in the Coder's format.
    ///
    /// - Throws: ``NWError/Code/coding`` when it cannot be encoded.
    public func send<Sending, Receiving, CoderType>(_ message: Sending) async throws(NWError)
    where ApplicationProtocol == Coder<Sending, Receiving, CoderType> {
        let frame = try stack.framing.encode(type: 0, value: try stack.encode(message))
        let connection = try await ready()
        do { try await connection.write(frame) } catch { throw NWError(error) }
    }

    /// The next value.
    ///
    /// - Throws: ``NWError/Code/coding`` when the message is not a `Receiving` in the Coder's format,
    ///   ``NWError/Code/malformedMessage`` for bytes that are not a message, ``NWError/Code/closed`` when
    ///   the peer ended the connection.
    public func receive<Sending, Receiving, CoderType>() async throws(NWError) -> (
        content: Receiving, metadata: Coder<Sending, Receiving, CoderType>.Metadata
    ) where ApplicationProtocol == Coder<Sending, Receiving, CoderType> {
        let connection = try await ready()
        let message = try await buffer.message(stack.framing, from: connection)
        return (try stack.decode(message.value), Coder<Sending, Receiving, CoderType>.Metadata())
    }
}

extension NetworkConnection where ApplicationProtocol == UDP {
    /// Sends one datagram (best effort: it may be lost, never cut).
    ///
    /// - Throws: ``NWError`` when it is larger than the peer accepts or the connection ended.
    public func send(_ content: some DataProtocol) async throws(NWError) {
        let bytes = [UInt8](content)
        let connection = try await ready()
        do { try connection.send(datagram: bytes) } catch { throw NWError(error) }
    }

    /// The next datagram.
    ///
    /// - Throws: ``NWError/Code/closed`` when the connection ended.
    public func receive() async throws(NWError) -> (content: Data, metadata: UDP.Metadata) {
        let connection = try await ready()
        guard let datagram = await buffer.datagram(from: connection) else {
            throw NWError(.closed, message: "the connection ended")
        }
        return (Data(datagram), UDP.Metadata())
    }
}

/// Runs `body` with a connection to `endpoint`, ready, and ends the connection when `body` returns or throws
/// (TN3213's `withNetworkConnection(to:using:)`).
///
/// - Throws: ``NWError`` when the connection cannot be set up, or what `body` throws.
public func withNetworkConnection<ApplicationProtocol: NetworkProtocolOptions, Result: Sendable>(
    to endpoint: WAEndpoint, @ProtocolStackBuilder<ApplicationProtocol> using stack: () -> ApplicationProtocol,
    _ body: (NetworkConnection<ApplicationProtocol>) async throws -> Result
) async throws -> Result {
    let connection = NetworkConnection(to: endpoint, using: stack)
    defer { connection.cancel() }
    try await connection.start()
    return try await body(connection)
}

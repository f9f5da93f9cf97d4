/// Encodes values into the bytes of one message (Apple's `NetworkEncoder`).
public protocol NetworkEncoder {
    /// The bytes of `value`.
    func encode<T: Encodable>(_ value: T) throws -> Data
}

/// Decodes the bytes of one message into a value (Apple's `NetworkDecoder`).
public protocol NetworkDecoder {
    /// The value in `data`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

/// A format for ``Coder`` messages (Apple's `NetworkCoder`): ``NetworkJSONCoder`` (`.json`) or the compact
/// binary ``NetworkPropertyListCoder`` (`.propertyList`).
public protocol NetworkCoder: Sendable {
    /// The encoder type.
    associatedtype Encoder: NetworkEncoder
    /// The decoder type.
    associatedtype Decoder: NetworkDecoder
    /// A coder.
    init()
    /// An encoder for one message.
    func makeEncoder() -> Encoder
    /// A decoder for one message.
    func makeDecoder() -> Decoder
}

extension JSONEncoder: NetworkEncoder {}
extension JSONDecoder: NetworkDecoder {}
extension PropertyListEncoder: NetworkEncoder {}
extension PropertyListDecoder: NetworkDecoder {}

/// Messages as JSON text: readable, larger.
public struct NetworkJSONCoder: NetworkCoder {
    /// The coder.
    public init() {}
    /// A JSON encoder.
    public func makeEncoder() -> JSONEncoder { JSONEncoder() }
    /// A JSON decoder.
    public func makeDecoder() -> JSONDecoder { JSONDecoder() }
}

/// Messages as binary property lists: the compact choice (smaller than JSON, numbers and data kept binary).
public struct NetworkPropertyListCoder: NetworkCoder {
    /// The coder.
    public init() {}
    /// A binary property-list encoder.
    public func makeEncoder() -> PropertyListEncoder {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return encoder
    }
    /// A property-list decoder.
    public func makeDecoder() -> PropertyListDecoder { PropertyListDecoder() }
}

extension NetworkCoder where Self == NetworkJSONCoder {
    /// JSON.
    public static var json: NetworkJSONCoder { NetworkJSONCoder() }
}

extension NetworkCoder where Self == NetworkPropertyListCoder {
    /// Binary property lists (compact).
    public static var propertyList: NetworkPropertyListCoder { NetworkPropertyListCoder() }
}

/// Codable messages over a stream (Apple's `Coder`, TN3213's framing for Swift types): each value is
/// encoded with `CoderType`, sent as one message (a 4-byte big-endian length, then the bytes), and
/// decoded as `Receiving` on the other side.
///
/// ```swift
/// let connection = NetworkConnection(to: endpoint) { Coder(GameMessage.self, using: .json) { TLS() } }
/// try await connection.send(GameMessage.move(x: 1, y: 2))
/// let (message, _) = try await connection.receive()
/// ```
public struct Coder<Sending: Encodable & Sendable, Receiving: Decodable & Sendable, CoderType: NetworkCoder>:
    MessageProtocol, StackLayer
{
    /// What comes with a received message (nothing yet beyond the value).
    public struct Metadata: Hashable, Sendable {}

    let coder: CoderType
    let framing = MessageFraming(typeSize: 0, lengthSize: 4)
    private let below: any StreamProtocol

    /// Sends `Sending` values and receives `Receiving` ones in `coder`'s format, over the stream below.
    public init<Below: StreamProtocol>(
        sending: Sending.Type, receiving: Receiving.Type, using coder: CoderType,
        @ProtocolStackBuilder<Below> _ below: () -> Below
    ) {
        self.coder = coder
        self.below = below()
    }

    /// The bytes of one value.
    ///
    /// - Throws: ``NWError/Code/coding`` when the encoder fails.
    func encode(_ value: Sending) throws(NWError) -> [UInt8] {
        do { return Array(try coder.makeEncoder().encode(value)) } catch {
            throw NWError(.coding, message: "cannot encode \(Sending.self): \(error)")
        }
    }

    /// The value in one message's bytes.
    ///
    /// - Throws: ``NWError/Code/coding`` when they are not a `Receiving` in this format.
    func decode(_ bytes: [UInt8]) throws(NWError) -> Receiving {
        do { return try coder.makeDecoder().decode(Receiving.self, from: Data(bytes)) } catch {
            throw NWError(.coding, message: "the peer's message is not a \(Receiving.self): \(error)")
        }
    }

    func apply(to plan: inout StackPlan) throws(NWError) {
        guard let layer = below as? any StackLayer else {
            throw NWError(.unsupported, message: "Coder cannot run over \(type(of: below))")
        }
        try layer.apply(to: &plan)
        plan.framing = framing
    }
}

extension Coder where Sending == Receiving {
    /// Sends and receives `Message` values in `coder`'s format, over the stream below.
    public init<Below: StreamProtocol>(
        _ message: Sending.Type, using coder: CoderType, @ProtocolStackBuilder<Below> _ below: () -> Below
    ) {
        self.init(sending: message, receiving: message, using: coder, below)
    }
}

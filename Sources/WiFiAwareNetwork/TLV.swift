/// Type-length-value messages over a stream (Apple's `TLV`, TN3213's framing for typed messages): each
/// message carries an application-chosen type and its length, big-endian, then its bytes.
///
/// ```swift
/// let connection = NetworkConnection(to: endpoint) { TLV { TLS() } }
/// try await connection.send(data, type: GameMessage.move.rawValue)
/// let (content, metadata) = try await connection.receive()   // metadata.type
/// ```
public struct TLV: MessageProtocol, StackLayer {
    /// What comes with a received message.
    public struct Metadata: Hashable, Sendable {
        /// The message's type.
        public let type: Int
    }

    let framing: MessageFraming
    private let below: any StreamProtocol

    /// TLV with a type field of `T`'s size and a length field of `L`'s size, over the stream below.
    public init<
        T: UnsignedInteger & FixedWidthInteger & Sendable, L: UnsignedInteger & FixedWidthInteger & Sendable,
        Below: StreamProtocol
    >(
        type: T.Type, length: L.Type, @ProtocolStackBuilder<Below> _ below: () -> Below
    ) {
        framing = MessageFraming(
            typeSize: T.bitWidth / 8, lengthSize: L.bitWidth / 8,
            maximumLength: Int(min(UInt64(L.max), UInt64(MessageFraming.defaultMaximumLength))))
        self.below = below()
    }

    /// TLV with 4-byte type and length fields, over the stream below.
    public init<Below: StreamProtocol>(@ProtocolStackBuilder<Below> _ below: () -> Below) {
        self.init(type: UInt32.self, length: UInt32.self, below)
    }

    func apply(to plan: inout StackPlan) throws(NWError) {
        guard let layer = below as? any StackLayer else {
            throw NWError(.unsupported, message: "TLV cannot run over \(type(of: below))")
        }
        try layer.apply(to: &plan)
        plan.framing = framing
    }
}

/// How messages are cut out of a byte stream: a type field (0 to 8 bytes), a length field (1 to 8 bytes),
/// both unsigned big-endian (network byte order), then that many bytes of value. TLV uses both fields;
/// Coder a length only. Decoding never traps: a length beyond ``maximumLength`` is a malformed message.
struct MessageFraming: Hashable, Sendable {
    /// Bytes of the type field (0: none).
    let typeSize: Int
    /// Bytes of the length field.
    let lengthSize: Int
    /// The longest value accepted (and sent).
    let maximumLength: Int

    /// The default longest message: 16 MiB.
    static let defaultMaximumLength = 16 << 20

    init(typeSize: Int, lengthSize: Int, maximumLength: Int = defaultMaximumLength) {
        precondition((0...8).contains(typeSize) && (1...8).contains(lengthSize), "field sizes are 0-8 and 1-8 bytes")
        self.typeSize = typeSize
        self.lengthSize = lengthSize
        self.maximumLength = maximumLength
    }

    /// The bytes of the header.
    var headerSize: Int { typeSize + lengthSize }

    /// One message: header and value.
    ///
    /// - Throws: ``NWError/Code/coding`` when the type does not fit its field or the value is longer than
    ///   the length field or ``maximumLength`` allow.
    func encode(type: UInt64, value: [UInt8]) throws(NWError) -> [UInt8] {
        guard typeSize == 8 || type >> (8 * typeSize) == 0 else {
            throw NWError(.coding, message: "type \(type) does not fit a \(typeSize)-byte type field")
        }
        guard value.count <= maximumLength, lengthSize == 8 || UInt64(value.count) >> (8 * lengthSize) == 0 else {
            throw NWError(
                .coding,
                message:
                    "a \(value.count)-byte message does not fit (at most \(maximumLength) bytes, \(lengthSize)-byte length field)"
            )
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize + value.count)
        Self.append(type, size: typeSize, to: &bytes)
        Self.append(UInt64(value.count), size: lengthSize, to: &bytes)
        bytes += value
        return bytes
    }

    /// The first message in `buffer` and how many bytes it took; nil while it is incomplete.
    ///
    /// - Throws: ``NWError/Code/malformedMessage`` when its length is beyond ``maximumLength``.
    func decode(_ buffer: ArraySlice<UInt8>) throws(NWError) -> (type: UInt64, value: [UInt8], size: Int)? {
        guard buffer.count >= headerSize else { return nil }
        let start = buffer.startIndex
        let type = Self.read(buffer[start..<start + typeSize])
        let length = Self.read(buffer[start + typeSize..<start + headerSize])
        guard length <= UInt64(maximumLength) else {
            throw NWError(
                .malformedMessage, message: "the peer announced a \(length)-byte message; at most \(maximumLength)")
        }
        let size = headerSize + Int(length)
        guard buffer.count >= size else { return nil }
        return (type, Array(buffer[start + headerSize..<start + size]), size)
    }

    private static func append(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
        for index in stride(from: size - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }

    private static func read(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// One value of ``NetworkBinaryCoder``'s format, and its bytes. Each value is a tag byte and its content:
/// integers as LEB128 varints (signed ones zigzagged), floating point big-endian, strings and data as a
/// varint length and the bytes, arrays as a count and the values, keyed values as a count and
/// (key string, value) pairs. Reading checks every length against the bytes left and nests at most
/// ``maximumDepth`` deep, so malformed input is an error, never a trap.
indirect enum BinaryValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    case bytes([UInt8])
    case array([BinaryValue])
    case keyed([(String, BinaryValue)])

    static let maximumDepth = 64

    private enum Tag: UInt8 {
        case null = 0, falseValue, trueValue, int, uint, double, float, string, bytes, array, keyed
    }

    static func == (lhs: BinaryValue, rhs: BinaryValue) -> Bool { lhs.encoded == rhs.encoded }

    /// The bytes.
    var encoded: [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(Tag.null.rawValue)
        case .bool(let value): out.append(value ? Tag.trueValue.rawValue : Tag.falseValue.rawValue)
        case .int(let value):
            out.append(Tag.int.rawValue)
            Self.varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &out)
        case .uint(let value):
            out.append(Tag.uint.rawValue)
            Self.varint(value, to: &out)
        case .double(let value):
            out.append(Tag.double.rawValue)
            Self.fixed(value.bitPattern, bytes: 8, to: &out)
        case .float(let value):
            out.append(Tag.float.rawValue)
            Self.fixed(UInt64(value.bitPattern), bytes: 4, to: &out)
        case .string(let value):
            out.append(Tag.string.rawValue)
            Self.varint(UInt64(value.utf8.count), to: &out)
            out += value.utf8
        case .bytes(let value):
            out.append(Tag.bytes.rawValue)
            Self.varint(UInt64(value.count), to: &out)
            out += value
        case .array(let values):
            out.append(Tag.array.rawValue)
            Self.varint(UInt64(values.count), to: &out)
            for value in values { value.write(to: &out) }
        case .keyed(let pairs):
            out.append(Tag.keyed.rawValue)
            Self.varint(UInt64(pairs.count), to: &out)
            for (key, value) in pairs {
                Self.varint(UInt64(key.utf8.count), to: &out)
                out += key.utf8
                value.write(to: &out)
            }
        }
    }

    private static func varint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    private static func fixed(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for index in stride(from: bytes - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }

    /// The one value `bytes` hold.
    ///
    /// - Throws: ``NWError/Code/coding`` for bytes that are not exactly one value.
    init(decoding bytes: [UInt8]) throws(NWError) {
        var reader = Reader(bytes: bytes)
        self = try reader.value(depth: 0)
        guard reader.offset == bytes.count else {
            throw NWError(.coding, message: "\(bytes.count - reader.offset) bytes follow the value")
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws(NWError) -> UInt8 {
            guard offset < bytes.count else { throw NWError(.coding, message: "the value ends early") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() throws(NWError) -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 70, by: 7) {
                let byte = try byte()
                guard shift < 63 || byte <= 1 else { throw NWError(.coding, message: "a varint is too long") }
                value |= UInt64(byte & 0x7F) << UInt64(shift)
                if byte < 0x80 { return value }
            }
            throw NWError(.coding, message: "a varint is too long")
        }

        /// A count or length, no larger than the bytes left (each element takes at least one).
        mutating func count() throws(NWError) -> Int {
            let count = try varint()
            guard count <= UInt64(bytes.count - offset) else {
                throw NWError(.coding, message: "a length of \(count) is beyond the \(bytes.count - offset) bytes left")
            }
            return Int(count)
        }

        mutating func take(_ count: Int) throws(NWError) -> [UInt8] {
            guard count <= bytes.count - offset else { throw NWError(.coding, message: "the value ends early") }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func fixed(_ count: Int) throws(NWError) -> UInt64 {
            try take(count).reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func string() throws(NWError) -> String {
            let utf8 = try take(try count())
            guard let text = String(validating: utf8, as: UTF8.self) else {
                throw NWError(.coding, message: "a string is not UTF-8")
            }
            return text
        }

        mutating func value(depth: Int) throws(NWError) -> BinaryValue {
            guard depth < BinaryValue.maximumDepth else {
                throw NWError(.coding, message: "values nest deeper than \(BinaryValue.maximumDepth)")
            }
            let raw = try byte()
            guard let tag = Tag(rawValue: raw) else { throw NWError(.coding, message: "unknown tag \(raw)") }
            switch tag {
            case .null: return .null
            case .falseValue: return .bool(false)
            case .trueValue: return .bool(true)
            case .int:
                let zigzag = try varint()
                return .int(Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
            case .uint: return .uint(try varint())
            case .double: return .double(Double(bitPattern: try fixed(8)))
            case .float: return .float(Float(bitPattern: UInt32(try fixed(4))))
            case .string: return .string(try string())
            case .bytes: return .bytes(try take(try count()))
            case .array:
                let count = try count()
                var values: [BinaryValue] = []
                for _ in 0..<count { values.append(try value(depth: depth + 1)) }
                return .array(values)
            case .keyed:
                let count = try count()
                var pairs: [(String, BinaryValue)] = []
                for _ in 0..<count {
                    let key = try string()
                    pairs.append((key, try value(depth: depth + 1)))
                }
                return .keyed(pairs)
            }
        }
    }
}

/// Messages in a compact binary format of this package (`.binary`): Codable values as tagged varints, raw
/// strings and bytes, keys as short strings (``BinaryValue`` describes it). Smaller than JSON for the same
/// value (no quotes, braces or base64: `Data` travels as its bytes) and than binary property lists (no
/// object tables); both ends must use it.
public struct NetworkBinaryCoder: NetworkCoder {
    /// The coder.
    public init() {}
    /// An encoder.
    public func makeEncoder() -> NetworkBinaryEncoder { NetworkBinaryEncoder() }
    /// A decoder.
    public func makeDecoder() -> NetworkBinaryDecoder { NetworkBinaryDecoder() }
}

extension NetworkCoder where Self == NetworkBinaryCoder {
    /// The compact binary format.
    public static var binary: NetworkBinaryCoder { NetworkBinaryCoder() }
}

/// Encodes a value in ``NetworkBinaryCoder``'s format.
public struct NetworkBinaryEncoder: NetworkEncoder {
    /// An encoder.
    public init() {}

    /// The bytes of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let node = EncodingNode()
        try node.store(value, path: [])
        return Data(node.value.encoded)
    }
}

/// Decodes a value from ``NetworkBinaryCoder``'s format.
public struct NetworkBinaryDecoder: NetworkDecoder {
    /// A decoder.
    public init() {}

    /// The value in `data`.
    ///
    /// - Throws: ``NWError`` (code `coding`) for bytes that are not one value; `DecodingError` when the value
    ///   is not a `T`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try DecodingNode(value: try BinaryValue(decoding: [UInt8](data)), path: []).decode(T.self)
    }
}

// MARK: - Encoding

/// A value being encoded: empty, one value, or a container whose elements are nodes of their own.
final class EncodingNode {
    private enum Content {
        case empty
        case single(BinaryValue)
        case array([EncodingNode])
        case keyed([(String, EncodingNode)])
    }

    private var content = Content.empty

    var value: BinaryValue {
        switch content {
        case .empty: .keyed([])
        case .single(let value): value
        case .array(let nodes): .array(nodes.map(\.value))
        case .keyed(let pairs): .keyed(pairs.map { ($0.0, $0.1.value) })
        }
    }

    func set(_ value: BinaryValue) { content = .single(value) }

    func append() -> EncodingNode {
        let node = EncodingNode()
        if case .array(let nodes) = content { content = .array(nodes + [node]) } else { content = .array([node]) }
        return node
    }

    var count: Int {
        if case .array(let nodes) = content { return nodes.count }
        return 0
    }

    func child(_ key: String) -> EncodingNode {
        let node = EncodingNode()
        if case .keyed(let pairs) = content {
            content = .keyed(pairs + [(key, node)])
        } else {
            content = .keyed([(key, node)])
        }
        return node
    }

    func startArray() { if case .array = content {} else { content = .array([]) } }
    func startKeyed() { if case .keyed = content {} else { content = .keyed([]) } }

    /// Stores `value`: a primitive directly, `Data` as bytes, anything else through its `encode(to:)`.
    func store<T: Encodable>(_ value: T, path: [any CodingKey]) throws {
        if let primitive = Self.primitive(value) {
            set(primitive)
        } else {
            try value.encode(to: BinaryEncoding(node: self, codingPath: path))
        }
    }

    static func primitive(_ value: Any) -> BinaryValue? {
        switch value {
        case let value as Bool: .bool(value)
        case let value as String: .string(value)
        case let value as Double: .double(value)
        case let value as Float: .float(value)
        case let value as Int: .int(Int64(value))
        case let value as Int8: .int(Int64(value))
        case let value as Int16: .int(Int64(value))
        case let value as Int32: .int(Int64(value))
        case let value as Int64: .int(value)
        case let value as UInt: .uint(UInt64(value))
        case let value as UInt8: .uint(UInt64(value))
        case let value as UInt16: .uint(UInt64(value))
        case let value as UInt32: .uint(UInt64(value))
        case let value as UInt64: .uint(value)
        case let value as Data: .bytes([UInt8](value))
        default: nil
        }
    }
}

struct BinaryEncoding: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.startKeyed()
        return KeyedEncodingContainer(KeyedEncoding<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.startArray()
        return UnkeyedEncoding(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleEncoding(node: node, codingPath: codingPath)
    }
}

struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(key.stringValue).set(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.child(key.stringValue).store(value, path: codingPath + [key])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        BinaryEncoding(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        BinaryEncoding(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        BinaryEncoding(node: node.child("super"), codingPath: codingPath)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        BinaryEncoding(node: node.child(key.stringValue), codingPath: codingPath + [key])
    }
}

struct UnkeyedEncoding: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    mutating func encodeNil() throws { node.append().set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.append().store(value, path: codingPath) }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        BinaryEncoding(node: node.append(), codingPath: codingPath).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        BinaryEncoding(node: node.append(), codingPath: codingPath).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { BinaryEncoding(node: node.append(), codingPath: codingPath) }
}

struct SingleEncoding: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, path: codingPath) }
}

// MARK: - Decoding

struct DecodingNode: Decoder {
    let value: BinaryValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: BinaryValue, path: [any CodingKey]) {
        self.value = value
        codingPath = path
    }

    func mismatch(_ wanted: Any.Type) -> DecodingError {
        .typeMismatch(wanted, .init(codingPath: codingPath, debugDescription: "found \(value.kind)"))
    }

    /// A `T`: a primitive from the value directly, `Data` from bytes, anything else through `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let primitive = try primitive(type) { return primitive }
        return try T(from: self)
    }

    private func primitive<T>(_ type: T.Type) throws -> T? {
        switch (type, value) {
        case (is Bool.Type, .bool(let value)): return value as? T
        case (is String.Type, .string(let value)): return value as? T
        case (is Data.Type, .bytes(let value)): return Data(value) as? T
        case (is Double.Type, .double(let value)): return value as? T
        case (is Double.Type, .float(let value)): return Double(value) as? T
        case (is Float.Type, .float(let value)): return value as? T
        case (is Float.Type, .double(let value)): return Float(value) as? T
        case (let integer as any FixedWidthInteger.Type, .int(let value)):
            return try exactly(integer, value) as? T
        case (let integer as any FixedWidthInteger.Type, .uint(let value)):
            return try exactly(integer, value) as? T
        case (is Bool.Type, _), (is String.Type, _), (is Data.Type, _), (is Double.Type, _), (is Float.Type, _),
            (is any FixedWidthInteger.Type, _):
            throw mismatch(type)
        default: return nil
        }
    }

    private func exactly<I: FixedWidthInteger, Source: BinaryInteger>(_ type: I.Type, _ value: Source) throws -> I {
        guard let exact = I(exactly: value) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "\(value) does not fit \(I.self)"))
        }
        return exact
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .keyed(let pairs) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedDecoding<Key>(pairs: pairs, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let values) = value else { throw mismatch([Any].self) }
        return UnkeyedDecoding(values: values, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleDecoding(node: self) }
}

extension BinaryValue {
    var kind: String {
        switch self {
        case .null: "nil"
        case .bool: "a Bool"
        case .int, .uint: "an integer"
        case .double, .float: "a floating-point number"
        case .string: "a string"
        case .bytes: "bytes"
        case .array: "an array"
        case .keyed: "keyed values"
        }
    }
}

struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let pairs: [(String, BinaryValue)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { pairs.compactMap { Key(stringValue: $0.0) } }
    func contains(_ key: Key) -> Bool { pairs.contains { $0.0 == key.stringValue } }

    private func node(_ key: Key) throws -> DecodingNode {
        guard let pair = pairs.first(where: { $0.0 == key.stringValue }) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for it"))
        }
        return DecodingNode(value: pair.1, path: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try node(key).value == .null }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try node(key).decode(type) }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try node(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try node(key).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder {
        DecodingNode(value: pairs.first { $0.0 == "super" }?.1 ?? .null, path: codingPath)
    }
    func superDecoder(forKey key: Key) throws -> any Decoder { try node(key) }
}

struct UnkeyedDecoding: UnkeyedDecodingContainer {
    let values: [BinaryValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    private mutating func next(_ wanted: Any.Type) throws -> DecodingNode {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                wanted, .init(codingPath: codingPath, debugDescription: "the array ended"))
        }
        defer { currentIndex += 1 }
        return DecodingNode(value: values[currentIndex], path: codingPath)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decode(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next([String: Any].self).container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }
    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

struct SingleDecoding: SingleValueDecodingContainer {
    let node: DecodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    func decodeNil() -> Bool { node.value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try node.decode(type) }
}

/// A bounds-checked read cursor over a byte buffer.
///
/// Every read checks the remaining length first and throws ``NANWireError`` with the absolute offset
/// (counted from `origin`, the first byte of the decoder's input) when the input is short. There is no
/// unchecked subscript anywhere in the decoders: all reads go through this type.
///
/// Slices returned by ``readBytes(_:_:)`` share storage with the input (no copy).
public struct ByteReader: Sendable {
    /// The bytes this cursor may read; indices are those of the original buffer.
    public let bytes: ArraySlice<UInt8>
    /// The index of the next byte to read.
    public private(set) var index: Int
    /// The index that offset 0 refers to in error messages.
    public let origin: Int

    /// A cursor over all of `bytes`; offsets are counted from its first byte.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
        self.index = 0
        self.origin = 0
    }

    /// A cursor over `bytes`; offsets in errors are counted from `origin` (defaults to the slice start).
    public init(_ bytes: ArraySlice<UInt8>, origin: Int? = nil) {
        self.bytes = bytes
        self.index = bytes.startIndex
        self.origin = origin ?? bytes.startIndex
    }

    /// Bytes left to read.
    @inlinable public var remaining: Int { bytes.endIndex - index }
    /// Whether everything has been read.
    @inlinable public var isAtEnd: Bool { index >= bytes.endIndex }
    /// The offset of the next byte, counted from `origin`.
    @inlinable public var offset: Int { index - origin }

    @inline(__always)
    private func need(_ count: Int, _ context: @autoclosure () -> String) throws(NANWireError) {
        if count < 0 || count > remaining {
            throw NANWireError(.truncated, at: offset, context())
        }
    }

    /// Reads one byte.
    public mutating func readU8(_ context: @autoclosure () -> String) throws(NANWireError) -> UInt8 {
        try need(1, context())
        let value = bytes[index]
        index += 1
        return value
    }

    /// Reads a little-endian 16-bit value.
    public mutating func readLE16(_ context: @autoclosure () -> String) throws(NANWireError) -> UInt16 {
        try readLittleEndian(context())
    }

    /// Reads a big-endian 16-bit value.
    public mutating func readBE16(_ context: @autoclosure () -> String) throws(NANWireError) -> UInt16 {
        try need(2, context())
        let value = UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
        index += 2
        return value
    }

    /// Reads a big-endian 24-bit value (an OUI).
    public mutating func readBE24(_ context: @autoclosure () -> String) throws(NANWireError) -> UInt32 {
        try need(3, context())
        let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
        index += 3
        return value
    }

    /// Reads a little-endian 32-bit value.
    public mutating func readLE32(_ context: @autoclosure () -> String) throws(NANWireError) -> UInt32 {
        try readLittleEndian(context())
    }

    /// Reads a little-endian 64-bit value.
    public mutating func readLE64(_ context: @autoclosure () -> String) throws(NANWireError) -> UInt64 {
        try readLittleEndian(context())
    }

    /// Reads a little-endian unsigned integer as wide as `Value`.
    private mutating func readLittleEndian<Value: FixedWidthInteger & UnsignedInteger>(
        _ context: @autoclosure () -> String
    ) throws(NANWireError) -> Value {
        let size = Value.bitWidth / 8
        try need(size, context())
        var value: Value = 0
        for i in 0..<size { value |= Value(bytes[index + i]) << (8 * i) }
        index += size
        return value
    }

    /// Reads `count` bytes as a slice sharing the input's storage.
    public mutating func readBytes(
        _ count: Int, _ context: @autoclosure () -> String
    ) throws(NANWireError) -> ArraySlice<UInt8> {
        try need(count, context())
        let slice = bytes[index..<(index + count)]
        index += count
        return slice
    }

    /// Reads everything that is left.
    public mutating func readRest() -> ArraySlice<UInt8> {
        let slice = bytes[index...]
        index = bytes.endIndex
        return slice
    }

    /// Reads a 6-byte MAC address.
    public mutating func readMAC(_ context: @autoclosure () -> String) throws(NANWireError) -> MACAddress {
        try need(6, context())
        let mac = MACAddress(
            bytes[index], bytes[index + 1], bytes[index + 2],
            bytes[index + 3], bytes[index + 4], bytes[index + 5])
        index += 6
        return mac
    }

    /// Reads a 6-byte service ID.
    public mutating func readServiceID(_ context: @autoclosure () -> String) throws(NANWireError) -> ServiceID {
        let o = try readMAC(context()).octets
        return ServiceID(o.0, o.1, o.2, o.3, o.4, o.5)
    }

    /// Reads a one-byte length (`context` + " length" in errors) and that many bytes, the mirror of
    /// ``ByteWriter/writeLV8(_:_:)``.
    public mutating func readLV8(_ context: @autoclosure () -> String) throws(NANWireError) -> ArraySlice<UInt8> {
        let length = Int(try readU8("\(context()) length"))
        return try readBytes(length, context())
    }

    /// Reads items with `item` until every byte has been read.
    public mutating func readToEnd<Item>(
        _ item: (inout ByteReader) throws(NANWireError) -> Item
    ) throws(NANWireError) -> [Item] {
        var items: [Item] = []
        while !isAtEnd { items.append(try item(&self)) }
        return items
    }

    /// A cursor over the next `count` bytes (keeping this cursor's origin), advancing past them.
    public mutating func subReader(
        _ count: Int, _ context: @autoclosure () -> String
    ) throws(NANWireError) -> ByteReader {
        let slice = try readBytes(count, context())
        return ByteReader(slice, origin: origin)
    }

    /// Throws `.overlong` unless every byte has been read.
    public func expectEnd(_ context: @autoclosure () -> String) throws(NANWireError) {
        if !isAtEnd {
            throw NANWireError(.overlong, at: offset, "\(context()): \(remaining) unexpected trailing bytes")
        }
    }

    /// Builds an error at the current offset.
    public func error(_ kind: NANWireError.Kind, _ context: String) -> NANWireError {
        NANWireError(kind, at: offset, context)
    }
}

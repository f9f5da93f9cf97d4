/// A growable output buffer for encoders, the mirror of ``ByteReader``.
///
/// Attribute lengths are back-filled by ``attribute(_:_:)``, which throws ``NANWireError/Kind/tooLarge``
/// when a body does not fit its 16-bit length field.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// An empty writer, reserving `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Number of bytes written.
    public var count: Int { bytes.count }

    /// Appends one byte.
    public mutating func writeU8(_ value: UInt8) { bytes.append(value) }

    /// Appends a little-endian 16-bit value.
    public mutating func writeLE16(_ value: UInt16) { writeLittleEndian(value) }

    /// Appends a big-endian 16-bit value.
    public mutating func writeBE16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a big-endian 24-bit value (an OUI); the top byte of `value` is ignored.
    public mutating func writeBE24(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a little-endian 32-bit value.
    public mutating func writeLE32(_ value: UInt32) { writeLittleEndian(value) }

    /// Appends a little-endian 64-bit value.
    public mutating func writeLE64(_ value: UInt64) { writeLittleEndian(value) }

    /// Appends an unsigned integer little-endian, as many bytes as it is wide.
    private mutating func writeLittleEndian<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) {
        for i in 0..<(Value.bitWidth / 8) { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }

    /// Appends raw bytes.
    public mutating func writeBytes<C: Collection>(_ data: C) where C.Element == UInt8 {
        bytes.append(contentsOf: data)
    }

    /// Appends a MAC address.
    public mutating func writeMAC(_ mac: MACAddress) { writeSix(mac.octets) }

    /// Appends a service ID.
    public mutating func writeServiceID(_ id: ServiceID) { writeSix(id.octets) }

    private mutating func writeSix(_ o: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)) {
        bytes.append(o.0); bytes.append(o.1); bytes.append(o.2)
        bytes.append(o.3); bytes.append(o.4); bytes.append(o.5)
    }

    /// Appends a one-byte length followed by `data`; throws if `data` is longer than 255 bytes.
    public mutating func writeLV8<C: Collection>(_ data: C, _ context: @autoclosure () -> String) throws(NANWireError)
    where C.Element == UInt8 {
        guard data.count <= 255 else {
            throw NANWireError(.tooLarge, at: count, "\(context()): \(data.count) bytes do not fit a 1-byte length")
        }
        writeU8(UInt8(data.count))
        writeBytes(data)
    }

    /// Writes a NAN attribute header (id, 2-byte length), runs `body`, then back-fills the length.
    public mutating func attribute(
        _ id: NANAttributeID, _ body: (inout ByteWriter) throws(NANWireError) -> Void
    ) throws(NANWireError) {
        let start = bytes.count
        writeU8(id.rawValue)
        writeLE16(0)
        try body(&self)
        try backfillLE16(at: start + 1, length: bytes.count - start - 3, "\(id) attribute")
    }

    /// Writes a 2-byte length placeholder, runs `body`, then back-fills the number of bytes it wrote.
    public mutating func lengthPrefixedLE16(
        _ context: @autoclosure () -> String, _ body: (inout ByteWriter) throws(NANWireError) -> Void
    ) throws(NANWireError) {
        let start = bytes.count
        writeLE16(0)
        try body(&self)
        try backfillLE16(at: start, length: bytes.count - start - 2, context())
    }

    /// Writes a 1-byte length placeholder, runs `body`, then back-fills the number of bytes it wrote.
    public mutating func lengthPrefixedU8(
        _ context: @autoclosure () -> String, _ body: (inout ByteWriter) throws(NANWireError) -> Void
    ) throws(NANWireError) {
        let start = bytes.count
        writeU8(0)
        try body(&self)
        let length = bytes.count - start - 1
        guard length <= 255 else {
            throw NANWireError(.tooLarge, at: start, "\(context()): \(length) bytes do not fit a 1-byte length")
        }
        bytes[start] = UInt8(length)
    }

    private mutating func backfillLE16(
        at position: Int, length: Int, _ context: @autoclosure () -> String
    ) throws(NANWireError) {
        guard length <= Int(UInt16.max) else {
            throw NANWireError(.tooLarge, at: position, "\(context()): \(length) bytes do not fit a 2-byte length")
        }
        bytes[position] = UInt8(truncatingIfNeeded: length)
        bytes[position + 1] = UInt8(truncatingIfNeeded: length >> 8)
    }
}

/// Builds a run of netlink attributes as bytes (host byte order, 4-byte aligned), the mirror of
/// ``NetlinkAttributes``. Pure: no libnl, so requests can be checked byte for byte in tests.
struct NetlinkAttributeWriter: Sendable {
    /// The attribute bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    init() {}

    /// Appends one attribute with a raw payload.
    ///
    /// - Throws: ``NetlinkError`` with code `malformedMessage` if the payload does not fit a u16 length.
    mutating func put<K: RawRepresentable>(_ key: K, bytes payload: some Collection<UInt8>) throws(NetlinkError)
    where K.RawValue == UInt16 {
        try putRaw(type: key.rawValue, payload: Array(payload))
    }

    /// Appends an integer attribute of exactly `value`'s width.
    mutating func put<K: RawRepresentable, T: FixedWidthInteger>(_ key: K, _ value: T) throws(NetlinkError)
    where K.RawValue == UInt16 {
        var copy = value
        let payload = withUnsafeBytes(of: &copy) { Array($0) }
        try putRaw(type: key.rawValue, payload: payload)
    }

    /// Appends a flag attribute (no payload).
    mutating func putFlag<K: RawRepresentable>(_ key: K) throws(NetlinkError) where K.RawValue == UInt16 {
        try putRaw(type: key.rawValue, payload: [])
    }

    /// Appends a NUL-terminated string attribute.
    mutating func put<K: RawRepresentable>(_ key: K, string: String) throws(NetlinkError) where K.RawValue == UInt16 {
        try putRaw(type: key.rawValue, payload: Array(string.utf8) + [0])
    }

    /// Appends a nested attribute whose content `body` writes. Sets `NLA_F_NESTED`, which the kernel
    /// requires on nested attributes validated strictly (every NAN attribute is).
    mutating func nest<K: RawRepresentable>(
        _ key: K, _ body: (inout NetlinkAttributeWriter) throws(NetlinkError) -> Void
    ) throws(NetlinkError) where K.RawValue == UInt16 {
        try nest(type: key.rawValue, body)
    }

    /// Appends a nested attribute with a numeric type (array elements are numbered 1…n).
    mutating func nest(
        type: UInt16, _ body: (inout NetlinkAttributeWriter) throws(NetlinkError) -> Void
    ) throws(NetlinkError) {
        var inner = NetlinkAttributeWriter()
        try body(&inner)
        try putRaw(type: type | NetlinkAttributes.nestedFlag, payload: inner.bytes)
    }

    /// Appends one attribute with a raw type and payload.
    mutating func putRaw(type: UInt16, payload: [UInt8]) throws(NetlinkError) {
        let length = NetlinkAttributes.headerSize + payload.count
        guard length <= Int(UInt16.max) else {
            throw NetlinkError(
                code: .malformedMessage, call: "encode",
                detail: "attribute \(type & 0x3fff) payload of \(payload.count) bytes exceeds 65531")
        }
        bytes.append(UInt8(length & 0xff))
        bytes.append(UInt8(length >> 8))
        bytes.append(UInt8(type & 0xff))
        bytes.append(UInt8(type >> 8))
        bytes.append(contentsOf: payload)
        bytes.append(contentsOf: repeatElement(0, count: NetlinkAttributes.aligned(length) - length))
    }
}

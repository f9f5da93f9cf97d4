/// One netlink attribute copied out of a kernel message: its type and its payload bytes.
///
/// The type has the `NLA_F_NESTED` and `NLA_F_NET_BYTEORDER` bits removed. `offset` is where the
/// attribute's header starts in the message it came from, for error messages.
struct NetlinkAttribute: Sendable, Hashable {
    /// The attribute type, without flag bits.
    var type: UInt16
    /// The payload (no header, no padding).
    var payload: [UInt8]
    /// Offset of the attribute header within the parsed message.
    var offset: Int

    /// The payload as an unsigned integer of exactly `T`'s size, in host byte order (as netlink sends it).
    func integer<T: FixedWidthInteger>(_: T.Type = T.self) throws(NetlinkError) -> T {
        guard payload.count == MemoryLayout<T>.size else {
            throw .malformed("attribute \(type): \(payload.count) bytes, expected \(MemoryLayout<T>.size)", at: offset)
        }
        return payload.withUnsafeBytes { $0.loadUnaligned(as: T.self) }
    }

    /// The payload as a string, without the trailing NUL bytes the kernel adds.
    var string: String {
        var bytes = payload[...]
        while let last = bytes.last, last == 0 { bytes = bytes.dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The payload parsed as nested attributes.
    func nested() throws(NetlinkError) -> NetlinkAttributes {
        try NetlinkAttributes(parsing: payload, baseOffset: offset + NetlinkAttributes.headerSize)
    }

    /// The payload read as a nested array: each inner attribute (indexed 0…n or 1…n) is itself nested.
    func nestedArray() throws(NetlinkError) -> [NetlinkAttributes] {
        var result: [NetlinkAttributes] = []
        for element in try nested().all {
            result.append(try element.nested())
        }
        return result
    }

    /// The payload as a fixed number of raw bytes.
    func bytes(count: Int) throws(NetlinkError) -> [UInt8] {
        guard payload.count == count else {
            throw .malformed("attribute \(type): \(payload.count) bytes, expected \(count)", at: offset)
        }
        return payload
    }
}

/// A list of netlink attributes decoded from bytes, with typed, bounds-checked look-ups.
///
/// Decoding is total: a truncated or overlong attribute throws ``NetlinkError`` with code
/// `malformedMessage` and the offset. Unknown attribute types are kept, never rejected.
struct NetlinkAttributes: Sendable, Hashable {
    /// Size of an attribute header (`struct nlattr`): u16 length, u16 type.
    static let headerSize = 4
    /// `NLA_F_NESTED`: set by the sender on nested attributes.
    static let nestedFlag: UInt16 = 1 << 15
    /// `NLA_F_NET_BYTEORDER`.
    static let netByteOrderFlag: UInt16 = 1 << 14

    /// Every attribute in the order received.
    private(set) var all: [NetlinkAttribute]

    /// Creates a list from attributes already decoded (used when merging split dumps).
    init(_ attributes: [NetlinkAttribute] = []) {
        self.all = attributes
    }

    /// Decodes a run of attributes.
    ///
    /// - Parameters:
    ///   - bytes: the attribute bytes (a message payload after its fixed headers, or a nested payload).
    ///   - baseOffset: where `bytes` starts in the original message, for error offsets.
    init(parsing bytes: [UInt8], baseOffset: Int = 0) throws(NetlinkError) {
        var attributes: [NetlinkAttribute] = []
        var position = 0
        while position < bytes.count {
            guard bytes.count - position >= Self.headerSize else {
                // Fewer than 4 trailing bytes can only be padding.
                break
            }
            let length = Int(UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8)
            let rawType = UInt16(bytes[position + 2]) | UInt16(bytes[position + 3]) << 8
            guard length >= Self.headerSize, position + length <= bytes.count else {
                throw .malformed(
                    "attribute length \(length) overruns \(bytes.count - position) remaining bytes",
                    at: baseOffset + position)
            }
            let type = rawType & ~(Self.nestedFlag | Self.netByteOrderFlag)
            attributes.append(
                NetlinkAttribute(
                    type: type,
                    payload: Array(bytes[(position + Self.headerSize)..<(position + length)]),
                    offset: baseOffset + position))
            position += Self.aligned(length)
        }
        self.all = attributes
    }

    /// Rounds a length up to netlink's 4-byte alignment (`NLA_ALIGN`).
    static func aligned(_ length: Int) -> Int { (length + 3) & ~3 }

    /// The first attribute of a type, if present.
    func first<K: RawRepresentable>(_ key: K) -> NetlinkAttribute? where K.RawValue == UInt16 {
        all.first { $0.type == key.rawValue }
    }

    /// Every attribute of a type, in order (for repeated attributes such as `NL80211_ATTR_NAN_CHANNEL`).
    func every<K: RawRepresentable>(_ key: K) -> [NetlinkAttribute] where K.RawValue == UInt16 {
        all.filter { $0.type == key.rawValue }
    }

    /// Whether a (flag) attribute is present.
    func has<K: RawRepresentable>(_ key: K) -> Bool where K.RawValue == UInt16 {
        first(key) != nil
    }

    /// An integer attribute, or nil if absent. Throws if present with the wrong size.
    func integer<K: RawRepresentable, T: FixedWidthInteger>(_ key: K, as: T.Type = T.self) throws(NetlinkError) -> T?
    where K.RawValue == UInt16 {
        guard let attribute = first(key) else { return nil }
        return try attribute.integer(T.self)
    }

    /// An integer attribute that must be present.
    func required<K: RawRepresentable, T: FixedWidthInteger>(_ key: K, as: T.Type = T.self) throws(NetlinkError) -> T
    where K.RawValue == UInt16 {
        guard let attribute = first(key) else {
            throw NetlinkError(code: .malformedMessage, call: "decode", detail: "required attribute \(key) missing")
        }
        return try attribute.integer(T.self)
    }

    /// A string attribute, or nil if absent.
    func string<K: RawRepresentable>(_ key: K) -> String? where K.RawValue == UInt16 {
        first(key)?.string
    }

    /// A raw byte attribute, or nil if absent.
    func bytes<K: RawRepresentable>(_ key: K) -> [UInt8]? where K.RawValue == UInt16 {
        first(key)?.payload
    }

    /// A nested attribute, or nil if absent.
    func nested<K: RawRepresentable>(_ key: K) throws(NetlinkError) -> NetlinkAttributes? where K.RawValue == UInt16 {
        guard let attribute = first(key) else { return nil }
        return try attribute.nested()
    }
}

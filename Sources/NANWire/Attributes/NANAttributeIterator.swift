/// One attribute as framed on the wire: ID, body and where it started. The first stage of parsing.
public struct RawNANAttribute: Sendable {
    /// The attribute ID.
    public let id: NANAttributeID
    /// The body (after the 3-byte header); shares storage with the frame.
    public let body: ArraySlice<UInt8>
    /// Offset of the attribute's ID byte from the start of the decoder's input.
    public let offset: Int

    /// A cursor over the body whose error offsets count from the decoder's input.
    public func reader(origin: Int) -> ByteReader { ByteReader(body, origin: origin) }
}

/// Walks the attribute list of a frame: 1-byte ID, 2-byte little-endian length, body.
///
/// It never looks inside bodies, so unknown IDs pass through untouched. A header that does not fit,
/// or a length running past the end, ends iteration with a `.truncated`/`.overlong` error.
public struct NANAttributeIterator: Sendable {
    private var reader: ByteReader

    /// Iterates the attributes in `reader`'s remaining bytes.
    public init(_ reader: ByteReader) { self.reader = reader }

    /// The next attribute, or `nil` at the end of the list.
    public mutating func next() throws(NANWireError) -> RawNANAttribute? {
        if reader.isAtEnd { return nil }
        let start = reader.offset
        let id = NANAttributeID(try reader.readU8("attribute ID"))
        let length = Int(try reader.readLE16("\(id) attribute length"))
        guard length <= reader.remaining else {
            throw NANWireError(
                .overlong, at: start + 1,
                "\(id) attribute length \(length) exceeds the \(reader.remaining) bytes left")
        }
        let body = try reader.readBytes(length, "\(id) attribute body")
        return RawNANAttribute(id: id, body: body, offset: start)
    }
}

/// A typed NAN attribute value: knows its ID and how to read and write its body.
///
/// `decode` reads the body only (the header was consumed by ``NANAttributeIterator``) and must
/// consume it exactly; `encodeBody` writes the body only.
public protocol NANAttributeBody: Hashable, Sendable {
    /// The attribute ID this type reads and writes.
    static var attributeID: NANAttributeID { get }
    /// Decodes the body from `reader`, which covers exactly the body.
    init(decodingBody reader: inout ByteReader) throws(NANWireError)
    /// Appends the body (no header) to `writer`.
    func encodeBody(into writer: inout ByteWriter) throws(NANWireError)
}

extension NANAttributeBody {
    /// Appends the whole attribute (ID, length, body).
    public func encode(into writer: inout ByteWriter) throws(NANWireError) {
        try writer.attribute(Self.attributeID) { (w: inout ByteWriter) throws(NANWireError) in
            try self.encodeBody(into: &w)
        }
    }

    /// The whole attribute (ID, length, body) as bytes.
    public func encoded() throws(NANWireError) -> [UInt8] {
        var writer = ByteWriter(capacity: 64)
        try encode(into: &writer)
        return writer.bytes
    }

    /// Decodes one whole attribute (ID, length, body) that must fill `bytes` exactly.
    public init(decoding bytes: [UInt8]) throws(NANWireError) {
        var iterator = NANAttributeIterator(ByteReader(bytes))
        guard let raw = try iterator.next() else {
            throw NANWireError(.truncated, at: 0, "\(Self.attributeID) attribute: empty input")
        }
        guard raw.id == Self.attributeID else {
            throw NANWireError(.notThisFrame, at: 0, "expected \(Self.attributeID) attribute, found \(raw.id)")
        }
        if try iterator.next() != nil {
            throw NANWireError(
                .overlong, at: raw.offset + 3 + raw.body.count, "\(Self.attributeID) attribute: trailing bytes")
        }
        var reader = raw.reader(origin: 0)
        self = try Self.decodeBody(&reader)
    }

    /// Decodes a body and checks that nothing is left over.
    static func decodeBody(_ reader: inout ByteReader) throws(NANWireError) -> Self {
        let value = try Self(decodingBody: &reader)
        try reader.expectEnd("\(attributeID) attribute")
        return value
    }
}

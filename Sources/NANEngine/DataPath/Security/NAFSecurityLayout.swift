internal import NANWire

/// Where the Shared-Key Descriptor's MIC sits in the bytes of a data-path NAF body. The MIC is computed over
/// the body as transmitted, with the MIC field zeroed, so it is read and written in the bytes, not in a
/// decoded value.
enum NAFSecurityLayout {
    /// Category, action, OUI (3), OUI type, OUI subtype: the attributes start after these.
    static let attributesOffset = 7

    /// The range of the key MIC inside `body`, a NAF action body (from the Category field). Total: a
    /// truncated attribute list or a descriptor too short for its MIC is `.malformed`, no descriptor is
    /// `.missingAttribute`.
    static func micRange(in body: [UInt8], micLength: Int) throws(NDPSecurityError) -> Range<Int> {
        guard body.count >= attributesOffset else {
            throw NDPSecurityError(.malformed, "NAF body of \(body.count) bytes")
        }
        var attributes = NANAttributeIterator(ByteReader(body[attributesOffset...]))
        func next() throws(NDPSecurityError) -> RawNANAttribute? {
            do throws(NANWireError) { return try attributes.next() } catch {
                throw NDPSecurityError(.malformed, "NAF body: \(error)")
            }
        }
        while let attribute = try next() {
            guard attribute.id == .sharedKeyDescriptor else { continue }
            let micStart = attribute.body.startIndex + 1 + RSNKeyDescriptor.bytesBeforeMIC
            guard micStart + micLength + 2 <= attribute.body.endIndex else {
                throw NDPSecurityError(
                    .malformed,
                    "Shared-Key Descriptor of \(attribute.body.count) bytes is too short for a \(micLength)-byte MIC")
            }
            return micStart..<micStart + micLength
        }
        throw NDPSecurityError(.missingAttribute, "no Shared-Key Descriptor attribute")
    }
}

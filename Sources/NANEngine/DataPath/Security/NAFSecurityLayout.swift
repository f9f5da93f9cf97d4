internal import NANWire

/// Where the Shared-Key Descriptor's MIC sits in the bytes of a data-path NAF body. The MIC is computed over
/// the body as transmitted, with the MIC field zeroed, so it is read and written in the bytes, not in a
/// decoded value.
enum NAFSecurityLayout {
    /// Category, action, OUI (3), OUI type, OUI subtype: the attributes start after these.
    static let attributesOffset = 7
    /// The Shared-Key Descriptor attribute ID.
    static let sharedKeyDescriptorID: UInt8 = 0x24

    /// The range of the key MIC inside `body`, a NAF action body (from the Category field). Total: a
    /// truncated attribute list or a descriptor too short for its MIC is `.malformed`, no descriptor is
    /// `.missingAttribute`.
    static func micRange(in body: [UInt8], micLength: Int) throws(NDPSecurityError) -> Range<Int> {
        var index = attributesOffset
        guard body.count >= index else { throw NDPSecurityError(.malformed, "NAF body of \(body.count) bytes") }
        while index < body.count {
            guard index + 3 <= body.count else {
                throw NDPSecurityError(.malformed, "attribute header cut at byte \(index)")
            }
            let id = body[index]
            let length = Int(body[index + 1]) | Int(body[index + 2]) << 8
            let start = index + 3
            guard start + length <= body.count else {
                throw NDPSecurityError(
                    .malformed, "attribute 0x\(String(id, radix: 16)) of \(length) bytes overruns the frame")
            }
            if id == sharedKeyDescriptorID {
                let micStart = start + 1 + RSNKeyDescriptor.bytesBeforeMIC
                guard micStart + micLength + 2 <= start + length else {
                    throw NDPSecurityError(
                        .malformed, "Shared-Key Descriptor of \(length) bytes is too short for a \(micLength)-byte MIC")
                }
                return micStart..<micStart + micLength
            }
            index = start + length
        }
        throw NDPSecurityError(.missingAttribute, "no Shared-Key Descriptor attribute")
    }
}

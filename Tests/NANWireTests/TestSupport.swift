@testable import NANWire

/// Bytes from a hex string; spaces, newlines and `|` are ignored. Test-only (over the project's one hex parser): traps on bad test input.
func hex(_ text: String) -> [UInt8] {
    let digits = String(text.filter(\.isHexDigit))
    return digits.isEmpty ? [] : Hex.bytes(digits)!
}

func hexString(_ bytes: some Sequence<UInt8>) -> String {
    Hex.string(bytes)
}

func mac(_ text: String) -> MACAddress { MACAddress(text)! }

/// Decodes one attribute's bytes through the generic path (iterator + typed dispatch).
func decodeAttribute(_ bytes: [UInt8]) throws -> NANAttribute {
    var iterator = NANAttributeIterator(ByteReader(bytes))
    guard let raw = try iterator.next() else { throw NANWireError(.truncated, at: 0, "empty") }
    return try NANAttribute(raw, origin: 0)
}

func encodeAttribute(_ attribute: NANAttribute) throws -> [UInt8] {
    var writer = ByteWriter()
    try attribute.encode(into: &writer)
    return writer.bytes
}

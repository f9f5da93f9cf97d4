@testable import NANWire

/// Bytes from a hex string; spaces, newlines and `|` are ignored. Test-only: traps on bad test input.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { $0.isHexDigit })
    precondition(digits.count % 2 == 0, "odd hex digit count in test vector")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
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

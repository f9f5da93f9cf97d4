import NANWire

/// Bytes from a hex string; spaces and newlines are ignored. Test-only (over the project's one hex parser): traps on bad test input.
func hex(_ text: String) -> [UInt8] {
    let digits = String(text.filter(\.isHexDigit))
    return digits.isEmpty ? [] : Hex.bytes(digits)!
}

/// Lower-case hex of `bytes`, for readable expectations.
func hexString(_ bytes: some Sequence<UInt8>) -> String {
    Hex.string(bytes)
}

/// The ASCII bytes of `text`.
func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

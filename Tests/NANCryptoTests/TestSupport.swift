/// Bytes from a hex string; spaces and newlines are ignored. Test-only: traps on bad test input.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { $0.isHexDigit })
    precondition(digits.count % 2 == 0, "odd hex digit count in test vector")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

/// Lower-case hex of `bytes`, for readable expectations.
func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// The ASCII bytes of `text`.
func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

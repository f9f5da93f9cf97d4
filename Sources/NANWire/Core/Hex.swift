/// Hexadecimal text of bytes, both ways: the one hex parser and the one hex printer of the project.
///
/// Only the digits `0-9`, `a-f` and `A-F` count as hex: a sign (`+`, `-`), a space inside a byte or any
/// other character makes the text malformed, so `UInt8("+2", radix: 16)`'s leniency never leaks in.
public enum Hex {
    /// Parses hex text into bytes.
    ///
    /// The text is groups of digit pairs split by any of `separators`; empty groups (two separators in a
    /// row, leading or trailing ones) are ignored. With `allowsPrefix`, each group may start with `0x` or
    /// `0X`. A group with an odd number of digits is malformed: a byte never spans a separator.
    ///
    /// - Parameters:
    ///   - text: The text, e.g. `0a1b`, `0a:1b`, `0x0a 0x1b`.
    ///   - separators: The characters allowed between groups, e.g. `":"` or `" \t\r\n:-"`.
    ///   - allowsPrefix: Whether groups may start with `0x`.
    /// - Returns: The bytes, or `nil` if the text is malformed or holds no digits.
    public static func bytes(
        _ text: some StringProtocol, separators: String = "", allowsPrefix: Bool = false
    ) -> [UInt8]? {
        let separatorBytes = Array(separators.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var groupStart = true
        var high: UInt8?
        var pendingZero = false  // a leading "0" of a group that may turn out to be a "0x" prefix
        for unit in text.utf8 {
            if separatorBytes.contains(unit) {
                if high != nil || pendingZero { return nil }
                groupStart = true
                continue
            }
            if pendingZero {
                pendingZero = false
                if unit == UInt8(ascii: "x") || unit == UInt8(ascii: "X") { continue }
                high = 0
            }
            if groupStart {
                groupStart = false
                if allowsPrefix && unit == UInt8(ascii: "0") && high == nil {
                    pendingZero = true
                    continue
                }
            }
            guard let value = digitValue(unit) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        if pendingZero || high != nil || bytes.isEmpty { return nil }
        return bytes
    }

    /// Parses one byte written with one or two hex digits (`2`, `0a`, `FF`), as in MAC-style text.
    ///
    /// - Returns: The byte, or `nil` for an empty text, more than two digits or anything not a hex digit.
    public static func byte(_ text: some StringProtocol) -> UInt8? {
        let units = Array(text.utf8)
        guard (1...2).contains(units.count) else { return nil }
        var value: UInt8 = 0
        for unit in units {
            guard let digit = digitValue(unit) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// Lower-case hex text of `bytes`, two digits each, with `separator` between bytes (`0a1b`, `0a:1b`).
    public static func string(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
        var text = ""
        var first = true
        for byte in bytes {
            if !first { text += separator }
            first = false
            text.unicodeScalars.append(digitCharacters[Int(byte >> 4)])
            text.unicodeScalars.append(digitCharacters[Int(byte & 0x0f)])
        }
        return text
    }

    /// The value of one ASCII hex digit, or `nil` for anything else.
    public static func digitValue(_ unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): unit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): unit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): unit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static let digitCharacters: [Unicode.Scalar] = Array("0123456789abcdef".unicodeScalars)
}

/// An IPv6 address: the link-local addresses of NAN data interfaces (`fe80::…`), where connections and
/// probes go.
public struct IPv6Address: Hashable, Sendable, CustomStringConvertible {
    /// The 16 bytes, network order.
    public let bytes: [UInt8]

    /// Wraps 16 bytes; nil for another count.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 16 else { return nil }
        self.bytes = Array(bytes)
    }

    /// Parses the text form (RFC 4291: eight groups of 1 to 4 hex digits, one `::` for a run of zero groups);
    /// nil for anything else, including a `%zone` and an embedded IPv4 address.
    public init?(_ text: some StringProtocol) {
        let units = Array(text.utf8)
        let colon = UInt8(ascii: ":")
        /// The groups of `part` (text between `::`s); nil when one is not 1 to 4 hex digits.
        func groups(_ part: ArraySlice<UInt8>) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var values: [UInt16] = []
            for group in part.split(separator: colon, omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count) else { return nil }
                var value: UInt16 = 0
                for unit in group {
                    guard let digit = Hex.digitValue(unit) else { return nil }
                    value = value << 4 | UInt16(digit)
                }
                values.append(value)
            }
            return values
        }
        var gap: Int?
        var index = 0
        while index + 1 < units.count {
            if units[index] == colon, units[index + 1] == colon {
                guard gap == nil else { return nil }
                gap = index
                index += 2
            } else {
                index += 1
            }
        }
        let all: [UInt16]
        if let gap {
            guard let head = groups(units[..<gap]), let tail = groups(units[(gap + 2)...]),
                head.count + tail.count <= 7
            else { return nil }
            all = head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        } else {
            guard let only = groups(units[...]), only.count == 8 else { return nil }
            all = only
        }
        self.bytes = all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
    }

    /// `::`, the unspecified address.
    public static let unspecified = IPv6Address(zeros: ())

    /// `::1`, the loopback address.
    public static let loopback = IPv6Address(zeros: (), last: 1)

    private init(zeros: Void, last: UInt8 = 0) { bytes = [UInt8](repeating: 0, count: 15) + [last] }

    /// The link-local address `fe80::/64` with an 8-byte interface identifier; nil for another length.
    public static func linkLocal(interfaceIdentifier: [UInt8]) -> IPv6Address? {
        guard interfaceIdentifier.count == 8 else { return nil }
        return IPv6Address(bytes: [0xfe, 0x80, 0, 0, 0, 0, 0, 0] + interfaceIdentifier)
    }

    /// Whether this is a link-local unicast address (`fe80::/10`).
    public var isLinkLocal: Bool { bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 }

    /// The text form of RFC 5952: lower-case hex groups without leading zeros, the longest run of two or more
    /// zero groups (the first of equal ones) as `::`. The same text `inet_ntop` gives.
    public var description: String {
        let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        var best = (start: 0, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index > best.length { best = (index, end - index) }
            index = end
        }
        let text = { (slice: ArraySlice<UInt16>) in slice.map { String($0, radix: 16) }.joined(separator: ":") }
        guard best.length >= 2 else { return text(groups[...]) }
        return text(groups[..<best.start]) + "::" + text(groups[(best.start + best.length)...])
    }
}

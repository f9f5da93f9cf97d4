/// An IEEE organizationally unique identifier (3 bytes, big-endian in the low 24 bits).
public struct OUI: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 24-bit value, e.g. `0x506F9A`.
    public let rawValue: UInt32
    /// Wraps a 24-bit value; higher bits are dropped.
    public init(rawValue: UInt32) { self.rawValue = rawValue & 0xFF_FFFF }

    /// The Wi-Fi Alliance OUI 50-6F-9A.
    public static let wifiAlliance = OUI(rawValue: 0x506F9A)

    /// `50-6f-9a` form.
    public var description: String {
        Hex.string([rawValue >> 16, rawValue >> 8, rawValue].map { UInt8(truncatingIfNeeded: $0) }, separator: "-")
    }
}

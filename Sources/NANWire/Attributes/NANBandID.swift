/// A NAN band ID (Wi-Fi Aware "List of Band Entries"): what a NAN Availability band entry, an Unaligned
/// Schedule attribute and the bits of the Device Capability attribute's Supported Bands field name.
///
/// IDs 1 (sub-1 GHz), 2 (2.4 GHz), 4 (4.9 and 5 GHz) and 7 (6 GHz) are defined; the others are reserved and
/// kept as they are.
public struct NANBandID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw ID.
    public let rawValue: UInt8
    /// Wraps a raw ID.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Sub-1 GHz (1).
    public static let sub1GHz = NANBandID(rawValue: 1)
    /// 2.4 GHz (2).
    public static let band2_4GHz = NANBandID(rawValue: 2)
    /// 4.9 and 5 GHz (4).
    public static let band5GHz = NANBandID(rawValue: 4)
    /// 6 GHz (7).
    public static let band6GHz = NANBandID(rawValue: 7)

    /// `2.4 GHz`, `5 GHz`, …, or `reserved band 3`.
    public var description: String {
        switch self {
        case .sub1GHz: return "sub-1 GHz"
        case .band2_4GHz: return "2.4 GHz"
        case .band5GHz: return "5 GHz"
        case .band6GHz: return "6 GHz"
        default: return "reserved band \(rawValue)"
        }
    }

    /// The band IDs whose bits are set in a Supported Bands bitmap (bit n = band ID n), lowest first.
    public static func bands(inBitmap bitmap: UInt8) -> [NANBandID] {
        (0..<8).filter { bitmap & (1 << $0) != 0 }.map { NANBandID(rawValue: UInt8($0)) }
    }
}

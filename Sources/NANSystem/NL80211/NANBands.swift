/// A frequency band, numbered as the kernel numbers them.
///
/// The corresponding nl80211 type is `enum nl80211_band` (used as u8 in NAN band configurations).
public struct RadioBand: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `nl80211_band` value.
    public let rawValue: UInt8
    /// Wraps an `nl80211_band` value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    private init(_ code: NL80211BandCode) { rawValue = code.rawValue }

    /// 2.4 GHz.
    public static let band2GHz = Self(._2ghz)
    /// 5 GHz.
    public static let band5GHz = Self(._5ghz)
    /// 60 GHz.
    public static let band60GHz = Self(._60ghz)
    /// 6 GHz.
    public static let band6GHz = Self(._6ghz)

    /// `2.4 GHz`, `5 GHz`, …
    public var description: String {
        switch NL80211BandCode(rawValue: rawValue) {
        case ._2ghz: "2.4 GHz"
        case ._5ghz: "5 GHz"
        case ._60ghz: "60 GHz"
        case ._6ghz: "6 GHz"
        case .s1ghz: "S1G"
        case .lc: "LC"
        case nil: "band \(rawValue)"
        }
    }
}

/// A set of frequency bands, as NAN uses them: bit N stands for `nl80211_band` N.
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_BANDS` (u32). In `GET_WIPHY` it lists the
/// bands NAN can use; in `START_NAN` the bands to operate on (0 means "let the driver choose").
public struct NANBands: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The bitmap.
    public let rawValue: UInt32
    /// Wraps a bitmap.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The set holding one band.
    public init(_ band: RadioBand) { rawValue = 1 << UInt32(band.rawValue) }

    /// 2.4 GHz.
    public static let band2GHz = NANBands(.band2GHz)
    /// 5 GHz.
    public static let band5GHz = NANBands(.band5GHz)
    /// 6 GHz.
    public static let band6GHz = NANBands(.band6GHz)
    /// 60 GHz.
    public static let band60GHz = NANBands(.band60GHz)

    /// The bands in the set, lowest first.
    public var bands: [RadioBand] {
        (0..<32).compactMap { bit in rawValue & (1 << UInt32(bit)) != 0 ? RadioBand(rawValue: UInt8(bit)) : nil }
    }

    /// `2.4 GHz + 5 GHz`, or `none`.
    public var description: String {
        isEmpty ? "none" : bands.map(\.description).joined(separator: " + ")
    }
}

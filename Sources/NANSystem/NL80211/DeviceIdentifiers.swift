internal import NANWire

/// A wireless radio ("phy"), as numbered by the kernel.
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_WIPHY` (u32).
public struct WiphyIndex: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kernel's wiphy index.
    public let rawValue: UInt32
    /// Wraps a wiphy index.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `phy#N`, as `iw` prints it.
    public var description: String { "phy#\(rawValue)" }
    /// Orders by index.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A wireless device ("wdev"): every interface has one, including the NAN interface, which has no
/// network device and is addressed only by this id.
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_WDEV` (u64; the wiphy index is in the top 32 bits).
public struct WirelessDeviceID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kernel's wdev id.
    public let rawValue: UInt64
    /// Wraps a wdev id.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The wiphy this device belongs to (the id's top 32 bits).
    public var wiphy: WiphyIndex { WiphyIndex(rawValue: UInt32(truncatingIfNeeded: rawValue >> 32)) }
    /// Hexadecimal, as `iw wdev 0x… ` takes it.
    public var description: String { "0x" + String(rawValue, radix: 16) }
    /// Parses `0x300000002` or a decimal number (digits only: no sign).
    public init?(_ text: String) {
        let digits = text.hasPrefix("0x") ? text.dropFirst(2) : text[...]
        guard digits.utf8.allSatisfy({ Hex.digitValue($0) != nil }) else { return nil }
        let value = text.hasPrefix("0x") ? UInt64(digits, radix: 16) : UInt64(digits)
        guard let value else { return nil }
        rawValue = value
    }
    /// Orders by id.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A network interface index (only interfaces with a netdev have one; the NAN interface does not).
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_IFINDEX` (u32).
public struct InterfaceIndex: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kernel's interface index.
    public let rawValue: UInt32
    /// Wraps an interface index.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The number.
    public var description: String { String(rawValue) }
    /// Orders by index.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A radio frequency in MHz (the centre of a 20 MHz channel, e.g. 2437 for channel 6).
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_WIPHY_FREQ` (u32).
public struct Frequency: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The frequency in MHz.
    public let rawValue: UInt32
    /// Wraps a frequency in MHz.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Wraps a frequency in MHz.
    public init(megahertz: UInt32) { self.rawValue = megahertz }
    /// `2437 MHz`.
    public var description: String { "\(rawValue) MHz" }
    /// Orders by frequency.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// 2437 MHz (channel 6), the NAN discovery channel on 2.4 GHz.
    public static let nan2GHz = Frequency(rawValue: 2437)
    /// 5745 MHz (channel 149), the preferred NAN discovery channel on 5 GHz.
    public static let nan5GHzHigh = Frequency(rawValue: 5745)
    /// 5220 MHz (channel 44), the alternative NAN discovery channel on 5 GHz.
    public static let nan5GHzLow = Frequency(rawValue: 5220)
}

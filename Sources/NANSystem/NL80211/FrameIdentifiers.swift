/// The kernel's handle for one transmitted management frame, reported again in its TX status.
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_COOKIE` (u64) of `NL80211_CMD_FRAME`.
public struct FrameCookie: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The cookie.
    public let rawValue: UInt64
    /// Wraps a cookie.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Hexadecimal.
    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// The kernel's handle for one offloaded NAN function (publish, subscribe or follow-up).
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_COOKIE` (u64) of `NL80211_CMD_ADD_NAN_FUNCTION`.
public struct NANFunctionCookie: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The cookie.
    public let rawValue: UInt64
    /// Wraps a cookie.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Hexadecimal.
    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// The 802.11 frame control field (type and subtype, little-endian as nl80211 takes it) of the
/// management frames to register for.
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_FRAME_TYPE` (u16).
public struct FrameType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The frame control value.
    public let rawValue: UInt16
    /// Wraps a frame control value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Action frames (`0x00d0`): NAN SDFs and NAFs are public action frames.
    public static let action = FrameType(rawValue: 0x00d0)
    /// Authentication frames (`0x00b0`), used by NAN pairing (PASN).
    public static let authentication = FrameType(rawValue: 0x00b0)

    /// `0x00d0`.
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// Byte prefixes of NAN public action frames, for ``NL80211Session/registerFrames(on:type:matching:)``.
public enum NANFramePrefix {
    /// Service Discovery Frame: public action, vendor specific, Wi-Fi Alliance OUI, type 0x13.
    public static let serviceDiscovery: [UInt8] = [0x04, 0x09, 0x50, 0x6f, 0x9a, 0x13]
    /// Protected Service Discovery Frame (protected dual of public action).
    public static let protectedServiceDiscovery: [UInt8] = [0x09, 0x09, 0x50, 0x6f, 0x9a, 0x13]
    /// NAN Action Frame: public action, vendor specific, Wi-Fi Alliance OUI, type 0x18.
    public static let nanAction: [UInt8] = [0x04, 0x09, 0x50, 0x6f, 0x9a, 0x18]
    /// Protected NAN Action Frame (protected dual of public action): what a peer sends NDI to NDI, under the
    /// data path's key, once a secure data path is up (wpa_supplicant 2.12's terminations, for instance).
    public static let protectedNANAction: [UInt8] = [0x09, 0x09, 0x50, 0x6f, 0x9a, 0x18]
}

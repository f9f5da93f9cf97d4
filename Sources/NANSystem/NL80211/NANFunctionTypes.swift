/// The kind of a NAN function.
///
/// The corresponding nl80211 type is `enum nl80211_nan_function_type` (`NL80211_NAN_FUNC_TYPE`, u8).
public enum NANFunctionType: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// Publish.
    case publish = 0
    /// Subscribe.
    case subscribe = 1
    /// Follow-up.
    case followUp = 2

    /// `publish`, `subscribe`, `follow-up`.
    public var description: String {
        switch self {
        case .publish: "publish"
        case .subscribe: "subscribe"
        case .followUp: "follow-up"
        }
    }
}

/// Why the kernel ended an offloaded NAN function.
///
/// The corresponding nl80211 type is `enum nl80211_nan_func_term_reason` (`NL80211_NAN_FUNC_TERM_REASON`, u8).
public struct NANTerminationReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The reason code.
    public let rawValue: UInt8
    /// Wraps a reason code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The function was removed on request.
    public static let userRequest = Self(rawValue: NL80211NANTermReasonCode.userRequest.rawValue)
    /// Its time to live expired.
    public static let ttlExpired = Self(rawValue: NL80211NANTermReasonCode.ttlExpired.rawValue)
    /// The device failed.
    public static let error = Self(rawValue: NL80211NANTermReasonCode.error.rawValue)

    /// `user request`, `expired`, `error`, or `reason N`.
    public var description: String {
        switch NL80211NANTermReasonCode(rawValue: rawValue) {
        case .userRequest: "user request"
        case .ttlExpired: "expired"
        case .error: "error"
        case nil: "reason \(rawValue)"
        }
    }
}

/// How a publish function announces itself. `enum nl80211_nan_publish_type` (bits of `NL80211_NAN_FUNC_PUBLISH_TYPE`).
public struct NANPublishType: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: UInt8
    /// Wraps the bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Answer active subscribers.
    public static let solicited = NANPublishType(rawValue: 1 << 0)
    /// Announce in discovery windows without being asked.
    public static let unsolicited = NANPublishType(rawValue: 1 << 1)
}

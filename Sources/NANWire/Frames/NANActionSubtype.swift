/// The subtype byte of a NAN Action Frame (after `… 50 6f 9a 18`).
///
/// Unknown values are kept; the frame still decodes.
public struct NANActionSubtype: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw byte.
    public let rawValue: UInt8
    /// Wraps a raw byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Ranging Request (1).
    public static let rangingRequest = NANActionSubtype(rawValue: 1)
    /// Ranging Response (2).
    public static let rangingResponse = NANActionSubtype(rawValue: 2)
    /// Ranging Termination (3).
    public static let rangingTermination = NANActionSubtype(rawValue: 3)
    /// Ranging Report (4).
    public static let rangingReport = NANActionSubtype(rawValue: 4)
    /// Data Path Request (5).
    public static let dataPathRequest = NANActionSubtype(rawValue: 5)
    /// Data Path Response (6).
    public static let dataPathResponse = NANActionSubtype(rawValue: 6)
    /// Data Path Confirm (7).
    public static let dataPathConfirm = NANActionSubtype(rawValue: 7)
    /// Data Path Key Installment (8).
    public static let dataPathKeyInstall = NANActionSubtype(rawValue: 8)
    /// Data Path Termination (9).
    public static let dataPathTermination = NANActionSubtype(rawValue: 9)
    /// Schedule Request (10).
    public static let scheduleRequest = NANActionSubtype(rawValue: 10)
    /// Schedule Response (11).
    public static let scheduleResponse = NANActionSubtype(rawValue: 11)
    /// Schedule Confirm (12).
    public static let scheduleConfirm = NANActionSubtype(rawValue: 12)
    /// Schedule Update Notification (13).
    public static let scheduleUpdateNotification = NANActionSubtype(rawValue: 13)

    /// Whether this is one of the five data-path subtypes (5…9).
    public var isDataPath: Bool { (5...9).contains(rawValue) }
    /// Whether this is one of the four schedule subtypes (10…13).
    public var isSchedule: Bool { (10...13).contains(rawValue) }

    /// A readable name.
    public var description: String {
        let names = [
            1: "ranging request", 2: "ranging response", 3: "ranging termination", 4: "ranging report",
            5: "data path request", 6: "data path response", 7: "data path confirm",
            8: "data path key install", 9: "data path termination", 10: "schedule request",
            11: "schedule response", 12: "schedule confirm", 13: "schedule update notification",
        ]
        return names[Int(rawValue)] ?? "subtype \(rawValue)"
    }
}

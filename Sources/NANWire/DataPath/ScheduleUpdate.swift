/// A peer's Schedule Update Notification NAF (subtype 13), checked: what it says its committed schedule
/// now is. The second stage after ``ScheduleMessage``: a notification without a NAN Availability attribute,
/// or whose availability commits no slot on a channel we can place, is refused (a typed error, never a trap).
///
/// Our own keepalives are such notifications too (every 2 s, our availability unchanged), so a receiver
/// compares ``availability`` with what it has and acts only on a change with a newer ``sequenceID``.
public struct ScheduleUpdate: Hashable, Sendable {
    /// The peer's committed availability as it announced it.
    public var availability: PeerAvailability
    /// The highest availability sequence ID of the notification.
    public var sequenceID: UInt8 { availability.sequenceID }

    /// Checks `message`: `.notThisFrame` for another schedule subtype, `.missing` without a NAN Availability
    /// attribute, `.outOfRange` when the attributes disagree on the sequence ID or commit nothing we can read.
    public init(_ message: ScheduleMessage) throws(NANWireError) {
        guard message.subtype == .scheduleUpdateNotification else {
            throw NANWireError(.notThisFrame, at: 6, "\(message.subtype) is not a schedule update notification")
        }
        guard let first = message.availability.first else {
            throw NANWireError(.missing, at: 0, "schedule update notification without a NAN Availability attribute")
        }
        guard message.availability.allSatisfy({ $0.sequenceID == first.sequenceID }) else {
            throw NANWireError(
                .outOfRange, at: 0, "schedule update notification: availability maps with different sequence IDs")
        }
        let availability = PeerAvailability(message.availability)
        guard !availability.maps.isEmpty else {
            throw NANWireError(.outOfRange, at: 0, "schedule update notification commits no slot on a known channel")
        }
        self.availability = availability
    }

    /// Decodes and checks a NAF: ``ScheduleMessage`` then ``init(_:)-(ScheduleMessage)``.
    public init(_ frame: NANActionFrame) throws(NANWireError) {
        try self.init(try ScheduleMessage(frame))
    }

    /// Whether availability sequence ID `candidate` comes after `current` (modulo 256, within half the
    /// range): an older or repeated notification that arrives late changes nothing.
    public static func sequence(_ candidate: UInt8, isNewerThan current: UInt8) -> Bool {
        let step = candidate &- current
        return step != 0 && step < 128
    }

    /// The notification announcing `schedule` (no NDL: an update outside a negotiation).
    public static func notification(announcing schedule: DataPathSchedule) -> ScheduleMessage {
        ScheduleMessage(subtype: .scheduleUpdateNotification, ndl: nil, availability: [schedule.availabilityAttribute])
    }
}

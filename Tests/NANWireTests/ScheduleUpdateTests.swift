import Testing
@testable import NANWire

@Suite struct ScheduleUpdateTests {
    @Test func aScheduleUpdateNotificationRoundTripsToThePeerScheduleItAnnounces() throws {
        let schedule = DataPathSchedule.preferred(fiveGHz: .channel149)
        let bytes = try ScheduleUpdate.notification(announcing: schedule).frame().encoded()
        #expect(bytes[6] == 13)
        let update = try ScheduleUpdate(NANActionFrame(actionBody: bytes))
        #expect(update.availability == PeerAvailability([schedule.availabilityAttribute]))
        #expect(update.sequenceID == schedule.sequenceID)
        #expect(update.availability.commonSlots(with: schedule).count == schedule.committedSlotCount)
    }

    @Test func aNotificationWithoutAReadableAvailabilityIsRefused() throws {
        let empty = ScheduleMessage(subtype: .scheduleUpdateNotification, ndl: nil)
        #expect(throws: NANWireError.self) { _ = try ScheduleUpdate(empty) }
        // Map entries with no committed slot on a channel we can place.
        let nothing = ScheduleMessage(
            subtype: .scheduleUpdateNotification, ndl: nil,
            availability: [.init(sequenceID: 4, control: 1, entries: [])])
        #expect(throws: NANWireError.self) { _ = try ScheduleUpdate(nothing) }
        // Two maps that disagree on the sequence ID.
        var second = DataPathSchedule.preferred(fiveGHz: nil).availabilityAttribute
        second.control = 2 | 1 << 4
        second.sequenceID = 9
        let mixed = ScheduleMessage(
            subtype: .scheduleUpdateNotification, ndl: nil,
            availability: [DataPathSchedule.preferred(fiveGHz: nil).availabilityAttribute, second])
        #expect(throws: NANWireError.self) { _ = try ScheduleUpdate(mixed) }
        // Another schedule subtype.
        let request = ScheduleMessage(
            subtype: .scheduleRequest, ndl: NDLAttribute(dialogToken: 1, type: .request),
            availability: [DataPathSchedule.preferred(fiveGHz: nil).availabilityAttribute])
        #expect(throws: NANWireError.self) { _ = try ScheduleUpdate(request) }
        // Not a schedule NAF at all.
        #expect(throws: NANWireError.self) {
            _ = try ScheduleUpdate(NANActionFrame(subtype: .dataPathRequest, attributes: []))
        }
    }

    @Test func sequenceIDsCompareModulo256() {
        #expect(ScheduleUpdate.sequence(2, isNewerThan: 1))
        #expect(ScheduleUpdate.sequence(1, isNewerThan: 255))
        #expect(!ScheduleUpdate.sequence(1, isNewerThan: 1))
        #expect(!ScheduleUpdate.sequence(1, isNewerThan: 2))
        #expect(!ScheduleUpdate.sequence(200, isNewerThan: 10))
    }

    @Test func evacuatingA5GHzChannelMovesItsSlotsToChannel6() throws {
        let schedule = DataPathSchedule.preferred(fiveGHz: .channel149)
        let moved = try #require(schedule.evacuating([5745], fallback: [.channel6, .channel44]))
        #expect(moved.channels == [.channel6])
        #expect(moved.committedSlotCount == schedule.committedSlotCount)
        #expect(moved.slots[0] == nil && moved.slots[8] == nil)
        #expect(moved.sequenceID == schedule.sequenceID + 1)
    }

    @Test func evacuatingTheOnlyChannelTakesAFallbackOrNothing() throws {
        let schedule = DataPathSchedule.preferred(fiveGHz: nil)
        let moved = try #require(schedule.evacuating([2437], fallback: [.channel6, .channel149]))
        #expect(moved.channels == [.channel149])
        #expect(moved.committedSlotCount == schedule.committedSlotCount)
        #expect(schedule.evacuating([2437], fallback: [.channel6]) == nil)
        #expect(schedule.evacuating([2437, 5745], fallback: [.channel149]) == nil)
        #expect(
            schedule.evacuating([5220], fallback: [])
                == DataPathSchedule(channels: [.channel6], slots: schedule.slots, sequenceID: 2))
    }
}

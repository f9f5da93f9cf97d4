import Testing
@testable import NANWire

@Suite struct NAFTests {
    @Test func typicalNDPRequestRoundTripsAsATypedMessage() throws {
        let message = TypicalFrames.ndpRequest
        let bytes = try message.frame().encoded()
        #expect(Array(bytes.prefix(7)) == hex("04 09 50 6f 9a 18 05"))
        let decoded = try DataPathMessage(NANActionFrame(actionBody: bytes))
        #expect(decoded == message)
        #expect(decoded.ndp.publishID == 5)
        #expect(decoded.ndp.initiatorNDI == mac("02:00:00:00:02:01"))
    }

    @Test func dataPathMessageNeedsAnNDP() {
        let frame = NANActionFrame(
            subtype: .dataPathRequest, attributes: [.ndlQoS(.init(minimumTimeSlots: 1, maximumLatency: 2))])
        #expect(throws: NANWireError(.missing, at: 0, "data path request NAF: no NDP or NDP Extension attribute")) {
            _ = try DataPathMessage(frame)
        }
    }

    @Test func dataPathMessageRefusesDuplicates() {
        let ndp = NDPAttribute(dialogToken: 1, type: .request, initiatorNDI: ndi1, ndpID: 1)
        let twice = NANActionFrame(subtype: .dataPathRequest, attributes: [.ndp(ndp), .ndp(ndp)])
        #expect(throws: NANWireError.self) { _ = try DataPathMessage(twice) }
        let mixed = NANActionFrame(
            subtype: .dataPathRequest,
            attributes: [.ndp(ndp), .ndpExtension(.init(dialogToken: 1, type: .request, initiatorNDI: ndi1, ndpID: 1))])
        #expect(throws: NANWireError.self) { _ = try DataPathMessage(mixed) }
        let avail = NANAvailabilityAttribute(sequenceID: 1, control: 1, entries: [])
        let sameMap = NANActionFrame(
            subtype: .dataPathRequest, attributes: [.ndp(ndp), .availability(avail), .availability(avail)])
        #expect(throws: NANWireError.self) { _ = try DataPathMessage(sameMap) }
    }

    @Test func ndpTypeMustFitTheSubtype() {
        let response = NDPAttribute(dialogToken: 1, type: .response, status: .accepted, initiatorNDI: ndi1, ndpID: 1)
        expectError(.outOfRange) {
            _ = try DataPathMessage(NANActionFrame(subtype: .dataPathRequest, attributes: [.ndp(response)]))
        }
    }

    @Test(arguments: [
        (NANActionSubtype.dataPathResponse, NDPMessageType.response), (.dataPathConfirm, .confirm),
        (.dataPathKeyInstall, .securityInstall), (.dataPathTermination, .terminate),
    ])
    func eachDataPathSubtypeTypes(subtype: NANActionSubtype, type: NDPMessageType) throws {
        let message = DataPathMessage(
            subtype: subtype, ndp: .ndpExtension(.init(dialogToken: 3, type: type, initiatorNDI: ndi1, ndpID: 2)))
        #expect(try DataPathMessage(NANActionFrame(actionBody: message.frame(isProtected: true).encoded())) == message)
    }

    @Test func scheduleMessagesNeedNDLExceptUpdateNotification() throws {
        let ndl = NDLAttribute(dialogToken: 4, type: .request)
        let request = ScheduleMessage(
            subtype: .scheduleRequest, ndl: ndl, availability: [.init(sequenceID: 2, control: 0, entries: [])])
        #expect(try ScheduleMessage(NANActionFrame(actionBody: request.frame().encoded())) == request)
        let update = ScheduleMessage(
            subtype: .scheduleUpdateNotification, ndl: nil,
            availability: [.init(sequenceID: 3, control: 0, entries: [])])
        #expect(try ScheduleMessage(update.frame()) == update)
        #expect(throws: NANWireError.self) {
            _ = try ScheduleMessage(NANActionFrame(subtype: .scheduleConfirm, attributes: []))
        }
        #expect(throws: NANWireError.self) {
            _ = try ScheduleMessage(NANActionFrame(subtype: .dataPathRequest, attributes: []))
        }
        #expect(throws: NANWireError.self) {
            _ = try DataPathMessage(NANActionFrame(subtype: .scheduleRequest, attributes: []))
        }
    }

    @Test func unknownSubtypeStillDecodes() throws {
        let frame = try NANActionFrame(actionBody: hex("04 09 50 6f 9a 18 7e 00 02 00 01 02"))
        #expect(frame.subtype.rawValue == 0x7e)
        #expect(frame.subtype.description == "subtype 126")
        #expect(frame.attributes.count == 1)
    }
}

import Testing
@testable import NANWire

/// A typical NDP request NAF as a peer would send it after discovery (used by tests and the corpus).
enum TypicalFrames {
    static let publisher = mac("02:00:00:00:01:00")
    static let subscriber = mac("02:00:00:00:02:00")

    static var ndpRequest: DataPathMessage {
        let committed = AvailabilityEntry(control: 0x0201, timeBitmap: TimeBitmap(control: 0x0018, bitmap: [0x0e, 0, 0, 0][...]),
                                          bandChannels: .channels([ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0)]))
        let potential = AvailabilityEntry(control: 0x0202, bandChannels: .bands([2, 4]))
        return DataPathMessage(
            subtype: .dataPathRequest,
            ndp: .ndp(NDPAttribute(dialogToken: 1, type: .request, initiatorNDI: mac("02:00:00:00:02:01"), ndpID: 1,
                                   confirmRequired: true, securityPresent: true, publishID: 5)),
            deviceCapability: DeviceCapabilityAttribute(committedDWInfo: 0x0012, supportedBands: 0x14, operationMode: 1, antennas: 0x22,
                                                        maxChannelSwitchTime: 1024, capabilities: 0x0a),
            availability: [NANAvailabilityAttribute(sequenceID: 1, control: 0x0011, entries: [committed, potential])],
            ndl: NDLAttribute(dialogToken: 1, type: .request, ndcAttributePresent: true, qosAttributePresent: true, maxIdlePeriod: 300),
            ndlQoS: NDLQoSAttribute(minimumTimeSlots: 2, maximumLatency: 0xffff),
            ndc: NDCAttribute(ndcID: mac("50:6f:9a:01:00:00"), selected: true,
                              schedule: [ScheduleEntry(mapID: 1, timeBitmap: TimeBitmap(control: 0x0018, bitmap: [0x02, 0, 0, 0][...]))]),
            elementContainer: ElementContainerAttribute(elements: [InformationElement(id: 45, body: [UInt8](repeating: 0x11, count: 26)[...])]),
            cipherSuiteInfo: CipherSuiteInfoAttribute(capabilities: 0, entries: [.init(suite: .skCCM128, publishID: 5)]),
            securityContextInfo: SecurityContextInfoAttribute(entries: [.init(type: 1, publishID: 5, identifier: [UInt8](0..<16)[...])]),
            sharedKeyDescriptor: SharedKeyDescriptorAttribute(publishID: 5, keyDescriptor: [UInt8](repeating: 0x22, count: 95)[...]))
    }

    static var publishSDF: ServiceDiscoveryFrame {
        ServiceDiscoveryFrame(messages: [ServiceDiscoveryMessage(
            descriptor: ServiceDescriptorAttribute(serviceID: ServiceID(hex: "c57ed9d5d167")!, instanceID: 5, controlType: .publish,
                                                   matchingFilter: try! MatchingFilter(elements: [Array("v1".utf8), []])),
            descriptorExtension: ServiceDescriptorExtensionAttribute(
                instanceID: 5, control: [.dataPathRequired, .securityRequired],
                serviceInfo: .init(protocolType: .generic, info: [UInt8]("model=demo;port=8080".utf8)[...])))])
    }

    static func header(source: MACAddress, destination: MACAddress) -> ManagementHeader {
        ManagementHeader(destination: destination, source: source, bssid: mac("50:6f:9a:01:12:34"), sequenceControl: 0x0100)
    }
}

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
        let frame = NANActionFrame(subtype: .dataPathRequest, attributes: [.ndlQoS(.init(minimumTimeSlots: 1, maximumLatency: 2))])
        #expect(throws: NANWireError(.missing, at: 0, "data path request NAF: no NDP or NDP Extension attribute")) { _ = try DataPathMessage(frame) }
    }

    @Test func dataPathMessageRefusesDuplicates() {
        let ndp = NDPAttribute(dialogToken: 1, type: .request, initiatorNDI: ndi1, ndpID: 1)
        let twice = NANActionFrame(subtype: .dataPathRequest, attributes: [.ndp(ndp), .ndp(ndp)])
        #expect(throws: NANWireError.self) { _ = try DataPathMessage(twice) }
        let mixed = NANActionFrame(subtype: .dataPathRequest, attributes: [.ndp(ndp), .ndpExtension(.init(dialogToken: 1, type: .request, initiatorNDI: ndi1, ndpID: 1))])
        #expect(throws: NANWireError.self) { _ = try DataPathMessage(mixed) }
        let avail = NANAvailabilityAttribute(sequenceID: 1, control: 1, entries: [])
        let sameMap = NANActionFrame(subtype: .dataPathRequest, attributes: [.ndp(ndp), .availability(avail), .availability(avail)])
        #expect(throws: NANWireError.self) { _ = try DataPathMessage(sameMap) }
    }

    @Test func ndpTypeMustFitTheSubtype() {
        let response = NDPAttribute(dialogToken: 1, type: .response, status: .accepted, initiatorNDI: ndi1, ndpID: 1)
        expectError(.outOfRange) {
            _ = try DataPathMessage(NANActionFrame(subtype: .dataPathRequest, attributes: [.ndp(response)]))
        }
    }

    @Test(arguments: [(NANActionSubtype.dataPathResponse, NDPMessageType.response), (.dataPathConfirm, .confirm),
                      (.dataPathKeyInstall, .securityInstall), (.dataPathTermination, .terminate)])
    func eachDataPathSubtypeTypes(subtype: NANActionSubtype, type: NDPMessageType) throws {
        let message = DataPathMessage(subtype: subtype, ndp: .ndpExtension(.init(dialogToken: 3, type: type, initiatorNDI: ndi1, ndpID: 2)))
        #expect(try DataPathMessage(NANActionFrame(actionBody: message.frame(isProtected: true).encoded())) == message)
    }

    @Test func scheduleMessagesNeedNDLExceptUpdateNotification() throws {
        let ndl = NDLAttribute(dialogToken: 4, type: .request)
        let request = ScheduleMessage(subtype: .scheduleRequest, ndl: ndl, availability: [.init(sequenceID: 2, control: 0, entries: [])])
        #expect(try ScheduleMessage(NANActionFrame(actionBody: request.frame().encoded())) == request)
        let update = ScheduleMessage(subtype: .scheduleUpdateNotification, ndl: nil, availability: [.init(sequenceID: 3, control: 0, entries: [])])
        #expect(try ScheduleMessage(update.frame()) == update)
        #expect(throws: NANWireError.self) { _ = try ScheduleMessage(NANActionFrame(subtype: .scheduleConfirm, attributes: [])) }
        #expect(throws: NANWireError.self) { _ = try ScheduleMessage(NANActionFrame(subtype: .dataPathRequest, attributes: [])) }
        #expect(throws: NANWireError.self) { _ = try DataPathMessage(NANActionFrame(subtype: .scheduleRequest, attributes: [])) }
    }

    @Test func unknownSubtypeStillDecodes() throws {
        let frame = try NANActionFrame(actionBody: hex("04 09 50 6f 9a 18 7e 00 02 00 01 02"))
        #expect(frame.subtype.rawValue == 0x7e)
        #expect(frame.subtype.description == "subtype 126")
        #expect(frame.attributes.count == 1)
    }
}

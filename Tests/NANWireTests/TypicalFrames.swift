@testable import NANWire

/// A typical NDP request NAF as a peer would send it after discovery (used by tests and the corpus).
enum TypicalFrames {
    static let publisher = mac("02:00:00:00:01:00")
    static let subscriber = mac("02:00:00:00:02:00")

    static var ndpRequest: DataPathMessage {
        let committed = AvailabilityEntry(
            control: 0x0201, timeBitmap: TimeBitmap(control: 0x0018, bitmap: [0x0e, 0, 0, 0][...]),
            bandChannels: .channels([ChannelEntry(operatingClass: 81, channelBitmap: 0x0020, primaryChannelBitmap: 0)]))
        let potential = AvailabilityEntry(control: 0x0202, bandChannels: .bands([2, 4]))
        return DataPathMessage(
            subtype: .dataPathRequest,
            ndp: .ndp(
                NDPAttribute(
                    dialogToken: 1, type: .request, initiatorNDI: mac("02:00:00:00:02:01"), ndpID: 1,
                    confirmRequired: true, securityPresent: true, publishID: 5)),
            deviceCapability: DeviceCapabilityAttribute(
                committedDWInfo: 0x0012, supportedBands: 0x14, operationMode: 1, antennas: 0x22,
                maxChannelSwitchTime: 1024, capabilities: 0x0a),
            availability: [NANAvailabilityAttribute(sequenceID: 1, control: 0x0011, entries: [committed, potential])],
            ndl: NDLAttribute(
                dialogToken: 1, type: .request, ndcAttributePresent: true, qosAttributePresent: true, maxIdlePeriod: 300
            ),
            ndlQoS: NDLQoSAttribute(minimumTimeSlots: 2, maximumLatency: 0xffff),
            ndc: NDCAttribute(
                ndcID: mac("50:6f:9a:01:00:00"), selected: true,
                schedule: [
                    ScheduleEntry(mapID: 1, timeBitmap: TimeBitmap(control: 0x0018, bitmap: [0x02, 0, 0, 0][...]))
                ]),
            elementContainer: ElementContainerAttribute(elements: [
                InformationElement(id: 45, body: [UInt8](repeating: 0x11, count: 26)[...])
            ]),
            cipherSuiteInfo: CipherSuiteInfoAttribute(
                capabilities: 0, entries: [.init(suite: .skCCM128, publishID: 5)]),
            securityContextInfo: SecurityContextInfoAttribute(entries: [
                .init(type: 1, publishID: 5, identifier: [UInt8](0..<16)[...])
            ]),
            sharedKeyDescriptor: SharedKeyDescriptorAttribute(
                publishID: 5, keyDescriptor: [UInt8](repeating: 0x22, count: 95)[...]))
    }

    static var publishSDF: ServiceDiscoveryFrame {
        ServiceDiscoveryFrame(messages: [
            ServiceDiscoveryMessage(
                descriptor: ServiceDescriptorAttribute(
                    serviceID: ServiceID(hex: "c57ed9d5d167")!, instanceID: 5, controlType: .publish,
                    matchingFilter: try! MatchingFilter(elements: [Array("v1".utf8), []])),
                descriptorExtension: ServiceDescriptorExtensionAttribute(
                    instanceID: 5, control: [.dataPathRequired, .securityRequired],
                    serviceInfo: .init(protocolType: .generic, info: [UInt8]("model=demo;port=8080".utf8)[...])))
        ])
    }

    static func header(source: MACAddress, destination: MACAddress) -> ManagementHeader {
        ManagementHeader(
            destination: destination, source: source, bssid: mac("50:6f:9a:01:12:34"), sequenceControl: 0x0100)
    }
}

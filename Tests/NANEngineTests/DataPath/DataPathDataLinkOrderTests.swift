import Testing
import NANWire
@testable import NANEngine

private let publisherNMI = MACAddress(0x42, 0, 0, 0, 0, 0)
private let subscriberNMI = MACAddress(0x42, 0, 0, 0, 1, 0)
private let publisherNDI = MACAddress(0x52, 0, 0, 0, 0, 0)
private let subscriberNDI = MACAddress(0x52, 0, 0, 0, 1, 0)

private func device(_ nmi: MACAddress) -> DataPathLocalDevice {
    DataPathLocalDevice(nmi: nmi, schedule: .preferred(fiveGHz: .channel149),
                        deviceCapability: DeviceCapabilityAttribute(committedDWInfo: 0x0009, supportedBands: 0x14, capabilities: 0x08),
                        capabilityElements: [InformationElement(id: 45, body: [UInt8](repeating: 0, count: 26)[...])],
                        ndcID: MACAddress(0x50, 0x6f, 0x9a, 0x01, 0, 1))
}

private func overTheAir(_ message: DataPathMessage) throws -> DataPathMessage {
    var writer = ByteWriter()
    try message.frame().encode(into: &writer)
    return try DataPathMessage(NANActionFrame(actionBody: writer.bytes))
}

private func sends(_ actions: [DataPathAction]) -> [DataPathMessage] {
    actions.compactMap { if case .send(let m, _, _) = $0 { return m } else { return nil } }
}

/// The `WAWARE_DP_NDL_TX` experiment's ordering (``DataPathEngine/dataLinkFirst(_:)``).
@Suite struct DataPathDataLinkOrderTests {
    let now = ContinuousClock.now

    @Test func theOpenConfirmMovesAfterItsEstablishmentAndCarriesTheLink() throws {
        var initiator = DataPathNegotiations(local: device(subscriberNMI), localNDI: subscriberNDI)
        var responder = DataPathNegotiations(local: device(publisherNMI), localNDI: publisherNDI)
        responder.acceptingPublishes = [InstanceID(3)]
        let (_, start) = try #require(try initiator.initiate(to: publisherNMI, publishID: InstanceID(3), serviceInfo: [], now: now))
        let answer = responder.receive(try overTheAir(try #require(sends(start).first)), from: subscriberNMI, now: now)
        // The responder's answer to a request has no establishment: nothing moves, nothing carries a link.
        let unchanged = DataPathEngine.dataLinkFirst(answer)
        #expect(unchanged.map(\.action) == answer && unchanged.allSatisfy { $0.link == nil })
        let afterResponse = initiator.receive(try overTheAir(try #require(sends(answer).first)), from: publisherNMI, now: now)
        let ordered = DataPathEngine.dataLinkFirst(afterResponse)
        #expect(ordered.count == afterResponse.count)
        guard case .establish(let link)? = ordered.first?.action, case .send(let confirm, _, _)? = ordered.last?.action else {
            Issue.record("not establish then confirm: \(ordered.map(\.action))"); return
        }
        #expect(confirm.subtype == .dataPathConfirm)
        #expect(ordered.last?.link == link && ordered.first?.link == nil)
    }

    @Test func withoutAnEstablishmentTheOrderIsKept() throws {
        var initiator = DataPathNegotiations(local: device(subscriberNMI), localNDI: subscriberNDI)
        let (id, start) = try #require(try initiator.initiate(to: publisherNMI, publishID: InstanceID(3), serviceInfo: [], now: now))
        let both = start + initiator.terminate(id)
        let ordered = DataPathEngine.dataLinkFirst(both)
        #expect(ordered.map(\.action) == both && ordered.allSatisfy { $0.link == nil })
    }
}

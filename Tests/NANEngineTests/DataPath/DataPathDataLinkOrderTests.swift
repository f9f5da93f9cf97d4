import Testing
import NANWire
@testable import NANEngine

private let publisherNMI = MACAddress(0x42, 0, 0, 0, 0, 0)
private let subscriberNMI = MACAddress(0x42, 0, 0, 0, 1, 0)
private let publisherNDI = MACAddress(0x52, 0, 0, 0, 0, 0)
private let subscriberNDI = MACAddress(0x52, 0, 0, 0, 1, 0)

/// The `WAWARE_DP_NDL_TX` experiment's ordering (``DataPathEngine/dataLinkFirst(_:)``).
@Suite struct DataPathDataLinkOrderTests {
    let now = ContinuousClock.now

    @Test func theOpenConfirmMovesAfterItsEstablishmentAndCarriesTheLink() throws {
        var initiator = DataPathNegotiations(local: DataPathFixture.device(subscriberNMI), localNDI: subscriberNDI)
        var responder = DataPathNegotiations(local: DataPathFixture.device(publisherNMI), localNDI: publisherNDI)
        responder.acceptingPublishes = [InstanceID(3)]
        let (_, start) = try #require(
            try initiator.initiate(to: publisherNMI, publishID: InstanceID(3), serviceInfo: [], now: now))
        let answer = responder.receive(
            try DataPathFixture.overTheAir(try #require(DataPathFixture.sends(start).first)), from: subscriberNMI,
            now: now)
        // The responder's answer to a request has no establishment: nothing moves, nothing carries a link.
        let unchanged = DataPathEngine.dataLinkFirst(answer)
        #expect(unchanged.map(\.action) == answer && unchanged.allSatisfy { $0.link == nil })
        let afterResponse = initiator.receive(
            try DataPathFixture.overTheAir(try #require(DataPathFixture.sends(answer).first)), from: publisherNMI,
            now: now)
        let ordered = DataPathEngine.dataLinkFirst(afterResponse)
        #expect(ordered.count == afterResponse.count)
        guard case .establish(let link)? = ordered.first?.action, case .send(let confirm, _, _)? = ordered.last?.action
        else {
            Issue.record("not establish then confirm: \(ordered.map(\.action))"); return
        }
        #expect(confirm.subtype == .dataPathConfirm)
        #expect(ordered.last?.link == link && ordered.first?.link == nil)
    }

    @Test func withoutAnEstablishmentTheOrderIsKept() throws {
        var initiator = DataPathNegotiations(local: DataPathFixture.device(subscriberNMI), localNDI: subscriberNDI)
        let (id, start) = try #require(
            try initiator.initiate(to: publisherNMI, publishID: InstanceID(3), serviceInfo: [], now: now))
        let both = start + initiator.terminate(id)
        let ordered = DataPathEngine.dataLinkFirst(both)
        #expect(ordered.map(\.action) == both && ordered.allSatisfy { $0.link == nil })
    }
}

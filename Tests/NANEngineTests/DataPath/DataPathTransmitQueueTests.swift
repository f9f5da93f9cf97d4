import NANWire
import Testing
@testable import NANEngine

/// The data path's outgoing frames: a frame not acknowledged goes again at the next DW until its attempts
/// run out, a keepalive's status goes to liveness.
@Suite struct DataPathTransmitQueueTests {
    static let ndp = NDPIdentifier(
        peer: MACAddress(0x42, 0, 0, 0, 0, 1), initiatorNDI: MACAddress(0x42, 0, 0, 0, 0, 2), ndpID: 1)

    static func frame(last: Bool = false, keepalive: MACAddress? = nil) -> DataPathTransmitQueue.Outgoing {
        DataPathTransmitQueue.Outgoing(bytes: [1, 2, 3], ndp: ndp, attempts: 0, last: last, keepalive: keepalive)
    }

    @Test func anUnacknowledgedFrameIsRetriedUntilItsAttemptsRunOut() {
        var queue = DataPathTransmitQueue()
        var item = Self.frame()
        for attempt in 1...DataPathTransmitQueue.maximumAttempts {
            (item, _) = DataPathTransmitQueue.attempt(item, windowFrequency: 2437)
            let outcome = queue.status(of: item, acknowledged: false)
            if attempt < DataPathTransmitQueue.maximumAttempts {
                #expect(outcome == .retry)
                let due = queue.takeDue()
                #expect(due.count == 1)
                item = due[0]
            } else {
                #expect(outcome == .givenUp(Self.ndp))
            }
        }
        #expect(queue.takeDue().isEmpty)
    }

    @Test func aTerminationIsSentOnceAndAKeepaliveGoesToLiveness() {
        var queue = DataPathTransmitQueue()
        let termination = queue.status(of: Self.frame(last: true), acknowledged: false)
        #expect(termination == .done)
        let peer = MACAddress(0x42, 0, 0, 0, 0, 9)
        let keepalive = queue.status(of: Self.frame(last: true, keepalive: peer), acknowledged: true)
        #expect(keepalive == .keepalive(peer, acknowledged: true))
        #expect(queue.takeDue().isEmpty)
    }

    @Test func theFirstAttemptTakesTheDataLinkAndRetriesTheDW() {
        var item = Self.frame()
        item.dataLinkFrequency = 5745
        let (first, frequency) = DataPathTransmitQueue.attempt(item, windowFrequency: 2437)
        #expect(frequency == 5745 && first.attempts == 1)
        #expect(DataPathTransmitQueue.attempt(first, windowFrequency: 2437).frequency == 2437)
    }

    @Test func anEndedDataPathLosesItsRetriesButNotItsLastFrames() {
        var queue = DataPathTransmitQueue()
        queue.refused(DataPathTransmitQueue.attempt(Self.frame(), windowFrequency: nil).item)
        queue.forget(Self.ndp)
        #expect(queue.takeDue().isEmpty)
    }
}

/// Peers with data paths are lost after enough unanswered keepalives; a data path whose packet count stands
/// still for its idle timeout is idle.
@Suite struct DataPathLivenessTests {
    static let peer = MACAddress(0x42, 0, 0, 0, 0, 1)

    @Test func aPeerGoesQuietThenIsLostAfterItsMissesAndAnAuthenticatedFrameResetsThem() {
        var liveness = DataPathLiveness()
        liveness.peerLossMisses = 3
        liveness.watch(Self.peer, now: .now)
        var changes: [DataPathLiveness.Change] = []
        changes.append(liveness.probe(of: Self.peer, acknowledged: false))
        changes.append(liveness.probe(of: Self.peer, acknowledged: false))
        changes.append(liveness.heard(from: Self.peer))
        changes.append(liveness.probe(of: Self.peer, acknowledged: false))
        changes.append(liveness.probe(of: Self.peer, acknowledged: false))
        changes.append(liveness.probe(of: Self.peer, acknowledged: false))
        liveness.forget(peer: Self.peer)
        changes.append(liveness.probe(of: Self.peer, acknowledged: false))
        #expect(changes == [.none, .quiet, .answering, .none, .quiet, .lost, .none])
    }

    @Test func aQuietPeerThatAcknowledgesAProbeAnswersOnce() {
        var liveness = DataPathLiveness()
        liveness.watch(Self.peer, now: .now)
        let changes = [false, false, false, true, true].map { liveness.probe(of: Self.peer, acknowledged: $0) }
        #expect(changes == [.none, .quiet, .none, .answering, .none])
        #expect(liveness.heard(from: Self.peer) == .none)
    }

    @Test func probesAreDueOncePerInterval() {
        var liveness = DataPathLiveness()
        let start = ContinuousClock.now
        liveness.watch(Self.peer, now: start)
        let early = liveness.probesDue(now: start + .seconds(1))
        let due = liveness.probesDue(now: start + .seconds(2))
        let again = liveness.probesDue(now: start + .seconds(3))
        #expect(early.isEmpty && due == [Self.peer] && again.isEmpty)
    }

    @Test func aDataPathIsIdleWhenItsPacketCountStandsStillForItsTimeout() {
        var liveness = DataPathLiveness()
        let id = DataPathTransmitQueueTests.ndp
        let publish: InstanceID = 3
        liveness.setIdleTimeout(.seconds(8), forPublish: publish)
        #expect(liveness.idleTimeout(of: id, publish: publish) == .seconds(8))
        #expect(liveness.idleTimeout(of: id, publish: nil) == nil)
        let start = ContinuousClock.now
        let idle = [
            liveness.observe(id, packets: 5, now: start, limit: .seconds(8)),
            liveness.observe(id, packets: 5, now: start + .seconds(7), limit: .seconds(8)),
            liveness.observe(id, packets: 6, now: start + .seconds(9), limit: .seconds(8)),
            liveness.observe(id, packets: 6, now: start + .seconds(17), limit: .seconds(8)),
        ]
        #expect(idle == [nil, nil, nil, .seconds(8)])
    }
}

@testable import NANEngine
import NANWire
import Testing

/// The data-path negotiation of an NCS-SK data path (request, response, confirm, key install between two
/// ``DataPathNegotiations`` tables) with random frames delivered between its steps: the frames sent so far
/// again, copies mutated byte by byte, and a third party's frames for the same data path sealed under another
/// passphrase (the peer's address spoofed: only the MIC tells them apart).
///
/// What must hold: no trap; no stray frame establishes a data path or moves the genuine one to another phase;
/// the only stray frames that may end it are those nothing can authenticate (a termination, a rejecting
/// status); otherwise the genuine frames still complete it, both sides with the same key, and the refused
/// frames' grace then ends nothing.
@Suite struct DataPathNegotiationSequenceFuzzTests {
    typealias Run = WPASupplicantRun

    /// A NAF as sent: its action body and the message a receiver types from it.
    struct Frame {
        var body: [UInt8]
        var message: DataPathMessage

        init?(body: [UInt8]) {
            guard let frame = try? NANActionFrame(actionBody: body), let message = try? DataPathMessage(frame) else {
                return nil
            }
            self.body = body
            self.message = message
        }
    }

    static func frames(_ actions: [DataPathAction]) -> [Frame] {
        actions.compactMap { action -> Frame? in
            switch action {
            case .sendSealed(_, let body, _, _): return Frame(body: body)
            case .send(let message, _, _): return (try? message.frame().encoded()).flatMap { Frame(body: $0) }
            default: return nil
            }
        }
    }

    static func links(_ actions: [DataPathAction]) -> [NDPLink] {
        actions.compactMap { if case .establish(let link) = $0 { return link } else { return nil } }
    }

    static func endings(_ actions: [DataPathAction]) -> [NDPIdentifier] {
        actions.compactMap { if case .ended(let id, _, _) = $0 { return id } else { return nil } }
    }

    /// Two tables for one secure data path, subscriber initiating toward publish 1.
    struct Pair {
        var initiator = DataPathNegotiations(
            local: DataPathFixture.device(Run.subscriberNMI), localNDI: Run.subscriberNDI)
        var responder = DataPathNegotiations(
            local: DataPathFixture.device(Run.publisherNMI), localNDI: Run.publisherNDI)
        let passphrase: String

        init(passphrase: String, nonceByte: UInt8) {
            self.passphrase = passphrase
            responder.acceptingPublishes = [InstanceID(1)]
            responder.publishSecurity[InstanceID(1)] = policy
            initiator.fixedNonce = [UInt8](repeating: nonceByte, count: 32)
            responder.fixedNonce = [UInt8](repeating: nonceByte &+ 1, count: 32)
        }

        var policy: NDPSecurityPolicy {
            NDPSecurityPolicy(credential: .passphrase(passphrase), suites: [.sk128], serviceID: Run.serviceID)
        }

        /// Delivers `frame` to one side.
        mutating func deliver(_ frame: Frame, toInitiator: Bool, now: ContinuousClock.Instant) -> [DataPathAction] {
            toInitiator
                ? initiator.receive(frame.message, body: frame.body, from: Run.publisherNMI, now: now)
                : responder.receive(frame.message, body: frame.body, from: Run.subscriberNMI, now: now)
        }

        /// The four genuine frames of a complete handshake between these tables (run on copies).
        func handshake(now: ContinuousClock.Instant) throws -> [Frame] {
            var pair = self
            let (_, actions) = try #require(
                try pair.initiator.initiate(
                    to: Run.publisherNMI, publishID: InstanceID(1), serviceInfo: [],
                    security: policy, now: now))
            let request = try #require(DataPathNegotiationSequenceFuzzTests.frames(actions).first)
            let response = try #require(
                DataPathNegotiationSequenceFuzzTests.frames(pair.deliver(request, toInitiator: false, now: now)).first)
            let confirm = try #require(
                DataPathNegotiationSequenceFuzzTests.frames(pair.deliver(response, toInitiator: true, now: now)).first)
            let keyInstall = try #require(
                DataPathNegotiationSequenceFuzzTests.frames(pair.deliver(confirm, toInitiator: false, now: now)).first)
            return [request, response, confirm, keyInstall]
        }
    }

    /// A stray frame may end the data path only when nothing could have authenticated it anyway.
    static func mayEnd(_ frame: Frame) -> Bool {
        frame.message.subtype == .dataPathTermination || frame.message.ndp.status == .rejected
            || frame.message.ndl?.status == .rejected
    }

    @Test func strayFramesBetweenTheStepsNeverEstablishNorMoveTheDataPathAndTheGenuineOnesStillComplete() async throws {
        let now = ContinuousClock.now
        let genuine = try Pair(passphrase: "correct horse", nonceByte: 0x11).handshake(now: now)
        let thirdParty = try Pair(passphrase: "another passphrase", nonceByte: 0x11).handshake(now: now)
        let budget = FuzzBudget.fromEnvironment(defaultSequences: 150)
        var completed = 0, endedByUnauthenticated = 0
        await budget.run("data-path negotiation") { random, _ in
            var pair = Pair(passphrase: "correct horse", nonceByte: 0x11)
            guard
                let (id, actions) = try? pair.initiator.initiate(
                    to: Run.publisherNMI, publishID: InstanceID(1), serviceInfo: [],
                    security: pair.policy, now: now),
                Self.frames(actions).first?.body == genuine[0].body
            else { return "the request is not the recorded one" }
            // The responder knows the data path by the initiator's NMI.
            let responderID = NDPIdentifier(peer: Run.subscriberNMI, initiatorNDI: id.initiatorNDI, ndpID: id.ndpID)
            // Which genuine frame goes next, to which side, and what each side's phase must then be.
            var sent = [genuine[0]]
            for step in 1...4 {
                let pending = genuine[step - 1]
                let toInitiator = step % 2 == 0
                let phases = (pair.initiator.phases[id], pair.responder.phases[responderID])
                let pool = sent + thirdParty
                for _ in 0..<Int.random(in: 0...5, using: &random) {
                    var stray = random.pick(pool)
                    if random.chance(60) {
                        let mutated = FrameMutation.mutate(
                            stray.body, others: pool.map(\.body), keep: 2, using: &random)
                        guard let parsed = Frame(body: mutated) else { continue }
                        stray = parsed
                    }
                    if stray.body == pending.body { continue }
                    // Before the request reaches it the responder holds nothing to protect: message 1 carries no
                    // MIC, so a request that parses is a request (the real one, sent first, holds the place).
                    let strayToInitiator = step == 1 || random.chance(50)
                    let result = pair.deliver(stray, toInitiator: strayToInitiator, now: now)
                    let side = strayToInitiator ? "initiator" : "responder"
                    if Self.links(result).contains(where: { $0.id == id || $0.id == responderID }) {
                        return "a stray \(stray.message.subtype) established the data path at the \(side)"
                    }
                    if Self.endings(result).contains(where: { $0 == id || $0 == responderID }) {
                        guard Self.mayEnd(stray) else {
                            return
                                "a stray \(stray.message.subtype) (status \(stray.message.ndp.status)) ended the data path at the \(side)"
                        }
                        endedByUnauthenticated += 1
                        return nil
                    }
                    if (pair.initiator.phases[id], pair.responder.phases[responderID]) != phases {
                        return "a stray \(stray.message.subtype) moved the data path at the \(side)"
                    }
                }
                let result = pair.deliver(pending, toInitiator: toInitiator, now: now)
                if step < 4 {
                    guard let next = Self.frames(result).first, next.body == genuine[step].body else {
                        return "the genuine frame \(step) did not bring frame \(step + 1)"
                    }
                    sent.append(next)
                }
                if step >= 3, Self.links(result).first(where: { $0.id == (step == 3 ? responderID : id) }) == nil {
                    return "the genuine frame \(step) did not establish the data path"
                }
            }
            guard pair.initiator.phases[id] == .established, pair.responder.phases[responderID] == .established else {
                return "not established on both sides"
            }
            guard pair.initiator.entries[id]?.key?.temporalKey == pair.responder.entries[responderID]?.key?.temporalKey
            else { return "the keys differ" }
            let later = now + pair.initiator.securityFailureGrace + .seconds(1)
            guard pair.initiator.tick(now: later).isEmpty, pair.responder.tick(now: later).isEmpty else {
                return "a refused frame's grace ended the established data path"
            }
            completed += 1
            return nil
        }
        #expect(completed + endedByUnauthenticated == budget.sequences)
        #expect(completed > 0)
    }
}

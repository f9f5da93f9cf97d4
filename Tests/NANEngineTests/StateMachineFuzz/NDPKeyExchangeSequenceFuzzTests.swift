@testable import NANEngine
import NANWire
import Testing

/// The NCS-SK 4-way handshake (messages 1–4) fed random sequences of its own recorded frames, mutated,
/// replayed, duplicated, reordered, dropped, and frames sealed by a third party under another PMK (the
/// peer's address spoofed: only the MIC tells them apart). Each side must take exactly the genuine next
/// message; anything else throws and leaves the exchange as it was; the genuine messages still complete it.
@Suite struct NDPKeyExchangeSequenceFuzzTests {
    typealias Run = WPASupplicantRun

    /// One recorded handshake: the exchanges waiting for message 2 (initiator) and 3 (responder), copied
    /// for each sequence, and the bodies of messages 1–4. Nonces are fixed, so a copy re-runs to the same
    /// bytes and the TK is known.
    struct Recording {
        var initiator: NDPKeyExchange
        var responder: NDPKeyExchange
        var messages: [[UInt8]]
        var temporalKey: [UInt8]

        init(suite: NDPCipherSuite, credential: NDPCredential, nonceByte: UInt8) throws {
            let skeleton = NDPKeyExchangeRoundTripTests.body
            var initiator = try NDPKeyExchange(
                initiator: suite, credential: credential, serviceID: Run.serviceID, publishID: InstanceID(1),
                localNMI: Run.subscriberNMI, peerNMI: Run.publisherNMI, localNDI: Run.subscriberNDI,
                nonce: [UInt8](repeating: nonceByte, count: 32))
            var m1 = try skeleton(try Run.request, try initiator.requestAttributes())
            try initiator.seal(&m1)
            var responder = try NDPKeyExchange(
                respondingTo: m1, credential: credential, acceptedSuites: [suite], serviceID: Run.serviceID,
                localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI,
                nonce: [UInt8](repeating: nonceByte &+ 1, count: 32))
            var m2 = try skeleton(try Run.response, try responder.responseAttributes())
            try responder.seal(&m2)
            self.initiator = initiator
            self.responder = responder
            try initiator.receive(m2)
            var m3 = try skeleton(try Run.confirm, try initiator.confirmAttributes())
            try initiator.seal(&m3)
            try responder.receive(m3)
            var m4 = try skeleton(try Run.keyInstall, try responder.keyInstallAttributes())
            try responder.seal(&m4)
            try initiator.receive(m4)
            messages = [m1, m2, m3, m4]
            temporalKey = try #require(initiator.installableKey?.temporalKey)
        }
    }

    /// Both sides of one sequence and where each is: the initiator waits for message 2, then 4; the
    /// responder for message 3. A genuine message taken builds the side's next message, which must be the
    /// recorded one (the same nonces and keys give the same bytes).
    struct Handshake {
        var initiator: NDPKeyExchange
        var responder: NDPKeyExchange
        let recording: Recording
        /// The message each side takes next (2 or 4; 3), nil when it is done.
        var initiatorWaits: Int? = 2
        var responderWaits: Int? = 3

        init(_ recording: Recording) {
            initiator = recording.initiator
            responder = recording.responder
            self.recording = recording
        }

        /// Delivers `body` to one side. The genuine next message must be taken; anything else must throw
        /// and change nothing. Returns what broke, or nil.
        mutating func deliver(_ body: [UInt8], toInitiator: Bool) -> String? {
            let expected = toInitiator ? initiatorWaits : responderWaits
            let genuine = expected.map { body == recording.messages[$0 - 1] } ?? false
            let side = toInitiator ? "initiator" : "responder"
            let before = stateSnapshot(toInitiator ? initiator : responder)
            do {
                if toInitiator { try initiator.receive(body) } else { try responder.receive(body) }
            } catch {
                if genuine { return "the \(side) refused genuine message \(expected ?? 0): \(error)" }
                let after = stateSnapshot(toInitiator ? initiator : responder)
                return after == before ? nil : "the \(side) changed state on a refused frame (\(error))"
            }
            guard genuine else {
                return "the \(side) took a frame that is not the genuine message \(expected.map(String.init) ?? "-")"
            }
            do {
                let skeleton = NDPKeyExchangeRoundTripTests.body
                if toInitiator, expected == 2 {
                    var m3 = try skeleton(try Run.confirm, try initiator.confirmAttributes())
                    try initiator.seal(&m3)
                    guard m3 == recording.messages[2] else {
                        return "the initiator's message 3 differs from the recording"
                    }
                    initiatorWaits = 4
                } else if toInitiator {
                    initiatorWaits = nil
                } else {
                    var m4 = try skeleton(try Run.keyInstall, try responder.keyInstallAttributes())
                    try responder.seal(&m4)
                    guard m4 == recording.messages[3] else {
                        return "the responder's message 4 differs from the recording"
                    }
                    responderWaits = nil
                }
            } catch {
                return "building the \(side)'s next message: \(error)"
            }
            return nil
        }

        /// The genuine messages still due, in order; then both keys must be the recorded TK.
        mutating func complete() -> String? {
            while initiatorWaits != nil || responderWaits != nil {
                let toInitiator = initiatorWaits == 2 || (responderWaits == nil && initiatorWaits == 4)
                let next = toInitiator ? initiatorWaits! : responderWaits!
                if let failure = deliver(recording.messages[next - 1], toInitiator: toInitiator) {
                    return "completing: \(failure)"
                }
            }
            guard initiator.installableKey?.temporalKey == recording.temporalKey,
                responder.installableKey?.temporalKey == recording.temporalKey
            else { return "the TKs differ from the recording" }
            return nil
        }
    }

    static let credential = NDPCredential.pmk(try! NDPPairwiseMasterKey(bytes: Array(0..<32)))
    static let thirdParty = NDPCredential.pmk(try! NDPPairwiseMasterKey(bytes: Array(100..<132)))

    @Test func onlyTheGenuineNextMessageMovesEitherSideAndTheHandshakeStillCompletes() async throws {
        let recordings = try [NDPCipherSuite.sk128, .sk256].map {
            try Recording(suite: $0, credential: Self.credential, nonceByte: 0x11)
        }
        // The same exchange sealed under a PMK the two sides do not share: what a third party sending as
        // one of them can produce, frames right in every field but the MIC.
        let forgeries = try [NDPCipherSuite.sk128, .sk256].map {
            try Recording(suite: $0, credential: Self.thirdParty, nonceByte: 0x11)
        }
        // Each sequence derives PTKs and MICs over and over: 150 keep the default run near a second.
        let budget = FuzzBudget.fromEnvironment(defaultSequences: 150)
        await budget.run("ndp-key-exchange") { random, _ in
            let which = Int.random(in: 0..<2, using: &random)
            let recording = recordings[which], forged = forgeries[which].messages
            var handshake = Handshake(recording)
            let pool = recording.messages + forged
            for _ in 0..<Int.random(in: 1...24, using: &random) {
                let toInitiator = random.chance(50)
                let body: [UInt8]
                switch Int.random(in: 0..<10, using: &random) {
                case 0...3: body = FrameMutation.mutate(random.pick(pool), others: pool, using: &random)
                case 4...5: body = random.pick(forged)
                case 6: body = random.bytes(Int.random(in: 0...64, using: &random))
                default: body = random.pick(recording.messages)  // genuine: in order, replayed, early or late
                }
                if let failure = handshake.deliver(body, toInitiator: toInitiator) { return failure }
            }
            return handshake.complete()
        }
    }

    /// A responder is created from message 1 alone, which carries no MIC: a mutated message 1 is refused
    /// with a typed error or taken as another request, never a trap, and a taken one still answers.
    @Test func aMutatedMessage1IsRefusedOrAnsweredNeverATrap() async throws {
        let recording = try Recording(suite: .sk128, credential: Self.credential, nonceByte: 0x22)
        let m1 = recording.messages[0]
        let budget = FuzzBudget.fromEnvironment(defaultSequences: 400)
        await budget.run("ndp-key-exchange-m1") { random, _ in
            var body = m1
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                body = FrameMutation.mutate(body, others: recording.messages, using: &random)
            }
            guard
                var responder = try? NDPKeyExchange(
                    respondingTo: body, credential: Self.credential, acceptedSuites: [.sk128, .sk256],
                    serviceID: Run.serviceID,
                    localNMI: Run.publisherNMI, peerNMI: Run.subscriberNMI, localNDI: Run.publisherNDI, nonce: nil)
            else { return nil }
            do { _ = try responder.responseAttributes() } catch {
                return "a responder taken from a mutated message 1 could not answer: \(error)"
            }
            return responder.step == .responseBuilt ? nil : "the responder is at \(responder.step) after answering"
        }
    }
}

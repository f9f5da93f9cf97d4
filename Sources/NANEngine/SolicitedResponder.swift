import NANLogging
import NANWire
import Synchronization

/// Answers peers' active subscribes on the thread that reads the radio's events, before the engine hears of
/// them. A reply must reach the kernel within the 16 TU DW in which the subscribe came, or it waits a whole
/// DW period for the next one; the hop from the reader to the engine's task and the engine's own work do not
/// fit in the DW on a loaded or emulated machine.
///
/// The engine keeps a snapshot of what a reply needs (its solicited publishes, the cluster, what its frames
/// carry) current with ``update(_:)``; the responder answers from it alone. A frame it cannot answer (no
/// match, another cluster, a paired peer whose replies go protected, a snapshot not yet made) changes
/// nothing here and goes to the engine, which answers as before. An answer given is noted (the last
/// ``answersKept``), and the engine takes the note instead of answering again (``takeAnswer(_:)``).
final class SolicitedResponder: Sendable {
    /// What replies are built from: the engine's state that goes into them.
    struct Snapshot: Sendable {
        /// One solicited publish and its reply, with the requestor left 0.
        struct Publish: Sendable {
            var local: InstanceID
            var configuration: PublishConfiguration
            var reply: ServiceAnnouncement
        }
        var publishes: [Publish] = []
        var cluster: MACAddress?
        var identityResolution: IdentityResolutionAttribute?
        var deviceAttributes: [NANAttribute] = []
        /// Peers whose unicast SDFs go protected: the engine answers those.
        var protectedPeers: Set<MACAddress> = []
    }

    /// One answer given: to which peer's subscribe instance, by which of our publishes.
    struct Answer: Hashable, Sendable {
        var peer: MACAddress
        var subscribe: InstanceID
        var local: InstanceID
    }

    /// A reply ready to send, and the answer it gives.
    struct Reply: Sendable {
        var frame: [UInt8]
        var answer: Answer
    }

    /// Answers remembered for the engine to take; older ones are forgotten (the engine then answers again).
    static let answersKept = 32

    private struct State {
        var snapshot = Snapshot()
        var answers: [Answer] = []
    }

    private let codec: any DiscoveryFrameCodec
    private let localAddress: MACAddress
    private let closeRangeSignal: Int
    private let logger: Logger
    private let state = Mutex(State())

    init(codec: any DiscoveryFrameCodec, localAddress: MACAddress, closeRangeSignal: Int, logger: Logger) {
        self.codec = codec
        self.localAddress = localAddress
        self.closeRangeSignal = closeRangeSignal
        self.logger = logger
    }

    /// Replaces what replies are built from.
    func update(_ snapshot: Snapshot) {
        state.withLock { $0.snapshot = snapshot }
    }

    /// Answers a received frame: builds the replies, hands each to `send`, and notes those sent. On the
    /// reader's thread; `send` must not wait.
    func respond(to bytes: [UInt8], signal: Int?, send: ([UInt8]) throws -> Void) {
        let start = ContinuousClock.now
        let replies = self.replies(to: bytes, signal: signal)
        guard !replies.isEmpty else { return }
        var sent: [Answer] = []
        for reply in replies {
            do {
                try send(reply.frame)
                sent.append(reply.answer)
            } catch {
                continue  // the engine answers it
            }
        }
        state.withLock { state in
            state.answers.append(contentsOf: sent)
            if state.answers.count > Self.answersKept {
                state.answers.removeFirst(state.answers.count - Self.answersKept)
            }
        }
        if logger.isEnabled(.trace) {
            let elapsed = (ContinuousClock.now - start).components
            let micros = elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
            for answer in sent {
                logger.trace(
                    "reader tx to \(answer.peer) [publish#\(answer.local.rawValue)>\(answer.subscribe.rawValue)] "
                        + "answering on the reader, \(micros) us after rx")
            }
        }
    }

    /// The replies our solicited publishes give to `bytes`, if it is an SDF they answer; notes nothing.
    func replies(to bytes: [UInt8], signal: Int?) -> [Reply] {
        let snapshot = state.withLock { $0.snapshot }
        guard !snapshot.publishes.isEmpty, let frame = try? codec.decode(bytes), frame.source != localAddress,
            !snapshot.protectedPeers.contains(frame.source)
        else { return [] }
        if let ours = snapshot.cluster, let theirs = frame.cluster, theirs != ours { return [] }
        let close = (signal ?? Int.min) >= closeRangeSignal
        var replies: [Reply] = []
        for item in frame.announcements where item.kind == .subscribe {
            for publish in snapshot.publishes
            where publish.configuration.answers(item, localAddress: localAddress, close: close) {
                var reply = publish.reply
                reply.requestorInstanceID = item.instanceID
                var outgoing = OutgoingDiscoveryFrame(
                    destination: publish.configuration.broadcastReplies ? .broadcast : frame.source,
                    announcements: [reply])
                outgoing.identityResolution = snapshot.identityResolution
                outgoing.deviceAttributes = snapshot.deviceAttributes
                guard
                    let bytes = try? codec.encode(
                        outgoing, source: localAddress, cluster: snapshot.cluster ?? .broadcast)
                else { continue }
                replies.append(
                    Reply(
                        frame: bytes,
                        answer: Answer(peer: frame.source, subscribe: item.instanceID, local: publish.local)))
            }
        }
        return replies
    }

    /// Whether `answer` was given here and not yet taken; takes it.
    func takeAnswer(_ answer: Answer) -> Bool {
        state.withLock { state in
            guard let index = state.answers.firstIndex(of: answer) else { return false }
            state.answers.remove(at: index)
            return true
        }
    }
}

extension PublishConfiguration {
    /// Whether this publish, if solicited, answers a peer's subscribe `item`: same service, the subscriber's
    /// matching filter met, our address in its response filter, and close enough when either asks for range.
    func answers(_ item: ServiceAnnouncement, localAddress: MACAddress, close: Bool) -> Bool {
        guard serviceID == item.serviceID, type.contains(.solicited) else { return false }
        guard MatchingFilter.matches(subscriber: item.matchFilter, publisher: receiveFilter) else { return false }
        if let srf = item.responseFilter, !srf.shouldRespond(localAddress) { return false }
        return close || !(closeRangeOnly || item.rangeLimited)
    }
}

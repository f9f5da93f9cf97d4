import NANLogging
import NANWire
import Synchronization

/// Answers peers' active subscribes on the thread that reads the radio's events, before the engine hears of
/// them. A reply must reach the kernel within the 16 TU DW in which the subscribe came, or it waits a whole
/// DW period for the next one; the hop from the reader to the engine's task and the engine's own work do not
/// fit in the DW on a loaded or emulated machine.
///
/// The engine keeps a snapshot current with ``update(_:)``: its solicited publishes, each with its reply
/// already encoded (``ReplyTemplate``), the cluster and the paired peers. The responder answers from it alone,
/// reading only the subscribes of the frame (``DiscoveryFrameCodec/decodeSubscribes(_:)``) and patching the
/// requestor into a copy of the reply: the whole decoding and encoding cost more than a DW in a debug build
/// on an emulated machine. A frame it cannot answer (no match, another cluster, a paired peer whose replies go
/// protected, a snapshot not yet made, a subscriber that announced its schedule when the engine sends replies
/// through peer stations) changes nothing here and goes to the engine, which answers as before.
/// An answer given is noted (the last ``answersKept``), and the engine takes the note instead of answering
/// again (``takeAnswer(_:)``). The engine still decodes the whole frame; one whose other attributes are broken
/// may have been answered here all the same.
final class SolicitedResponder: Sendable {
    /// What replies are built from: the engine's state that goes into them.
    struct Snapshot: Sendable {
        /// One solicited publish and its reply.
        struct Publish: Sendable {
            var local: InstanceID
            var configuration: PublishConfiguration
            var reply: ReplyTemplate
        }
        var publishes: [Publish] = []
        var cluster: MACAddress?
        /// Peers whose unicast SDFs go protected: the engine answers those.
        var protectedPeers: Set<MACAddress> = []
        /// Whether the engine answers subscribes whose frame announces the sender's schedule: it adds the
        /// subscriber's station with that schedule first, so a reply that misses the DW leaves in the next
        /// common slot rather than a DW period later.
        var leavesAnnouncedSchedulesToEngine = false
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

    /// What replies are built from now (tests change one field of it).
    var snapshotForTests: Snapshot? { state.withLock { $0.snapshot } }

    /// Answers a received frame: builds the replies, hands each to `send`, and notes those sent. On the
    /// reader's thread; `send` must not wait.
    func respond(to bytes: [UInt8], signal: Int?, send: ([UInt8]) throws -> Void) {
        let start = ContinuousClock.now
        let replies = self.replies(to: bytes, signal: signal)
        guard !replies.isEmpty else { return }
        let built = ContinuousClock.now
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
            let now = ContinuousClock.now
            for answer in sent {
                logger.trace(
                    "reader tx to \(answer.peer) [publish#\(answer.local.rawValue)>\(answer.subscribe.rawValue)] "
                        + "built in \(Self.microseconds(built - start)) us, sent in \(Self.microseconds(now - built)) us"
                )
            }
        }
    }

    /// The replies our solicited publishes give to `bytes`, if it is an SDF they answer; notes nothing.
    func replies(to bytes: [UInt8], signal: Int?) -> [Reply] {
        let snapshot = state.withLock { $0.snapshot }
        guard !snapshot.publishes.isEmpty, let frame = try? codec.decodeSubscribes(bytes), frame.source != localAddress,
            !snapshot.protectedPeers.contains(frame.source),
            !(snapshot.leavesAnnouncedSchedulesToEngine && frame.announcesAvailability)
        else { return [] }
        if let ours = snapshot.cluster, let theirs = frame.cluster, theirs != ours { return [] }
        let close = (signal ?? Int.min) >= closeRangeSignal
        var replies: [Reply] = []
        for item in frame.announcements where item.kind == .subscribe {
            for publish in snapshot.publishes
            where publish.configuration.answers(item, localAddress: localAddress, close: close) {
                let bytes = publish.reply.filled(
                    destination: publish.configuration.broadcastReplies ? .broadcast : frame.source,
                    requestor: item.instanceID)
                replies.append(
                    Reply(
                        frame: bytes,
                        answer: Answer(peer: frame.source, subscribe: item.instanceID, local: publish.local)))
            }
        }
        return replies
    }

    static func microseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
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

/// A reply's bytes, encoded once, and where the requestor's instance ID goes in them: sending it takes a copy
/// and two patches (the destination, address 1 of the 802.11 header, and that byte).
struct ReplyTemplate: Sendable {
    var bytes: [UInt8]
    /// Offset of the requestor instance ID.
    var requestorOffset: Int
    /// Where address 1 (the destination) lies in an 802.11 header.
    static let destination = 4..<10

    /// Encodes `reply` (the requestor left 0) in `frame` and finds the requestor's byte by encoding it again
    /// for another requestor; nil when the codec refuses or the two encodings differ in any other byte.
    init?(
        _ reply: ServiceAnnouncement, in frame: OutgoingDiscoveryFrame, codec: any DiscoveryFrameCodec,
        source: MACAddress, cluster: MACAddress
    ) {
        func encoded(_ requestor: UInt8) -> [UInt8]? {
            var frame = frame
            var reply = reply
            reply.requestorInstanceID = InstanceID(rawValue: requestor)
            frame.announcements = [reply]
            return try? codec.encode(frame, source: source, cluster: cluster)
        }
        guard let one = encoded(1), let two = encoded(2), one.count == two.count,
            one.count >= Self.destination.upperBound
        else { return nil }
        let differing = one.indices.filter { one[$0] != two[$0] }
        guard differing.count == 1, let offset = differing.first, !Self.destination.contains(offset) else { return nil }
        bytes = one
        requestorOffset = offset
    }

    /// The reply to `requestor`, sent to `destination`.
    func filled(destination: MACAddress, requestor: InstanceID) -> [UInt8] {
        var frame = bytes
        frame.replaceSubrange(Self.destination, with: destination.bytes)
        frame[requestorOffset] = requestor.rawValue
        return frame
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

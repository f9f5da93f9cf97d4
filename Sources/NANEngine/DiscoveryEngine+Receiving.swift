import NANLogging
import NANWire

/// Received frames: replies to active subscribes first, then peer facts, then each announcement offered to the
/// matching local services.
extension DiscoveryEngine {
    func frameReceived(_ bytes: [UInt8], frequency: Int?, signal: Int?) async {
        statistics.framesReceived += 1
        let frame: IncomingDiscoveryFrame
        do {
            frame = try codec.decode(bytes)
        } catch {
            statistics.framesUndecodable += 1
            return
        }
        guard frame.source != localAddress else { return }
        // Address 3 of an SDF is the sender's cluster ID: frames of another cluster are not for us.
        if let ours = cluster, let theirs = frame.cluster, theirs != ours {
            statistics.foreignClusterFrames += 1
            options.logger.trace("rx from \(frame.source) in cluster \(theirs): not ours, ignored")
            return
        }
        if options.logger.isEnabled(.trace) {
            let kinds = frame.announcements.map {
                "\($0.kind)#\($0.instanceID.rawValue)>\($0.requestorInstanceID.rawValue)"
            }
            options.logger.trace("rx from \(frame.source) [\(kinds.joined(separator: ","))] \(signal ?? 0) dBm")
        }
        let close = (signal ?? Int.min) >= options.closeRangeSignal
        // Answers first, before any bookkeeping: a reply must reach the kernel within the DW in which the
        // subscribe was heard, or it waits a whole DW period for the next one.
        let answers = frame.announcements.filter { $0.kind == .subscribe }.map {
            (item: $0, replies: replies(to: $0, from: frame.source, close: close))
        }
        if options.replyImmediately {
            // Those the responder already answered on the reader's thread went out first.
            let unanswered = answers.map { answer in
                answer.replies.filter { reply in
                    let key = SolicitedResponder.Answer(
                        peer: frame.source, subscribe: answer.item.instanceID, local: reply.local)
                    guard responder?.takeAnswer(key) == true else { return true }
                    statistics.framesSent += 1
                    return false
                }
            }
            // A subscriber that announced its schedule gets its station first: a reply that misses this DW
            // then leaves in our next common slot with it, not a whole DW period later.
            if let stationPreparer, !frame.availability.isEmpty, !protectedPeers.contains(frame.source),
                unanswered.contains(where: { $0.contains { !$0.broadcast } })
            {
                let ready = await stationPreparer(frame.source, frame.availability, frame.committedDW)
                options.logger.trace("reply to \(frame.source): \(ready ? "through its station" : "in a DW")")
            }
            for replies in unanswered { await send(replies, to: frame.source, frequency: nil) }
        }
        let functions = self.functions
        let forgotten = peers.heard(
            frame.source, frequency: frequency, signal: signal, window: window, period: period, at: clock.now
        ) {
            Set(functions.values.flatMap { $0.reported.keys.map(\.peer) })
        }
        for peer in forgotten { await forgottenPeerObserver?(peer) }
        if peers.announced(frame.availability, committedDW: frame.committedDW, by: frame.source) {
            await availabilityObserver?(frame.source, frame.availability)
        }
        for item in frame.announcements {
            switch item.kind {
            case .publish:
                recentPublishes.note(item, from: frame.source, close: close, at: clock.now, period: period)
                publishHeard(item, from: frame.source, close: close)
            case .subscribe: break
            case .followUp: followUpHeard(item, from: frame.source)
            }
        }
        for answer in answers { reportReplies(answer.replies, to: answer.item, from: frame.source) }
        if !options.replyImmediately, answers.contains(where: { !$0.replies.isEmpty }) {
            guard await nextWindow() else { return }
            for answer in answers { await send(answer.replies, to: frame.source, frequency: windowFrequency) }
        }
    }

    func result(_ item: ServiceAnnouncement, from peer: MACAddress, local: InstanceID) -> DiscoveryResult {
        DiscoveryResult(
            peer: peer, peerInstanceID: item.instanceID, localInstanceID: local, serviceInfo: item.serviceInfo,
            offersDataPath: item.offersDataPath,
            radio: peers.facts(for: peer) ?? PeerRadioFacts(discoveryWindowsHeard: 0, lastHeard: clock.now),
            identityResolution: item.identityResolution,
            bootstrappingMethods: item.kind == .publish ? item.bootstrapping?.methods : nil)
    }

    /// Notes that function `id` heard the peer instance `key` now, and reports `event` unless that instance
    /// was already reported with the same service info. The function's memory is bounded: when full, the
    /// instance heard least recently is forgotten (and reported lost if the function reports losses).
    func report(_ id: InstanceID, key: PeerKey, info: [UInt8], _ event: @autoclosure () -> DiscoveryEvent) {
        guard var function = functions[id] else { return }
        if let previous = function.reported[key] {
            function.reported[key]?.lastPeriod = period
            if previous.info == info {
                functions[id] = function
                return
            }
            function.reported[key]?.info = info
        } else {
            if function.reported.count >= max(1, options.reportedLimit),
                let oldest = function.reported.min(by: { $0.value.lastPeriod < $1.value.lastPeriod })?.key
            {
                function.reported[oldest] = nil
                statistics.reportedEvicted += 1
                deliver(.lost(lostPeer(oldest, local: id, reported: function.lostAfterPeriods != nil)), to: function)
            }
            function.reported[key] = Reported(info: info, lastPeriod: period)
        }
        functions[id] = function
        deliver(event(), to: function)
    }

    func lostPeer(_ key: PeerKey, local: InstanceID, reported: Bool) -> LostPeer {
        LostPeer(peer: key.peer, peerInstanceID: key.instance, localInstanceID: local, reported: reported)
    }

    func deliver(_ event: DiscoveryEvent, to function: LocalFunction) {
        if case .dropped = function.continuation.yield(event) { statistics.eventsDropped += 1 }
    }

    /// A peer publishes: tell every matching subscribe (`only`: just that one).
    func publishHeard(_ item: ServiceAnnouncement, from peer: MACAddress, close: Bool, only: InstanceID? = nil) {
        // Decide on a snapshot, then change `functions` (mutating while iterating it copied it per match).
        var matches: [InstanceID] = []
        for (id, function) in functions {
            if let only, id != only { continue }
            guard case .subscribe(let c) = function.role, c.serviceID == item.serviceID else { continue }
            if item.requestorInstanceID.rawValue != 0 && item.requestorInstanceID != id { continue }
            guard MatchingFilter.matches(subscriber: c.receiveFilter, publisher: item.matchFilter) else { continue }
            if let srf = c.responseFilter, !srf.shouldRespond(peer) { continue }
            if (c.closeRangeOnly || item.rangeLimited) && !close { continue }
            matches.append(id)
        }
        for id in matches {
            functions[id]?.answered = true
            report(
                id, key: PeerKey(peer: peer, instance: item.instanceID), info: item.serviceInfo,
                .discovered(result(item, from: peer, local: id)))
        }
    }

    /// One of our solicited publishes answering a peer's active subscribe: our instance, the reply, and
    /// whether it is broadcast.
    typealias Reply = (local: InstanceID, announcement: ServiceAnnouncement, broadcast: Bool)

    /// The replies of every matching solicited publish to a peer's active subscribe.
    func replies(to item: ServiceAnnouncement, from peer: MACAddress, close: Bool) -> [Reply] {
        var replies: [Reply] = []
        for (id, function) in functions {
            guard case .publish(let c) = function.role, c.answers(item, localAddress: localAddress, close: close)
            else { continue }
            replies.append((id, announcement(for: c, id: id, requestor: item.instanceID), c.broadcastReplies))
        }
        return replies
    }

    /// Hands replies to the radio, each in a frame of its own.
    func send(_ replies: [Reply], to peer: MACAddress, frequency: Int?) async {
        for reply in replies {
            let frame = OutgoingDiscoveryFrame(
                destination: reply.broadcast ? .broadcast : peer, announcements: [reply.announcement])
            _ = await transmit(frame, frequency: frequency)
        }
    }

    /// Tells each replying publish of the subscribe it answered.
    func reportReplies(_ replies: [Reply], to item: ServiceAnnouncement, from peer: MACAddress) {
        for reply in replies {
            report(
                reply.local, key: PeerKey(peer: peer, instance: item.instanceID), info: item.serviceInfo,
                .replied(result(item, from: peer, local: reply.local)))
        }
    }

    /// A peer sent a follow-up to one of our instances.
    func followUpHeard(_ item: ServiceAnnouncement, from peer: MACAddress) {
        guard let function = functions[item.requestorInstanceID], function.role.serviceID == item.serviceID else {
            statistics.unmatchedFollowUps += 1
            return
        }
        // A message is a sign of life of the peer instance that sent it.
        let key = PeerKey(peer: peer, instance: item.instanceID)
        if function.reported[key] != nil { functions[item.requestorInstanceID]?.reported[key]?.lastPeriod = period }
        let message = ReceivedMessage(
            peer: peer, peerInstanceID: item.instanceID, localInstanceID: item.requestorInstanceID,
            payload: item.serviceInfo,
            radio: peers.facts(for: peer) ?? PeerRadioFacts(discoveryWindowsHeard: 0, lastHeard: clock.now),
            identityResolution: item.identityResolution, keyDescriptor: item.keyDescriptor,
            bootstrapping: item.bootstrapping,
            isProtected: item.isProtected)
        deliver(.messageReceived(message), to: function)
    }

    /// The kernel dropped events: DW notifications, frames, TX statuses, the interface's removal or a
    /// cluster change may be missing. The engine resynchronises (see ``EventLoss``):
    /// - peers are treated conservatively: the loss clock of every reported peer instance restarts now
    ///   (silence the engine caused is not held against a peer), and active subscribes ask again in the next
    ///   DW, so a publisher whose frames were lost is heard again soon;
    /// - the radio is asked again: an interface that is gone ends every session (`deviceRemoved`), a cluster
    ///   the radio is in now is adopted;
    /// - every session is told (``DiscoveryEvent/eventsLost(_:)``), and the overrun is counted.
    func eventsLost(dropped: Int?) async {
        statistics.radioEventOverruns += 1
        options.logger.trace(
            "radio events lost (netlink overrun, \(dropped.map(String.init) ?? "unknown") dropped): resynchronising")
        for id in functions.keys.sorted() {
            guard var function = functions[id] else { continue }
            for key in function.reported.keys { function.reported[key]?.lastPeriod = period }
            if case .subscribe(let c) = function.role, c.active { function.answered = false }
            functions[id] = function
        }
        await resynchronizeWithRadio()
        guard !stopped else { return }
        let loss = EventLoss(droppedEvents: dropped)
        for id in functions.keys.sorted() {
            if let function = functions[id] { deliver(.eventsLost(loss), to: function) }
        }
    }

    /// How many interface dumps in a row must miss our NMI before it counts as gone. The dump that follows an
    /// overrun is read while the kernel is still flooding the socket, and one that lost its own messages
    /// would otherwise end a working session with `deviceRemoved`.
    static let interfaceAbsenceConfirmations = 3

    /// Asks the radio for what the lost events may have said: whether our interface still exists, and the
    /// cluster. A failed query changes nothing (it is tried again at the next overrun). The interface counts
    /// as gone only when ``interfaceAbsenceConfirmations`` answers, 100 ms apart, all miss it.
    func resynchronizeWithRadio() async {
        var answer: RadioSnapshot?
        for attempt in 1...Self.interfaceAbsenceConfirmations {
            do {
                answer = try await radio.snapshot()
            } catch {
                statistics.resynchronizationFailures += 1
                options.logger.trace("resynchronising: the radio could not be asked (\(error)); keeping what we know")
                return
            }
            guard let current = answer, !current.interfacePresent, !stopped,
                attempt < Self.interfaceAbsenceConfirmations
            else { break }
            options.logger.trace("resynchronising: the NAN interface is missing from the dump; asking again")
            try? await Task.sleep(for: .milliseconds(100))
        }
        guard let snapshot = answer, !stopped else { return }
        guard snapshot.interfacePresent else {
            options.logger.trace("resynchronising: the NAN interface is gone")
            shutDown(reason: .deviceRemoved)
            return
        }
        if let now = snapshot.cluster, now != cluster {
            options.logger.trace("resynchronising: cluster \(now) (was \(cluster.map { "\($0)" } ?? "none"))")
            cluster = now
            wakeClusterWaiters()
        }
    }
}

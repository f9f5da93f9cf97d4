import NANLogging
import NANWire

/// Received frames: peer facts, then each announcement offered to the matching local services.
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
        if options.logger.isEnabled(.trace) {
            let kinds = frame.announcements.map { "\($0.kind)#\($0.instanceID.rawValue)>\($0.requestorInstanceID.rawValue)" }
            options.logger.trace("rx from \(frame.source) [\(kinds.joined(separator: ","))] \(signal ?? 0) dBm")
        }
        peers.heard(frame.source, frequency: frequency, signal: signal, window: window, at: clock.now)
        let close = (signal ?? Int.min) >= options.closeRangeSignal
        for item in frame.announcements {
            switch item.kind {
            case .publish: publishHeard(item, from: frame.source, close: close)
            case .subscribe: await subscribeHeard(item, from: frame.source, close: close)
            case .followUp: followUpHeard(item, from: frame.source)
            }
        }
    }

    func result(_ item: ServiceAnnouncement, from peer: MACAddress, local: InstanceID) -> DiscoveryResult {
        DiscoveryResult(
            peer: peer, peerInstanceID: item.instanceID, localInstanceID: local, serviceInfo: item.serviceInfo,
            offersDataPath: item.offersDataPath,
            radio: peers.facts(for: peer) ?? PeerRadioFacts(discoveryWindowsHeard: 0, lastHeard: clock.now))
    }

    /// Reports `event` unless the same peer instance was already reported with the same service info.
    func report(_ id: InstanceID, key: PeerKey, info: [UInt8], _ event: DiscoveryEvent) {
        guard var function = functions[id] else { return }
        if function.reported[key] == info { return }
        function.reported[key] = info
        functions[id] = function
        deliver(event, to: function)
    }

    func deliver(_ event: DiscoveryEvent, to function: LocalFunction) {
        if case .dropped = function.continuation.yield(event) { statistics.eventsDropped += 1 }
    }

    /// A peer publishes: tell every matching subscribe.
    func publishHeard(_ item: ServiceAnnouncement, from peer: MACAddress, close: Bool) {
        for (id, function) in functions {
            guard case .subscribe(let c) = function.role, c.serviceID == item.serviceID else { continue }
            if item.requestorInstanceID.rawValue != 0 && item.requestorInstanceID != id { continue }
            guard MatchingFilter.matches(subscriber: c.receiveFilter, publisher: item.matchFilter) else { continue }
            if let srf = c.responseFilter, !srf.shouldRespond(peer) { continue }
            if (c.closeRangeOnly || item.rangeLimited) && !close { continue }
            functions[id]?.answered = true
            report(
                id, key: PeerKey(peer: peer, instance: item.instanceID), info: item.serviceInfo,
                .discovered(result(item, from: peer, local: id)))
        }
    }

    /// A peer actively subscribes: answer with every matching solicited publish.
    func subscribeHeard(_ item: ServiceAnnouncement, from peer: MACAddress, close: Bool) async {
        var replies: [(InstanceID, ServiceAnnouncement, Bool)] = []
        for (id, function) in functions {
            guard case .publish(let c) = function.role, c.serviceID == item.serviceID, c.type.contains(.solicited)
            else { continue }
            guard MatchingFilter.matches(subscriber: item.matchFilter, publisher: c.receiveFilter) else { continue }
            if let srf = item.responseFilter, !srf.shouldRespond(localAddress) { continue }
            if (c.closeRangeOnly || item.rangeLimited) && !close { continue }
            replies.append((id, announcement(for: c, id: id, requestor: item.instanceID), c.broadcastReplies))
            report(
                id, key: PeerKey(peer: peer, instance: item.instanceID), info: item.serviceInfo,
                .replied(result(item, from: peer, local: id)))
        }
        guard !replies.isEmpty else { return }
        if !options.replyImmediately {
            guard await nextWindow() else { return }
        }
        for (_, reply, broadcast) in replies {
            let frame = OutgoingDiscoveryFrame(destination: broadcast ? .broadcast : peer, announcements: [reply])
            _ = await transmit(frame, frequency: options.replyImmediately ? nil : windowFrequency)
        }
    }

    /// A peer sent a follow-up to one of our instances.
    func followUpHeard(_ item: ServiceAnnouncement, from peer: MACAddress) {
        guard let function = functions[item.requestorInstanceID], function.role.serviceID == item.serviceID else {
            statistics.unmatchedFollowUps += 1
            return
        }
        let message = ReceivedMessage(
            peer: peer, peerInstanceID: item.instanceID, localInstanceID: item.requestorInstanceID,
            payload: item.serviceInfo,
            radio: peers.facts(for: peer) ?? PeerRadioFacts(discoveryWindowsHeard: 0, lastHeard: clock.now))
        deliver(.messageReceived(message), to: function)
    }
}

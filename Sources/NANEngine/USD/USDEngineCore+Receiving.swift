import NANWire

/// Receiving: radio events, and SDFs checked and matched against the sessions.
extension USDEngineCore {
    /// Handles one radio event.
    func handle(_ event: USDRadioEvent) async {
        switch event {
        case .frameReceived(let bytes, let frequency, let signal):
            await receive(bytes, frequency: frequency, signal: signal)
        case .transmitStatus(let cookie, let acknowledged):
            settle(cookie, acknowledged)
        case .listenEnded:
            await listenEnded()
        case .interfaceRemoved:
            shutdown(.deviceRemoved)
        }
    }

    private func receive(_ bytes: [UInt8], frequency: Int?, signal: Int?) async {
        guard !stopped, !services.isEmpty, let frame = try? WireCodec().decode(bytes),
            frame.cluster == .nanNetworkID, frame.source != localAddress, !frame.source.isMulticast
        else { return }
        let now = clock.now
        var facts = peers[frame.source] ?? PeerRadioFacts(discoveryWindowsHeard: 0, lastHeard: now)
        facts.signal = signal ?? facts.signal
        facts.frequency = frequency ?? facts.frequency
        facts.lastHeard = now
        var heard = false
        for item in frame.announcements {
            for (id, service) in services where service.serviceID == item.serviceID {
                if await handle(item, from: frame.source, facts: facts, for: id, service) { heard = true }
            }
        }
        guard heard else { return }
        if peers[frame.source] == nil, peers.count >= max(1, options.maximumPeers),
            let oldest = peers.min(by: { $0.value.lastHeard < $1.value.lastHeard })?.key
        {
            peers.removeValue(forKey: oldest)
        }
        peers[frame.source] = facts
    }

    /// One announcement for one of our sessions of the same service; true when it concerned the session.
    private func handle(
        _ item: ServiceAnnouncement, from peer: MACAddress, facts: PeerRadioFacts, for id: InstanceID,
        _ service: Service
    ) async -> Bool {
        let requestor = item.requestorInstanceID.rawValue
        let result = DiscoveryResult(
            peer: peer, peerInstanceID: item.instanceID, localInstanceID: id, serviceInfo: item.serviceInfo,
            offersDataPath: item.offersDataPath, radio: facts)
        switch (item.kind, service.role) {
        case (.publish, .subscribe(let c)):
            guard requestor == 0 || requestor == id.rawValue,
                MatchingFilter.matches(subscriber: c.receiveFilter, publisher: item.matchFilter)
            else { return false }
            report(.discovered(result), peer: peer, instance: item.instanceID, info: item.serviceInfo, to: id)
            return true
        case (.subscribe, .publish(let c)):
            guard c.type.contains(.solicited),
                MatchingFilter.matches(subscriber: item.matchFilter, publisher: c.receiveFilter),
                item.responseFilter.map({ $0.shouldRespond(localAddress) }) ?? true
            else { return false }
            _ = await transmit(announcement(id, service, requestor: item.instanceID), to: peer)
            report(.replied(result), peer: peer, instance: item.instanceID, info: item.serviceInfo, to: id)
            return true
        case (.followUp, _):
            // An empty follow-up is wpa_supplicant's passive subscriber asking the publisher to wait for it.
            guard requestor == id.rawValue, !item.serviceInfo.isEmpty else { return false }
            services[id]?.continuation.yield(
                .messageReceived(
                    ReceivedMessage(
                        peer: peer, peerInstanceID: item.instanceID, localInstanceID: id, payload: item.serviceInfo,
                        radio: facts)))
            return true
        default:
            return false
        }
    }

    /// Reports a discovery or reply once per peer instance (again when its service info changed).
    private func report(
        _ event: DiscoveryEvent, peer: MACAddress, instance: InstanceID, info: [UInt8], to id: InstanceID
    ) {
        guard var service = services[id] else { return }
        let key = PeerInstance(address: peer, instance: instance)
        if service.reported[key] == info { return }
        if service.reported[key] == nil {
            if service.reportOrder.count >= max(1, options.maximumReportedPerSession) {
                service.reported.removeValue(forKey: service.reportOrder.removeFirst())
            }
            service.reportOrder.append(key)
        }
        service.reported[key] = info
        service.continuation.yield(event)
        services[id] = service
    }
}

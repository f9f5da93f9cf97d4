import NANWire

/// The offloaded path: local services as driver functions, and the driver's match events.
extension DiscoveryEngine {
    func offloaded(_ role: Role, timeToLive: TimeToLive) -> OffloadedFunction {
        var windows: UInt32?
        if let count = timeToLive.discoveryWindows { windows = UInt32(clamping: count) }
        if let duration = timeToLive.duration {
            let micros = Int64(clamping: duration.inNanoseconds / 1000)
            let period = Int64(NANTiming.discoveryWindowPeriodMicroseconds)
            let fromTime = UInt32(clamping: (micros + period - 1) / period)
            windows = min(windows ?? fromTime, fromTime)
        }
        switch role {
        case .publish(let c):
            var f = OffloadedFunction(kind: .publish, serviceID: c.serviceID)
            f.publishType = c.type
            f.broadcastReplies = c.broadcastReplies
            f.closeRange = c.closeRangeOnly
            f.ttlDiscoveryWindows = windows
            f.serviceInfo = c.serviceInfo
            f.receiveFilter = c.receiveFilter
            f.transmitFilter = c.transmitFilter
            return f
        case .subscribe(let c):
            var f = OffloadedFunction(kind: .subscribe, serviceID: c.serviceID)
            f.activeSubscribe = c.active
            f.closeRange = c.closeRangeOnly
            f.ttlDiscoveryWindows = windows
            f.serviceInfo = c.serviceInfo
            f.responseFilter = c.responseFilter
            f.receiveFilter = c.receiveFilter
            f.transmitFilter = c.transmitFilter
            return f
        }
    }

    func functionMatched(_ match: OffloadedMatch) {
        guard let id = functions.first(where: { $0.value.offloadCookie == match.cookie })?.key,
            let function = functions[id]
        else { return }
        let facts = peers.facts(for: match.peer) ?? PeerRadioFacts(discoveryWindowsHeard: 0, lastHeard: clock.now)
        let result = DiscoveryResult(
            peer: match.peer, peerInstanceID: match.peerInstanceID, localInstanceID: id,
            serviceInfo: match.serviceInfo, offersDataPath: false, radio: facts)
        let key = PeerKey(peer: match.peer, instance: match.peerInstanceID)
        switch (match.peerKind, function.role) {
        case (.publish, .subscribe):
            report(id, key: key, info: match.serviceInfo, .discovered(result))
        case (.subscribe, .publish):
            report(id, key: key, info: match.serviceInfo, .replied(result))
        case (.followUp, _):
            deliver(
                .messageReceived(
                    ReceivedMessage(
                        peer: match.peer, peerInstanceID: match.peerInstanceID, localInstanceID: id,
                        payload: match.serviceInfo, radio: facts)), to: function)
        default:
            break
        }
    }
}

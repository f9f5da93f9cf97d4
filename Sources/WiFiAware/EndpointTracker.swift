import NANEngine
import NANWire

/// The endpoints a session has reported, and the rules for discovered / updated / lost: pure state,
/// fed engine events, store changes and clock ticks.
struct EndpointTracker: Sendable {
    let service: WAServiceName
    let peerTimeout: Duration?
    private(set) var known: [WAEndpoint.ID: WAEndpoint] = [:]

    init(service: WAServiceName, peerTimeout: Duration?) {
        self.service = service
        self.peerTimeout = peerTimeout
    }

    /// The events to report for one engine event; nothing for peers the filter does not admit.
    mutating func handle(_ event: DiscoveryEvent, filter: PeerFilter) -> [WASessionEvent] {
        switch event {
        case .discovered(let result), .replied(let result):
            guard filter.admits(result.peer) else { return [] }
            let endpoint = makeEndpoint(result, device: filter.device(at: result.peer))
            let previous = known.updateValue(endpoint, forKey: endpoint.id)
            return [previous == nil ? .discovered(endpoint) : .updated(endpoint)]
        case .messageReceived(let message):
            guard filter.admits(message.peer) else { return [] }
            let id = WAEndpoint.ID(address: message.peer, instanceID: message.peerInstanceID)
            var endpoint =
                known[id]
                ?? WAEndpoint(
                    address: message.peer, instanceID: message.peerInstanceID, localInstanceID: message.localInstanceID,
                    service: service, serviceInfo: [], offersDataPath: false, device: filter.device(at: message.peer),
                    performance: WAPerformanceReport(message.radio))
            endpoint.performance = WAPerformanceReport(message.radio)
            if known[id] != nil { known[id] = endpoint }
            return [.messageReceived(WAMessage(endpoint: endpoint, payload: message.payload))]
        case .terminated:
            return []
        }
    }

    /// After the store changed: endpoints whose device left the selection are lost.
    mutating func refilter(_ filter: PeerFilter) -> [WASessionEvent] {
        var events: [WASessionEvent] = []
        for (id, endpoint) in known.sorted(by: { $0.value.description < $1.value.description }) {
            if filter.admits(endpoint.address) {
                known[id]?.device = filter.device(at: endpoint.address)
            } else {
                known[id] = nil
                events.append(.lost(endpoint))
            }
        }
        return events
    }

    /// Endpoints not heard for `peerTimeout` by `now` are lost. `peers` holds the engine's latest radio facts.
    mutating func expire(peers: [Peer], now: ContinuousClock.Instant) -> [WASessionEvent] {
        guard let peerTimeout else { return [] }
        let lastHeard = Dictionary(peers.map { ($0.address, $0.radio.lastHeard) }, uniquingKeysWith: max)
        var events: [WASessionEvent] = []
        for (id, endpoint) in known.sorted(by: { $0.value.description < $1.value.description }) {
            let heard = max(lastHeard[endpoint.address] ?? endpoint.performance.lastHeard, endpoint.performance.lastHeard)
            if now - heard > peerTimeout {
                known[id] = nil
                events.append(.lost(endpoint))
            }
        }
        return events
    }

    private func makeEndpoint(_ result: DiscoveryResult, device: WAPairedDevice?) -> WAEndpoint {
        WAEndpoint(
            address: result.peer, instanceID: result.peerInstanceID, localInstanceID: result.localInstanceID,
            service: service, serviceInfo: result.serviceInfo, offersDataPath: result.offersDataPath, device: device,
            performance: WAPerformanceReport(result.radio))
    }
}

extension WAPerformanceReport {
    init(_ facts: PeerRadioFacts) {
        self.init(
            signalStrength: facts.signal, frequency: facts.frequency,
            discoveryWindowsHeard: facts.discoveryWindowsHeard, lastHeard: facts.lastHeard)
    }
}

import NANEngine
import NANWire

/// The endpoints a session has reported, and the rules for discovered / updated / lost: pure state,
/// fed engine events and store changes.
///
/// The engine decides when a peer is lost (not heard for the session's loss time) or forgotten, and says
/// so with `.lost`; `known` mirrors what the engine remembers, so it is bounded by the engine's bound. A peer
/// the selection does not admit yet is remembered too (at most ``pendingLimit``, dropped when the engine
/// forgets it), so that pairing its device later reports it at once.
struct EndpointTracker: Sendable {
    let service: WAServiceName
    private(set) var known: [WAEndpoint.ID: WAEndpoint] = [:]
    /// Peers heard but not admitted by the selection, newest result each.
    private(set) var pending: [WAEndpoint.ID: WAEndpoint] = [:]
    /// Most peers kept in ``pending``.
    static let pendingLimit = 256
    /// The last NIRA each known or pending peer sent (its frames' identity, resolved again when the store
    /// changes); bounded by ``known`` and ``pending``.
    private(set) var identities: [WAEndpoint.ID: IdentityResolutionAttribute] = [:]

    init(service: WAServiceName) {
        self.service = service
    }

    /// The events to report for one engine event; nothing for peers the filter does not admit.
    mutating func handle(_ event: DiscoveryEvent, filter: PeerFilter) -> [WASessionEvent] {
        switch event {
        case .discovered(let result), .replied(let result):
            let id = WAEndpoint.ID(address: result.peer, instanceID: result.peerInstanceID)
            if let nira = result.identityResolution { identities[id] = nira }
            guard filter.admits(result.peer, nira: identities[id]) else {
                if pending[id] == nil && pending.count >= Self.pendingLimit,
                    let oldest = pending.min(by: { $0.value.performance.lastHeard < $1.value.performance.lastHeard })?
                        .key
                {
                    pending[oldest] = nil
                    if known[oldest] == nil { identities[oldest] = nil }
                }
                pending[id] = makeEndpoint(result, device: nil)
                return []
            }
            pending[id] = nil
            let endpoint = makeEndpoint(result, device: filter.device(at: result.peer, nira: identities[id]))
            let previous = known.updateValue(endpoint, forKey: endpoint.id)
            return [previous == nil ? .discovered(endpoint) : .updated(endpoint)]
        case .messageReceived(let message):
            let id = WAEndpoint.ID(address: message.peer, instanceID: message.peerInstanceID)
            let nira = message.identityResolution ?? identities[id]
            guard filter.admits(message.peer, nira: nira) else { return [] }
            var endpoint =
                known[id]
                ?? WAEndpoint(
                    address: message.peer, instanceID: message.peerInstanceID, localInstanceID: message.localInstanceID,
                    service: service, serviceInfo: [], offersDataPath: false,
                    device: filter.device(at: message.peer, nira: nira),
                    performance: WAPerformanceReport(message.radio))
            endpoint.performance = WAPerformanceReport(message.radio)
            if known[id] != nil { known[id] = endpoint }
            return [.messageReceived(WAMessage(endpoint: endpoint, payload: message.payload))]
        case .lost(let lost):
            let id = WAEndpoint.ID(address: lost.peer, instanceID: lost.peerInstanceID)
            pending[id] = nil
            identities[id] = nil
            guard let endpoint = known.removeValue(forKey: id) else { return [] }
            return lost.reported ? [.lost(endpoint)] : []
        case .eventsLost(let loss):
            // The engine keeps its memory of peers across a loss, so `known` stays as it is.
            return [.eventsLost(droppedEvents: loss.droppedEvents)]
        case .terminated:
            return []
        }
    }

    /// After the store changed: endpoints whose device left the selection are lost, and peers heard
    /// before their device was selected are discovered.
    mutating func refilter(_ filter: PeerFilter) -> [WASessionEvent] {
        var events: [WASessionEvent] = []
        for (id, endpoint) in known.sorted(by: { $0.value.description < $1.value.description }) {
            if filter.admits(endpoint.address, nira: identities[id]) {
                known[id]?.device = filter.device(at: endpoint.address, nira: identities[id])
            } else {
                known[id] = nil
                pending[id] = endpoint
                events.append(.lost(endpoint))
            }
        }
        let admitted = pending.filter {
            filter.admits($0.key.address, nira: identities[$0.key]) && known[$0.key] == nil
        }
        for (id, waiting) in admitted.sorted(by: {
            ($0.key.address, $0.key.instanceID) < ($1.key.address, $1.key.instanceID)
        }) {
            pending[id] = nil
            var endpoint = waiting
            endpoint.device = filter.device(at: endpoint.address, nira: identities[id])
            known[id] = endpoint
            events.append(.discovered(endpoint))
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

extension Duration {
    /// This duration in whole DW periods (512 TU), rounded up, at least 1: how `peerTimeout` reaches the engine.
    var discoveryWindowPeriods: Int {
        let periods = (inSeconds / NANTiming.discoveryWindowPeriodSeconds - 1e-9).rounded(.up)
        guard periods.isFinite else { return Int.max / 2 }
        return max(1, Int(min(periods, Double(Int32.max))))
    }
}

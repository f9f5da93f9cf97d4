import NANEngine
import NANWire
internal import Synchronization

/// Automatic pairing verification in a session that selects paired devices: a publisher found whose device
/// holds a pairing key (recognised by its address or its NIRA) is verified with that key (PASN, no user)
/// before the session reports it; one that fails verification is not reported (it is not paired), and
/// ``WASystem/verifications()`` says why. Until its verification ends, nothing else of that peer is
/// reported. Devices typed by hand (no key) and sessions that admit any device are not verified.
final class SessionVerification: Sendable {
    private struct State {
        var pending: Set<MACAddress> = []
        var refused: Set<MACAddress> = []
        var verified: Set<MACAddress> = []
    }

    private let state = Mutex(State())
    /// The most peers remembered in each set (a bound on what received frames can grow).
    static let capacity = 256

    /// Whether this session verifies: a subscriber of paired devices only, on a system with a pairing engine.
    static func applies(role: ServiceLease.Role, selection: WADeviceSelection, system: WASystem) -> Bool {
        role == .subscribe && !selection.includesUnpairedDevices && system.pairing.withLock({ $0 }) != nil
    }

    /// What to do with `event`: deliver it now, hold it while its peer is verified (the caller then runs
    /// ``verify(_:system:)`` and delivers it on success), or drop it (its peer is being verified or failed).
    enum Decision { case deliver, verify(WAEndpoint), drop }

    func decide(_ event: WASessionEvent) -> Decision {
        let endpoint: WAEndpoint
        switch event {
        case .discovered(let e), .updated(let e), .lost(let e): endpoint = e
        case .messageReceived(let message): endpoint = message.endpoint
        default: return .deliver
        }
        guard endpoint.device?.pairingKey != nil else { return .deliver }
        return state.withLock { state in
            let peer = endpoint.address
            if state.verified.contains(peer) { return .deliver }
            if state.refused.contains(peer) || state.pending.contains(peer) { return .drop }
            guard case .discovered = event else { return .drop }
            if state.pending.count >= Self.capacity { return .drop }
            state.pending.insert(peer)
            return .verify(endpoint)
        }
    }

    /// Verifies `endpoint`'s device; returns whether it passed (the store notes its address, and
    /// ``WASystem/verifications()`` reports the outcome either way).
    func verify(_ endpoint: WAEndpoint, system: WASystem) async -> Bool {
        let passed: Bool
        do {
            _ = try await system.verify(endpoint)
            passed = true
        } catch {
            passed = false
        }
        state.withLock { state in
            state.pending.remove(endpoint.address)
            if passed {
                if state.verified.count >= Self.capacity { state.verified.removeAll() }
                state.verified.insert(endpoint.address)
            } else {
                if state.refused.count >= Self.capacity { state.refused.removeAll() }
                state.refused.insert(endpoint.address)
            }
        }
        return passed
    }
}

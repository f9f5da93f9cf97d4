import NANEngine
import NANWire
internal import Synchronization

/// Automatic pairing verification in a session that selects paired devices: a publisher found whose device
/// holds a pairing key (recognised by its address or its NIRA) is verified with that key (PASN, no user)
/// before the session reports it; one that fails verification is not reported (it is not paired), and
/// ``WASystem/verifications()`` says why. Until its verification ends, nothing else of that peer is
/// reported. A failed peer is tried again when it is heard after ``retryAfter``: one failure may be an
/// attacker's spoofed frame, and must not hide a paired device for the rest of the session. Devices typed by
/// hand (no key) and sessions that admit any device are not verified.
final class SessionVerification: Sendable {
    private struct State {
        var pending: Set<MACAddress> = []
        /// Peers whose verification failed, with the time they may be tried again.
        var refused: [MACAddress: ContinuousClock.Instant] = [:]
        var verified: Set<MACAddress> = []
    }

    private let state = Mutex(State())
    /// The most peers remembered in each set (a bound on what received frames can grow).
    static let capacity = 256
    /// How long a peer that failed verification is not reported nor tried again.
    let retryAfter: Duration

    /// A session's verifications; a failed peer is tried again after `retryAfter`.
    init(retryAfter: Duration = .seconds(10)) {
        self.retryAfter = retryAfter
    }

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
        let now = ContinuousClock.now
        return state.withLock { state in
            let peer = endpoint.address
            if state.verified.contains(peer) { return .deliver }
            if state.pending.contains(peer) { return .drop }
            // Heard again once its wait is over: the session never reported it, so an update counts as the
            // discovery it then reports.
            if let again = state.refused[peer] {
                guard now >= again else { return .drop }
                switch event {
                case .discovered, .updated: state.refused[peer] = nil
                default: return .drop
                }
            } else {
                guard case .discovered = event else { return .drop }
            }
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
        finished(endpoint.address, passed: passed)
        return passed
    }

    /// Notes the outcome of `peer`'s verification.
    func finished(_ peer: MACAddress, passed: Bool) {
        let again = ContinuousClock.now + retryAfter
        state.withLock { state in
            state.pending.remove(peer)
            if passed {
                if state.verified.count >= Self.capacity { state.verified.removeAll() }
                state.verified.insert(peer)
            } else {
                if state.refused.count >= Self.capacity { state.refused.removeAll() }
                state.refused[peer] = again
            }
        }
    }
}

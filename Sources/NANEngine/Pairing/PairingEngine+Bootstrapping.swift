public import NANWire
internal import NANCrypto

/// NAN pairing bootstrapping (a NAN Pairing Bootstrapping attribute in SDF follow-ups) driven by the
/// pairing engine: ``bootstrap(with:localMethods:peerMethods:)`` as the requesting side (request, wait,
/// come back while the peer's user has not confirmed), ``handle(bootstrapping:from:)`` for what arrives
/// (a response to our request, or a peer's request, answered by the ``BootstrappingResponder``).
extension PairingEngine {
    /// What we answer as bootstrapping responder: the methods we support (our side) and those accepted
    /// without the user (opportunistic, typically). Pending requests are kept.
    public func setBootstrapping(supported: BootstrappingMethods, autoAccept: BootstrappingMethods = []) {
        var responder = BootstrappingResponder(
            supported: supported, autoAccept: autoAccept, limits: bootstrapResponder.limits)
        for (peer, entry) in bootstrapResponder.pending { responder.restore(entry, for: peer) }
        bootstrapResponder = responder
    }

    /// Our user confirmed `peer`'s pending request (the PIN is shown, or was typed): its next comeback
    /// request is accepted. False when nothing is pending for it.
    @discardableResult
    public func authorizeBootstrapping(_ peer: MACAddress) -> Bool { bootstrapResponder.authorize(peer) }

    /// Our user declined `peer`'s pending request: its next comeback request matches nothing.
    public func declineBootstrapping(_ peer: MACAddress) { bootstrapResponder.decline(peer) }

    /// Bootstraps with `peer` as the requesting side: picks our method from `localMethods` so that the
    /// peer's advertised `peerMethods` hold its complement, sends the request, follows comebacks (the peer's
    /// user has not confirmed yet) and returns our method once the peer accepts.
    ///
    /// - Throws: ``PairingError`` `methodMismatch` (no method fits, or the peer accepted another), `rejected`
    ///   (the peer refused, reason 13), `timedOut` (no response in ``bootstrappingLimits``, too many
    ///   comebacks, or longer than the attempt lifetime), `unexpectedMessage` (already bootstrapping with
    ///   the peer), `tableFull`.
    public func bootstrap(
        with peer: MACAddress, localMethods: BootstrappingMethods,
        peerMethods: BootstrappingMethods
    ) async throws(PairingError) -> BootstrappingMethods {
        guard bootstrapRequests[peer] == nil else {
            throw PairingError(.unexpectedMessage, "already bootstrapping with \(peer)")
        }
        guard bootstrapRequests.count < limits.maximumAttempts else {
            throw PairingError(.tableFull, "\(bootstrapRequests.count) bootstrapping requests in progress")
        }
        let token: UInt8
        do { token = try SecureRandom.bytes(1)[0] } catch {
            throw PairingError(.crypto, "no random dialog token: \(error)")
        }
        var machine = try BootstrappingInitiator(
            peer: peer, localMethods: localMethods, peerMethods: peerMethods,
            dialogToken: token, limits: bootstrappingLimits)
        bootstrapRequests[peer] = token
        defer { bootstrapRequests[peer] = nil; bootstrapEarly[peer] = nil }
        let deadline = ContinuousClock.now + limits.attemptLifetime
        while true {
            switch machine.state {
            case .accepted:
                return machine.method
            case .failed(let error):
                eventSink.yield(.failed(peer, error))
                throw error
            case .comebackDue(let due, _):
                if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
            case .idle, .awaitingResponse:
                break
            }
            guard ContinuousClock.now < deadline else {
                let error = PairingError(
                    .timedOut, "bootstrapping with \(peer) did not finish in \(limits.attemptLifetime)")
                eventSink.yield(.failed(peer, error))
                throw error
            }
            if Task.isCancelled { throw PairingError(.timedOut, "bootstrapping with \(peer) cancelled") }
            let request = try machine.request(at: .now)
            bootstrapEarly[peer] = nil
            // an unacknowledged request ends in the response timeout
            try? await link.send(bootstrapping: request, to: peer)
            var sent = ContinuousClock.now
            // Anyone can make the peer reject us: a copy of our request with other methods and our address
            // gets a rejection with our dialog token. A rejection is held for ``bootstrapRejectionGrace``,
            // and the peer's answer to our own request, when it comes, counts instead.
            var rejection: (answer: PairingBootstrappingAttribute, until: ContinuousClock.Instant)?
            while case .awaitingResponse = machine.state {
                var left = bootstrappingLimits.responseTimeout - (ContinuousClock.now - sent)
                if let rejection { left = min(left, rejection.until - .now) }
                guard left > .zero, let answer = await response(from: peer, within: left) else {
                    if let rejection {
                        do { try machine.receive(rejection.answer, from: peer, at: .now) } catch {}
                    } else if let again = machine.requestAgain(at: .now) {
                        try? await link.send(bootstrapping: again, to: peer)
                        sent = .now
                        continue
                    } else {
                        machine.tick(at: sent + bootstrappingLimits.responseTimeout)
                    }
                    break
                }
                if answer.status == .rejected {
                    if rejection == nil { rejection = (answer, .now + Self.bootstrapRejectionGrace) }
                    continue
                }
                do { try machine.receive(answer, from: peer, at: .now) } catch  where error.code == .unexpectedMessage {
                    continue
                } catch {}
            }
        }
    }

    /// Takes a NAN Pairing Bootstrapping attribute received in a follow-up from `peer`: a response to our
    /// request, or a request we answer (accepted, rejected, or come back until our user confirms; a new
    /// request that needs the user is reported as ``PairingEvent/bootstrappingRequested(_:_:)``).
    public func handle(bootstrapping attribute: PairingBootstrappingAttribute, from peer: MACAddress) async {
        switch attribute.type {
        case .response:
            guard bootstrapRequests[peer] == attribute.dialogToken else { return }
            guard let wait = bootstrapWaits.removeValue(forKey: peer) else {
                bootstrapEarly[peer] = attribute  // our request is still being sent
                return
            }
            wait.continuation.resume(returning: attribute)
        case .request:
            // Replays and tampered copies of a peer's request would each get an answer, and the answers
            // queue for the discovery windows ahead of the one to the peer's own: one answer per peer per
            // half second (the peer sends its request again after 3 s without one).
            guard answersBootstrapping(peer) else { return }
            let known = bootstrapResponder.pending[peer]?.dialogToken == attribute.dialogToken
            guard let answer = try? bootstrapResponder.receive(attribute, from: peer, at: .now) else { return }
            switch answer.status {
            case .accepted:
                noteBootstrapped(peer)
                eventSink.yield(.bootstrapped(peer, attribute.methods.complement))
            case .comeback where !known:
                eventSink.yield(.bootstrappingRequested(peer, attribute.methods.complement))
            case .rejected:
                eventSink.yield(
                    .failed(
                        peer,
                        PairingError(
                            .methodMismatch,
                            "\(peer) asked to bootstrap with a method we do not offer (0x\(String(attribute.methods.rawValue, radix: 16)))"
                        )))
            default:
                break
            }
            try? await link.send(bootstrapping: answer, to: peer)
        default:
            return
        }
    }

    /// Whether a bootstrapping request from `peer` gets an answer now: not within half a second of the last
    /// one (a bounded table, oldest out).
    private func answersBootstrapping(_ peer: MACAddress) -> Bool {
        let now = ContinuousClock.now
        if let last = bootstrapAnswers[peer], now - last < .milliseconds(500) { return false }
        bootstrapAnswers.note(peer, at: now, capacity: 64)
        return true
    }

    /// How long a rejection of our bootstrapping request waits for another answer before it counts.
    static let bootstrapRejectionGrace: Duration = .seconds(2)

    /// The response `peer` sends to our pending request, or nil after `timeout`.
    private func response(from peer: MACAddress, within timeout: Duration) async -> PairingBootstrappingAttribute? {
        if let early = bootstrapEarly.removeValue(forKey: peer) { return early }
        let token = newToken()
        return await withCheckedContinuation {
            (continuation: CheckedContinuation<PairingBootstrappingAttribute?, Never>) in
            bootstrapWaits.removeValue(forKey: peer)?.continuation.resume(returning: nil)
            bootstrapWaits[peer] = (token, continuation)
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.responseTimedOut(peer, token)
            }
        }
    }

    private func responseTimedOut(_ peer: MACAddress, _ token: UInt64) {
        guard let wait = bootstrapWaits[peer], wait.token == token else { return }
        bootstrapWaits[peer] = nil
        wait.continuation.resume(returning: nil)
    }
}

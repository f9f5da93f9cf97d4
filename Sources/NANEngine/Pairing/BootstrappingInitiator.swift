public import NANWire

/// The requesting side of NAN pairing bootstrapping (NPBA in follow-ups): one request, then accepted,
/// rejected, or told to come back (with a cookie) while the peer's user has not confirmed; a bounded
/// number of comebacks, and a timeout on every wait. Pure: the caller sends what it returns, feeds what
/// it receives, and calls `tick` from its timer.
public struct BootstrappingInitiator: Sendable {
    /// Where the exchange stands.
    public enum State: Hashable, Sendable {
        /// Not sent yet.
        case idle
        /// A request was sent at the instant; waiting for the response.
        case awaitingResponse(since: ContinuousClock.Instant)
        /// Told to come back: resend with the cookie at (or after) the instant.
        case comebackDue(at: ContinuousClock.Instant, cookie: [UInt8])
        /// Accepted: go on to PASN with `method`.
        case accepted
        /// Ended: rejected, out of comebacks, or timed out.
        case failed(PairingError)
    }

    /// Limits of the exchange.
    public struct Limits: Hashable, Sendable {
        /// How long to wait for each response.
        public var responseTimeout: Duration
        /// How many comebacks are followed before giving up.
        public var maximumComebacks: Int
        /// The longest comeback delay accepted from a peer (longer ones are clamped).
        public var maximumComebackDelay: Duration
        /// Creates limits.
        public init(
            responseTimeout: Duration = .seconds(3), maximumComebacks: Int = 30,
            maximumComebackDelay: Duration = .seconds(10)
        ) {
            self.responseTimeout = responseTimeout; self.maximumComebacks = maximumComebacks;
            self.maximumComebackDelay = maximumComebackDelay
        }
    }

    /// The peer's NMI.
    public let peer: MACAddress
    /// The method we use (one bit); the peer uses its complement.
    public let method: BootstrappingMethods
    /// The dialog token of every frame of this exchange.
    public let dialogToken: UInt8
    /// The limits.
    public let limits: Limits
    /// Where the exchange stands.
    public private(set) var state: State = .idle
    /// Comebacks followed so far.
    public private(set) var comebacks = 0
    /// The request last sent, and how often it went again for want of a response.
    private var lastRequest: PairingBootstrappingAttribute?
    private var resends = 0
    /// How often a request with no response goes again before the exchange times out.
    public static let maximumResends = 3

    /// An exchange with `peer`, choosing our method from `localMethods` against the peer's advertised
    /// `peerMethods`; `methodMismatch` when no method fits.
    public init(
        peer: MACAddress, localMethods: BootstrappingMethods, peerMethods: BootstrappingMethods,
        dialogToken: UInt8, limits: Limits = Limits()
    ) throws(PairingError) {
        guard let method = BootstrappingMethods.choose(local: localMethods, peer: peerMethods) else {
            throw PairingError(
                .methodMismatch,
                "no bootstrapping method of ours fits \(peer)'s (0x\(String(peerMethods.rawValue, radix: 16)))")
        }
        self.peer = peer; self.method = method; self.dialogToken = dialogToken; self.limits = limits
    }

    /// The request to send now: the first one, or the comeback request with the cookie once it is due.
    /// `unexpectedMessage` in any other state.
    public mutating func request(at now: ContinuousClock.Instant) throws(PairingError) -> PairingBootstrappingAttribute
    {
        let request: PairingBootstrappingAttribute
        switch state {
        case .idle:
            request = PairingBootstrappingAttribute(dialogToken: dialogToken, type: .request, methods: method)
        case .comebackDue(let due, let cookie) where now >= due:
            request = PairingBootstrappingAttribute(
                dialogToken: dialogToken, type: .request, status: .comeback,
                comeback: .init(after: nil, cookie: cookie[...]), methods: method)
        default:
            throw PairingError(.unexpectedMessage, "no bootstrapping request is due to \(peer)")
        }
        state = .awaitingResponse(since: now)
        lastRequest = request
        return request
    }

    /// The request again, when its response has not come within ``Limits/responseTimeout`` (a busy peer
    /// may lose it, or its answer may be lost): nil once it went ``maximumResends`` times more, or when no
    /// response is awaited. The wait starts again.
    public mutating func requestAgain(at now: ContinuousClock.Instant) -> PairingBootstrappingAttribute? {
        guard case .awaitingResponse(let since) = state, now - since >= limits.responseTimeout,
            resends < Self.maximumResends, let lastRequest
        else { return nil }
        resends += 1
        state = .awaitingResponse(since: now)
        return lastRequest
    }

    /// Feeds a received NPBA from `sender`. A frame that does not belong (another peer, dialog token,
    /// type, or no response awaited) throws `unexpectedMessage` and changes nothing; a rejection or too
    /// many comebacks ends the exchange (`state` is `.failed`, and the error is thrown too).
    public mutating func receive(
        _ attribute: PairingBootstrappingAttribute, from sender: MACAddress,
        at now: ContinuousClock.Instant
    ) throws(PairingError) {
        guard sender == peer, attribute.dialogToken == dialogToken, attribute.type == .response,
            case .awaitingResponse = state
        else {
            throw PairingError(
                .unexpectedMessage,
                "bootstrapping frame from \(sender) (token \(attribute.dialogToken)) does not answer our request")
        }
        switch attribute.status {
        case .accepted:
            guard
                attribute.methods.isEmpty || attribute.methods.contains(method.complement)
                    || attribute.methods.contains(method)
            else {
                try fail(
                    PairingError(
                        .methodMismatch,
                        "\(peer) accepted another method (0x\(String(attribute.methods.rawValue, radix: 16)))"))
            }
            state = .accepted
        case .comeback:
            guard let comeback = attribute.comeback else { throw PairingError(.malformed, "comeback without a cookie") }
            guard comebacks < limits.maximumComebacks else {
                try fail(PairingError(.timedOut, "\(peer) asked to come back \(comebacks) times"))
            }
            comebacks += 1
            let after = min(Duration.microseconds(1024 * Int64(comeback.after ?? 0)), limits.maximumComebackDelay)
            state = .comebackDue(at: now + after, cookie: Array(comeback.cookie))
        default:
            try fail(
                PairingError(.rejected, "\(peer) rejected bootstrapping (reason \(attribute.reasonCode.rawValue))"))
        }
    }

    /// Checks the response timeout; returns true when the exchange just failed with `timedOut`.
    @discardableResult
    public mutating func tick(at now: ContinuousClock.Instant) -> Bool {
        guard case .awaitingResponse(let since) = state, now - since >= limits.responseTimeout else { return false }
        state = .failed(PairingError(.timedOut, "no bootstrapping response from \(peer)"))
        return true
    }

    private mutating func fail(_ error: PairingError) throws(PairingError) -> Never {
        state = .failed(error)
        throw error
    }
}

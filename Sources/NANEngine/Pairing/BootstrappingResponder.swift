public import NANWire
internal import NANCrypto

/// The answering side of NAN pairing bootstrapping, for every peer at once. A request carries the
/// requester's method; we answer for its complement (our side). A request whose method we
/// support is accepted at once when its method is auto-accepted (opportunistic, typically), otherwise
/// answered "come back" with a random 4-byte cookie until the user confirms (`authorize`); the peer's
/// comeback request must carry that cookie. The pending table is bounded by count and by age. Pure: the
/// caller sends the responses it returns and calls `expire` from its timer.
public struct BootstrappingResponder: Sendable {
    /// Bounds of the pending table and the comeback delay asked of peers.
    public struct Limits: Hashable, Sendable {
        /// The most pending requests (one per peer); a new peer beyond it is rejected.
        public var capacity: Int
        /// A pending request older than this is forgotten.
        public var maximumAge: Duration
        /// The comeback delay asked of the peer, in TUs (1024 µs).
        public var comebackAfter: UInt16
        /// Creates limits.
        public init(capacity: Int = 16, maximumAge: Duration = .seconds(60), comebackAfter: UInt16 = 1000) {
            self.capacity = max(1, capacity); self.maximumAge = maximumAge; self.comebackAfter = comebackAfter
        }
    }

    /// One peer waiting for the user.
    public struct Pending: Hashable, Sendable {
        /// The peer's dialog token.
        public var dialogToken: UInt8
        /// The method the peer uses (as requested).
        public var peerMethod: BootstrappingMethods
        /// Our side of it (display or keypad): what the UI must do.
        public var localMethod: BootstrappingMethods { peerMethod.complement }
        /// When the first request arrived.
        public var since: ContinuousClock.Instant
        /// Whether the user confirmed.
        public var authorized: Bool
        let cookie: [UInt8]
    }

    /// Methods we support (our side).
    public let supported: BootstrappingMethods
    /// Methods accepted without the user (our side), e.g. `.opportunistic`.
    public let autoAccept: BootstrappingMethods
    /// The bounds.
    public let limits: Limits
    /// Requests waiting for the user, by peer NMI.
    public private(set) var pending: [MACAddress: Pending] = [:]

    /// A responder supporting `supported`, accepting `autoAccept` without asking.
    public init(supported: BootstrappingMethods, autoAccept: BootstrappingMethods = [], limits: Limits = Limits()) {
        self.supported = supported; self.autoAccept = autoAccept.intersection(supported); self.limits = limits
    }

    /// Answers a received NPBA from `sender`: an acceptance carries our method (the complement of the
    /// request's), a rejection or a comeback carries none, as wpa_supplicant 2.12 answers and expects.
    /// A new request is accepted, rejected (no supported method,
    /// or the table full of other peers) or answered with a comeback; the same request repeated (same dialog
    /// token and method) gets the same cookie; a comeback request is accepted once authorized and its cookie
    /// matches. Frames that are not requests, or comeback requests that match
    /// nothing, throw `unexpectedMessage` and change nothing (no response is sent).
    public mutating func receive(
        _ attribute: PairingBootstrappingAttribute, from sender: MACAddress,
        at now: ContinuousClock.Instant
    ) throws(PairingError) -> PairingBootstrappingAttribute {
        expire(at: now)
        guard attribute.type == .request else {
            throw PairingError(
                .unexpectedMessage,
                "bootstrapping \(attribute.type.rawValue == 2 ? "response" : "advertisement") from \(sender) to a responder"
            )
        }
        if attribute.status == .comeback {
            guard let entry = pending[sender], let cookie = attribute.comeback?.cookie,
                entry.dialogToken == attribute.dialogToken, ConstantTime.equal(cookie, entry.cookie)
            else {
                throw PairingError(.unexpectedMessage, "comeback from \(sender) matches no pending bootstrapping")
            }
            guard entry.authorized else { return comebackResponse(entry) }
            pending[sender] = nil
            return response(attribute.dialogToken, .accepted, methods: entry.localMethod)
        }
        let local = attribute.methods.complement
        guard !local.isEmpty, supported.contains(local) else {
            return response(attribute.dialogToken, .rejected, methods: [])
        }
        if autoAccept.contains(local) {
            pending[sender] = nil
            return response(attribute.dialogToken, .accepted, methods: local)
        }
        if let entry = pending[sender], entry.dialogToken == attribute.dialogToken,
            entry.peerMethod == attribute.methods
        {
            // The same request again (wpa_supplicant re-sends it every second until it hears from us, and our
            // answer waits for a DW): answer with the cookie already given. A new cookie here could reach the
            // peer before the old one, and its comeback request would then match nothing.
            return comebackResponse(entry)
        }
        guard pending[sender] != nil || pending.count < limits.capacity else {
            return response(attribute.dialogToken, .rejected, methods: [])
        }
        let cookie: [UInt8]
        do { cookie = try SecureRandom.bytes(4) } catch { throw PairingError(.crypto, "\(error)") }
        let entry = Pending(
            dialogToken: attribute.dialogToken, peerMethod: attribute.methods, since: now, authorized: false,
            cookie: cookie)
        pending[sender] = entry
        return comebackResponse(entry)
    }

    /// The user confirmed `peer`'s pending request (showed the PIN, or typed it): its next comeback
    /// request is accepted. False when nothing is pending for it.
    @discardableResult
    public mutating func authorize(_ peer: MACAddress) -> Bool {
        guard pending[peer] != nil else { return false }
        pending[peer]?.authorized = true
        return true
    }

    /// Puts back a pending request (when the supported methods change).
    mutating func restore(_ entry: Pending, for peer: MACAddress) { pending[peer] = entry }

    /// Drops `peer`'s pending request (the user declined).
    public mutating func decline(_ peer: MACAddress) { pending[peer] = nil }

    /// Forgets pending requests older than `limits.maximumAge`.
    public mutating func expire(at now: ContinuousClock.Instant) {
        pending = pending.filter { now - $0.value.since < limits.maximumAge }
    }

    private func comebackResponse(_ entry: Pending) -> PairingBootstrappingAttribute {
        PairingBootstrappingAttribute(
            dialogToken: entry.dialogToken, type: .response, status: .comeback,
            comeback: .init(after: limits.comebackAfter, cookie: entry.cookie[...]), methods: [])
    }

    private func response(
        _ token: UInt8, _ status: PairingBootstrappingAttribute.Status, methods: BootstrappingMethods
    ) -> PairingBootstrappingAttribute {
        PairingBootstrappingAttribute(
            dialogToken: token, type: .response, status: status,
            reasonCode: status == .rejected ? .pairingBootstrappingRejected : .none, methods: methods)
    }
}

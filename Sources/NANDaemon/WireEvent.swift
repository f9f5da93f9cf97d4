public import NANEngine
public import NANWire

/// One session event on the wire, for the client's session `session`.
public struct WireEvent: Codable, Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Codable, Sendable, Hashable {
        /// A publisher matched (subscribe).
        case discovered
        /// A subscriber asked and was answered (publish).
        case replied
        /// A follow-up arrived.
        case message
        /// A peer instance is no longer heard.
        case lost
        /// Events were lost (the radio's, or this client's queue overflowed).
        case eventsLost
        /// The session ended.
        case terminated
    }

    /// The client's session.
    public var session: UInt32
    /// What happened.
    public var kind: Kind
    /// The peer's NMI address.
    public var peer: String?
    /// The peer's instance ID.
    public var peerInstance: UInt8?
    /// Our instance ID.
    public var localInstance: UInt8?
    /// Service info, or the follow-up's payload.
    public var payload: [UInt8]?
    /// The peer offers a data path.
    public var offersDataPath: Bool?
    /// The peer's radio facts.
    public var radio: WireRadio?
    /// `lost`: the session had asked to be told.
    public var reported: Bool?
    /// `message`: came protected.
    public var isProtected: Bool?
    /// `eventsLost`: how many.
    public var dropped: Int?
    /// `terminated`: why (`user-request`, `ttl`, `error`, `device-removed`).
    public var reason: String?

    /// An event of no kind yet.
    public init(session: UInt32, kind: Kind) {
        self.session = session
        self.kind = kind
    }

    /// The wire form of an engine event of `session`.
    public init(_ event: DiscoveryEvent, session: UInt32, now: ContinuousClock.Instant) {
        self.session = session
        switch event {
        case .discovered(let r), .replied(let r):
            if case .discovered = event { kind = .discovered } else { kind = .replied }
            peer = r.peer.description
            peerInstance = r.peerInstanceID.rawValue
            localInstance = r.localInstanceID.rawValue
            payload = r.serviceInfo
            offersDataPath = r.offersDataPath
            radio = WireRadio(r.radio, now: now)
        case .messageReceived(let m):
            kind = .message
            peer = m.peer.description
            peerInstance = m.peerInstanceID.rawValue
            localInstance = m.localInstanceID.rawValue
            payload = m.payload
            radio = WireRadio(m.radio, now: now)
            isProtected = m.isProtected
        case .lost(let l):
            kind = .lost
            peer = l.peer.description
            peerInstance = l.peerInstanceID.rawValue
            localInstance = l.localInstanceID.rawValue
            reported = l.reported
        case .eventsLost(let loss):
            kind = .eventsLost
            dropped = loss.droppedEvents
        case .terminated(let why):
            kind = .terminated
            reason = why.description
        }
    }

    /// The engine event again; nil when a field the kind needs is missing or malformed.
    public func discoveryEvent(now: ContinuousClock.Instant) -> DiscoveryEvent? {
        let address = peer.flatMap { MACAddress($0) }
        let facts =
            (radio
            ?? WireRadio(
                PeerRadioFacts(signal: nil, frequency: nil, discoveryWindowsHeard: 0, lastHeard: now), now: now)).facts(
                now: now)
        switch kind {
        case .discovered, .replied:
            guard let address, let peerInstance, let localInstance else { return nil }
            let result = DiscoveryResult(
                peer: address, peerInstanceID: InstanceID(peerInstance), localInstanceID: InstanceID(localInstance),
                serviceInfo: Array((payload ?? []).prefix(255)), offersDataPath: offersDataPath ?? false, radio: facts)
            return kind == .discovered ? .discovered(result) : .replied(result)
        case .message:
            guard let address, let peerInstance, let localInstance else { return nil }
            return .messageReceived(
                ReceivedMessage(
                    peer: address, peerInstanceID: InstanceID(peerInstance), localInstanceID: InstanceID(localInstance),
                    payload: Array((payload ?? []).prefix(255)), radio: facts, isProtected: isProtected ?? false))
        case .lost:
            guard let address, let peerInstance, let localInstance else { return nil }
            return .lost(
                LostPeer(
                    peer: address, peerInstanceID: InstanceID(peerInstance), localInstanceID: InstanceID(localInstance),
                    reported: reported ?? false))
        case .eventsLost:
            return .eventsLost(EventLoss(droppedEvents: dropped))
        case .terminated:
            let why: TerminationReason =
                switch reason {
                case "ttl": .timeToLiveExpired
                case "device-removed": .deviceRemoved
                case "error": .failure
                default: .userRequest
                }
            return .terminated(why)
        }
    }
}

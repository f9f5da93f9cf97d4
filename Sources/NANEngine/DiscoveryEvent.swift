public import NANWire

/// Radio facts about a peer, taken from the discovery frames it sent us.
public struct PeerRadioFacts: Hashable, Sendable {
    /// Signal of the last frame received from the peer, in dBm, if the driver reported it.
    public var signal: Int?
    /// Frequency (MHz) of the last frame received from the peer.
    public var frequency: Int?
    /// In how many distinct discovery windows we heard the peer.
    public var discoveryWindowsHeard: Int
    /// When we last heard it.
    public var lastHeard: ContinuousClock.Instant

    /// Makes facts.
    public init(
        signal: Int? = nil, frequency: Int? = nil, discoveryWindowsHeard: Int, lastHeard: ContinuousClock.Instant
    ) {
        self.signal = signal
        self.frequency = frequency
        self.discoveryWindowsHeard = discoveryWindowsHeard
        self.lastHeard = lastHeard
    }
}

/// A peer as seen by the engine: its NMI address and radio facts.
public struct Peer: Hashable, Sendable {
    /// The peer's NAN Management Interface address.
    public var address: MACAddress
    /// Radio facts from its discovery frames.
    public var radio: PeerRadioFacts

    /// Makes a peer.
    public init(address: MACAddress, radio: PeerRadioFacts) {
        self.address = address
        self.radio = radio
    }
}

/// A peer's service matched one of ours.
public struct DiscoveryResult: Hashable, Sendable {
    /// The peer's NMI address.
    public var peer: MACAddress
    /// The peer's instance ID for this service: address follow-ups with it.
    public var peerInstanceID: InstanceID
    /// Our publish or subscribe that matched.
    public var localInstanceID: InstanceID
    /// The peer's service specific info.
    public var serviceInfo: [UInt8]
    /// The peer offers a NAN data path for this service.
    public var offersDataPath: Bool
    /// The peer's radio facts when it matched.
    public var radio: PeerRadioFacts
    /// The NIRA the peer's frame carried: resolve it against the paired devices' NIKs.
    public var identityResolution: IdentityResolutionAttribute? = nil
    /// The pairing bootstrapping methods the publisher advertises (its NPBA), nil when it advertises none.
    public var bootstrappingMethods: PairingBootstrappingAttribute.Methods? = nil
}

/// A follow-up message from a peer.
public struct ReceivedMessage: Hashable, Sendable {
    /// The sender's NMI address.
    public var peer: MACAddress
    /// The sender's instance ID.
    public var peerInstanceID: InstanceID
    /// Our instance it addressed.
    public var localInstanceID: InstanceID
    /// The message bytes.
    public var payload: [UInt8]
    /// The sender's radio facts when it arrived.
    public var radio: PeerRadioFacts
    /// The NIRA the sender's frame carried, if any.
    public var identityResolution: IdentityResolutionAttribute? = nil
    /// A Shared Key Descriptor attribute sent with the message: NAN pairing's NIK key data, for the
    /// pairing engine (``PairingEngine/handle(keyDescriptor:from:)``).
    public var keyDescriptor: SharedKeyDescriptorAttribute? = nil
    /// A NAN Pairing Bootstrapping attribute (request or response) sent with the message, for the pairing
    /// engine (``PairingEngine/handle(bootstrapping:from:)``).
    public var bootstrapping: PairingBootstrappingAttribute? = nil
    /// The message came in a protected SDF (category 9), which the kernel decrypted with the NM-TK of a
    /// paired peer: only that peer could have sent it.
    public var isProtected: Bool = false
}

/// A peer instance a session had reported and no longer hears.
public struct LostPeer: Hashable, Sendable {
    /// The peer's NMI address.
    public var peer: MACAddress
    /// The peer's instance ID.
    public var peerInstanceID: InstanceID
    /// Our publish or subscribe that had reported it.
    public var localInstanceID: InstanceID
    /// Whether the session asked to be told (its `lostAfterPeriods` ran out); false when the engine only
    /// forgot the peer (long silence, or a full table) and will report it again if heard.
    public var reported: Bool

    /// Makes a loss.
    public init(peer: MACAddress, peerInstanceID: InstanceID, localInstanceID: InstanceID, reported: Bool) {
        self.peer = peer
        self.peerInstanceID = peerInstanceID
        self.localInstanceID = localInstanceID
        self.reported = reported
    }
}

/// The radio's events were lost (a netlink overrun) and the engine resynchronised: it asked the kernel
/// whether the NAN interface is still there and which cluster it is in, settled the frames that were
/// waiting for a TX status as not acknowledged, restarted the loss clock of every peer it had reported (a
/// peer is not reported lost for frames the engine itself missed), and made active subscribes ask again
/// in the next DW. Discoveries and messages that arrived during the loss may be missing: a publisher
/// still announcing is reported when heard next, but a follow-up message that was lost is gone.
public struct EventLoss: Hashable, Sendable {
    /// How many events were dropped, when known; nil when the kernel's socket overflowed (it does not
    /// say how many).
    public var droppedEvents: Int?
    /// Makes a value.
    public init(droppedEvents: Int?) {
        self.droppedEvents = droppedEvents
    }
}

/// Why a publish or subscribe ended.
public enum TerminationReason: Hashable, Sendable, CustomStringConvertible {
    /// Stopped by its owner.
    case userRequest
    /// Its time to live ran out.
    case timeToLiveExpired
    /// The radio or driver failed.
    case failure
    /// The NAN interface or its adapter went away (radio deleted, driver unloaded, unplugged).
    case deviceRemoved
    /// nl80211's name for it.
    public var description: String {
        switch self {
        case .userRequest: "user-request"
        case .timeToLiveExpired: "ttl"
        case .failure: "error"
        case .deviceRemoved: "device-removed"
        }
    }
}

/// Whether a follow-up reached the peer.
public enum DeliveryStatus: Hashable, Sendable {
    /// The peer acknowledged the frame.
    case acknowledged
    /// The frame went out but no acknowledgement came.
    case notAcknowledged
    /// Offloaded path: the driver took the follow-up and reports no acknowledgement.
    case handedToDriver
}

/// One event of a publish or subscribe session.
public enum DiscoveryEvent: Hashable, Sendable {
    /// Subscribe: a publisher matched.
    case discovered(DiscoveryResult)
    /// Publish: a subscriber asked, and we answered.
    case replied(DiscoveryResult)
    /// A follow-up message arrived.
    case messageReceived(ReceivedMessage)
    /// A peer instance reported before is no longer heard (or was forgotten); heard again, it is reported
    /// again with `.discovered` or `.replied`.
    case lost(LostPeer)
    /// Radio events were lost (netlink overrun) and the engine resynchronised; the session goes on.
    case eventsLost(EventLoss)
    /// The session ended; no more events follow.
    case terminated(TerminationReason)
}

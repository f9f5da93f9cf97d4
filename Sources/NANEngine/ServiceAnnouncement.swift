import NANWire

/// One Service Descriptor as the engine reasons about it, independent of its byte layout.
struct ServiceAnnouncement: Sendable {
    /// What the descriptor announces.
    enum Kind: Sendable, Equatable {
        case publish, subscribe, followUp
    }

    var kind: Kind
    var serviceID: ServiceID
    /// The sender's instance.
    var instanceID: InstanceID
    /// The receiver's instance this answers or addresses; 0 for none.
    var requestorInstanceID: InstanceID
    var matchFilter: MatchingFilter?
    var responseFilter: ServiceResponseFilter?
    /// Service specific info (the message payload of a follow-up).
    var serviceInfo: [UInt8]
    /// "Discovery range limited": only peers close by should act on it.
    var rangeLimited: Bool
    /// The sender offers a NAN data path for this service.
    var offersDataPath: Bool
    /// The cipher suites a data path to this publish must use (its SDEA says "security required" and the
    /// frame's Cipher Suite Info lists them); empty: open data paths.
    var cipherSuites: [NANCipherSuite] = []
    /// The NAN Identity Resolution attribute of the frame that carried it (received announcements only).
    var identityResolution: IdentityResolutionAttribute?
    /// A Shared Key Descriptor attribute sent with a follow-up (NAN pairing's NIK key data).
    var keyDescriptor: SharedKeyDescriptorAttribute?
    /// A NAN Pairing Bootstrapping attribute: the methods a publish advertises, or a follow-up's
    /// bootstrapping request or response.
    var bootstrapping: PairingBootstrappingAttribute?
    /// The frame that carried it was a protected SDF (category 9: the kernel decrypted it with the NM-TK
    /// of a paired peer). Received announcements only.
    var isProtected = false

    init(
        kind: Kind, serviceID: ServiceID, instanceID: InstanceID,
        requestorInstanceID: InstanceID = InstanceID(rawValue: 0),
        matchFilter: MatchingFilter? = nil, responseFilter: ServiceResponseFilter? = nil,
        serviceInfo: [UInt8] = [], rangeLimited: Bool = false, offersDataPath: Bool = false
    ) {
        self.kind = kind
        self.serviceID = serviceID
        self.instanceID = instanceID
        self.requestorInstanceID = requestorInstanceID
        self.matchFilter = matchFilter
        self.responseFilter = responseFilter
        self.serviceInfo = serviceInfo
        self.rangeLimited = rangeLimited
        self.offersDataPath = offersDataPath
    }
}

/// A service discovery frame the engine sends: who to, and the descriptors it carries.
struct OutgoingDiscoveryFrame: Sendable {
    var destination: MACAddress
    var announcements: [ServiceAnnouncement]
    /// Our NIRA, carried in publish and subscribe frames when we have a NIK.
    var identityResolution: IdentityResolutionAttribute? = nil
    /// What the frame says about this device (``DeviceAttributes``), before the NIRA.
    var deviceAttributes: [NANAttribute] = []
    /// Sent as a protected SDF (category 9): the destination is a paired peer whose NM-TK is installed, so
    /// the kernel encrypts the frame (see ``NANEngine/protectFrames(to:_:)``).
    var isProtected = false
}

/// A decoded service discovery frame from a peer.
struct IncomingDiscoveryFrame: Sendable {
    var source: MACAddress
    var announcements: [ServiceAnnouncement]
    /// Address 3 of the frame: the cluster ID it was sent in; nil if the codec does not say.
    var cluster: MACAddress? = nil
    /// The NAN Availability attributes the frame carried (the sender's schedule, for a data path with it).
    var availability: [NANAvailabilityAttribute] = []
    /// The committed DW info of the frame's Device Capability; nil without one.
    var committedDW: UInt16? = nil
    /// Whether the frame carried a NAN Availability attribute (set by ``DiscoveryFrameCodec/decodeSubscribes(_:)``
    /// too, which does not decode it).
    var announcesAvailability = false
}

/// Turns engine frames into bytes and back. The real one is built on NANWire; tests may use their own.
protocol DiscoveryFrameCodec: Sendable {
    /// The bytes of a management frame (802.11 header included) from `source` in cluster `cluster`.
    func encode(_ frame: OutgoingDiscoveryFrame, source: MACAddress, cluster: MACAddress) throws -> [UInt8]
    /// Decodes a received management frame; throws on anything malformed.
    func decode(_ bytes: [UInt8]) throws -> IncomingDiscoveryFrame
    /// The sender, cluster and subscribes of a received frame, and nothing else (no other announcement, no
    /// availability): what answering it takes, read as cheaply as the codec can.
    func decodeSubscribes(_ bytes: [UInt8]) throws -> IncomingDiscoveryFrame
}

extension DiscoveryFrameCodec {
    /// The whole frame, less what is not a subscribe.
    func decodeSubscribes(_ bytes: [UInt8]) throws -> IncomingDiscoveryFrame {
        var frame = try decode(bytes)
        frame.announcements.removeAll { $0.kind != .subscribe }
        frame.announcesAvailability = !frame.availability.isEmpty
        frame.availability = []
        return frame
    }
}

public import NANWire

/// The NAN discovery engine of one NAN interface: publish, subscribe, follow-up messages and peer facts.
///
/// Get one with `NANEngine.run(on:…)`, which owns the interface for the duration of its closure.
/// The same API works whether the driver leaves discovery to user space (hwsim) or offloads it.
public struct NANEngine: Sendable {
    let core: DiscoveryEngine
    /// The data-path engine, when the radio can carry data paths.
    let dataPath: DataPathEngine?

    init(core: DiscoveryEngine, dataPath: DataPathEngine? = nil) {
        self.core = core
        self.dataPath = dataPath
    }

    /// Our NAN Management Interface (NMI) address.
    public var localAddress: MACAddress { core.localAddress }

    /// Who runs discovery on this interface.
    public var discoveryMode: DiscoveryMode { core.radio.discoveryMode }

    /// Starts publishing a service.
    ///
    /// - Throws: `DiscoveryError.tooLong` if the service info exceeds 255 bytes, `.tooManyServices`,
    ///   `.engineStopped`, or the driver's error on the offloaded path.
    public func publish(_ configuration: PublishConfiguration) async throws -> DiscoverySession {
        let (id, stream) = try await core.publish(configuration)
        return DiscoverySession(instanceID: id, stream: stream, engine: core)
    }

    /// Starts subscribing to a service.
    public func subscribe(_ configuration: SubscribeConfiguration) async throws -> DiscoverySession {
        let (id, stream) = try await core.subscribe(configuration)
        return DiscoverySession(instanceID: id, stream: stream, engine: core)
    }

    /// Sends a follow-up from our instance `local` to a peer's instance and waits for its delivery status.
    public func send(
        _ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID
    ) async throws -> DeliveryStatus {
        try await core.send(payload, from: local, to: peer, peerInstanceID: peerInstanceID)
    }

    /// Sends a follow-up carrying a Shared Key Descriptor attribute (NAN pairing's NIK key data) from our
    /// instance `local` to a peer's instance. User-space discovery only.
    public func send(
        keyDescriptor: SharedKeyDescriptorAttribute, from local: InstanceID, to peer: MACAddress,
        peerInstanceID: InstanceID
    ) async throws -> DeliveryStatus {
        try await core.send([], from: local, to: peer, peerInstanceID: peerInstanceID, keyDescriptor: keyDescriptor)
    }

    /// Sends a follow-up carrying a NAN Pairing Bootstrapping attribute (a bootstrapping request or
    /// response) from our instance `local` to a peer's instance. User-space discovery only.
    public func send(
        bootstrapping: PairingBootstrappingAttribute, from local: InstanceID, to peer: MACAddress,
        peerInstanceID: InstanceID
    ) async throws -> DeliveryStatus {
        try await core.send([], from: local, to: peer, peerInstanceID: peerInstanceID, bootstrapping: bootstrapping)
    }

    /// Every peer heard so far, most recent first, with radio facts from its discovery frames.
    public func peers() async -> [Peer] { await core.knownPeers() }

    /// Makes our publish and subscribe frames carry `nira` (a NAN Identity Resolution attribute from our
    /// NIK over our NMI, ``NANIdentityKey/identityResolution(nmi:)``), so paired devices recognise us
    /// whatever our NMI; nil stops. Make a fresh one at every NMI change. Offloaded discovery ignores it.
    public func setIdentityResolution(_ nira: IdentityResolutionAttribute?) async {
        await core.setIdentityResolution(nira)
    }

    /// Sends our unicast SDFs, and our data-path NAFs, to `peer` protected (category 9, "protected dual of
    /// public action") from now on (`protects` false stops it). Call it once the peer's NM-TK is installed as the pairwise
    /// key of its NMI station: the kernel then encrypts those frames, and a paired wpa_supplicant 2.12 drops
    /// unprotected unicast SDFs from its paired peers. At most 256 peers (the oldest goes).
    public func protectFrames(to peer: MACAddress, _ protects: Bool = true) async {
        await core.setProtected(peer, protects)
        await dataPath?.setProtected(peer, protects)
    }

    /// The Device Capability attribute our SDFs carry (nil when they carry none: a radio without data
    /// paths). The pairing engine puts it in PASN frame 1 too: wpa_supplicant 2.12 makes a peer's NMI station
    /// only from a Device Capability it has heard, and a subscriber that never sent an SDF has sent none.
    public func deviceCapability() async -> DeviceCapabilityAttribute? { await core.deviceAttributes?.capability }

    /// The NAN Availability attribute our SDFs carry (nil when they carry none). The pairing engine puts
    /// it in PASN frame 1 too, so that a responder that never heard our SDFs sends frame 2 outside the DWs.
    public func availability() async -> NANAvailabilityAttribute? { await core.deviceAttributes?.availability }

    /// Counters of frames, windows and drops.
    public func statistics() async -> EngineStatistics { await core.statistics }

    /// Runs an engine over `radio` for the duration of `body`; every session ends when it returns.
    static func run<Result: Sendable>(
        radio: any DiscoveryRadio, codec: any DiscoveryFrameCodec,
        options: DiscoveryEngine.Options = .init(), dataPath: DataPathEngine? = nil,
        _ body: (NANEngine) async throws -> Result
    ) async throws -> Result {
        let core = DiscoveryEngine(radio: radio, codec: codec, options: options)
        if let dataPath {
            // A radio that carries data paths says so in every SDF, and its schedule once installed.
            await core.setDeviceAttributes(await dataPath.deviceAttributes)
            await dataPath.setScheduleObserver { [weak core] schedule in await core?.setCommittedSchedule(schedule) }
            await core.setAvailabilityObserver { [weak dataPath] peer, availability in
                await dataPath?.peerAnnounced(availability, by: peer)
                await dataPath?.discoveryPeerAnnounced(availability, by: peer)
            }
            await core.setForgottenPeerObserver { [weak dataPath] peer in await dataPath?.discoveryPeerForgotten(peer) }
            // Unicast SDFs (plain follow-ups, replies to active subscribes) through the peer's station.
            await core.setStationPreparer { [weak dataPath] peer, availability, committedDW in
                await dataPath?.prepareDiscoveryStation(
                    for: peer, availability: availability, committedDW: committedDW) ?? false
            }
        }
        let pump = Task { await core.run() }
        defer { pump.cancel() }
        do {
            let result = try await body(NANEngine(core: core, dataPath: dataPath))
            await dataPath?.shutDown()
            await core.shutDown(reason: .userRequest)
            return result
        } catch {
            await dataPath?.shutDown()
            await core.shutDown(reason: .userRequest)
            throw error
        }
    }
}

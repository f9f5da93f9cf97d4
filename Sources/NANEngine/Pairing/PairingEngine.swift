public import NANLogging
public import NANWire

/// How a pairing engine reaches its peers: PASN Authentication frames on the NMI, and SDF follow-ups
/// carrying the NIK key data (a Shared Key Descriptor attribute) or a bootstrapping request or response
/// (a NAN Pairing Bootstrapping attribute). The runtime adapter sends them with nl80211; tests join two
/// engines directly.
public protocol PairingLink: Sendable {
    /// Sends a whole Authentication frame (header included).
    func send(authentication frame: [UInt8]) async throws
    /// Sends a follow-up to `peer` carrying `keyDescriptor`.
    func send(keyDescriptor: SharedKeyDescriptorAttribute, to peer: MACAddress) async throws
    /// Sends a follow-up to `peer` carrying a bootstrapping request or response.
    func send(bootstrapping: PairingBootstrappingAttribute, to peer: MACAddress) async throws
    /// Called when an attempt with `peer` ended (paired, verified or failed): the link may release what it
    /// set up for the peer (the runtime link's NMI station). Does nothing by default.
    func finished(with peer: MACAddress) async
    /// Called once a PASN exchange with `peer` succeeded (setup or verification, either role; an initiator
    /// before it sends frame 3), before any follow-up of that pairing is sent: install `temporalKey` (the NM-TK, the PASN TK) as the pairwise
    /// key of the peer's NMI station (MFP) with the suite's cipher, and send later unicast SDFs to the
    /// peer protected (category 9). wpa_supplicant 2.12 does the same and drops unprotected unicast SDFs
    /// from a paired peer, the NIK follow-up included. Does nothing by default.
    func protect(_ peer: MACAddress, temporalKey: [UInt8], suite: NDPCipherSuite) async
    /// Called by a responder before it sends frame 2, with the TK the exchange ends with if frame 3
    /// verifies: install it for receiving already (the peer's station, MFP, the pairwise key), but do not
    /// protect our frames yet. An initiator may send its NIK, protected, as soon as frame 3 is acknowledged
    /// (wpa_supplicant 2.12 sends it 30 ms after), and the kernel drops a protected frame that arrives
    /// before its key. ``protect(_:temporalKey:suite:)`` follows with the same key when frame 3 verifies;
    /// ``withdrawProtection(_:temporalKey:)`` when the attempt fails. Does nothing by default.
    func prepareProtection(_ peer: MACAddress, temporalKey: [UInt8], suite: NDPCipherSuite) async
    /// The attempt whose TK `prepareProtection(_:temporalKey:suite:)` installed failed: remove that key
    /// (only if it is still this one: a later attempt's is kept). Does nothing by default.
    func withdrawProtection(_ peer: MACAddress, temporalKey: [UInt8]) async
    /// Our Device Capability attribute, for the NAN element of our PASN frame 1 (see
    /// ``PASNPairingInitiator/init(own:peer:publishID:method:suite:identity:peerIdentity:deviceCapability:)``);
    /// nil (the default) leaves it out.
    func deviceCapability() async -> DeviceCapabilityAttribute?
    /// Our NAN Availability attribute (the schedule our SDFs announce), for the NAN element of our PASN
    /// frames 1 and 3: a responder that never heard an SDF of ours (we subscribe passively) learns from it
    /// when we listen outside the DWs. Nil (the default) leaves it out.
    func availability() async -> NANAvailabilityAttribute?
    /// What `peer`'s PASN frame 1 announced of its schedule (its NAN Availability, the committed DW info
    /// of its Device Capability), handed over before we answer it: the link may send our frame 2 in the
    /// next slot both are on one channel rather than at the next DW. Does nothing by default.
    func peerAnnounced(_ peer: MACAddress, availability: NANAvailabilityAttribute, committedDW: UInt16?) async
}

extension PairingLink {
    /// Does nothing.
    public func finished(with peer: MACAddress) async {}
    /// Does nothing.
    public func protect(_ peer: MACAddress, temporalKey: [UInt8], suite: NDPCipherSuite) async {}
    /// Does nothing.
    public func prepareProtection(_ peer: MACAddress, temporalKey: [UInt8], suite: NDPCipherSuite) async {}
    /// Does nothing.
    public func withdrawProtection(_ peer: MACAddress, temporalKey: [UInt8]) async {}
    /// None.
    public func deviceCapability() async -> DeviceCapabilityAttribute? { nil }
    /// None.
    public func availability() async -> NANAvailabilityAttribute? { nil }
    /// Does nothing.
    public func peerAnnounced(_ peer: MACAddress, availability: NANAvailabilityAttribute, committedDW: UInt16?) async {}
}

/// A device paired with this one: where it was last seen, its NIK (which resolves its NIRAs) and the
/// cached pairing (NPK and AKM). Never printed with its keys.
public struct PairedDeviceKeys: Sendable, CustomStringConvertible {
    /// The NMI the device had when it paired, which names it in this engine.
    public let id: MACAddress
    /// The NMI it was last seen with.
    public var lastAddress: MACAddress
    /// Its NIK, nil if it sent none.
    public var nik: NANIdentityKey?
    /// The NPK and AKM.
    public var pairing: CachedPairing
    /// How long the peer said its NIK stays valid, in seconds.
    public var nikLifetime: UInt32?
    /// Creates a record (from the store, say).
    public init(
        id: MACAddress, lastAddress: MACAddress, nik: NANIdentityKey?, pairing: CachedPairing,
        nikLifetime: UInt32? = nil
    ) {
        self.id = id; self.lastAddress = lastAddress; self.nik = nik; self.pairing = pairing;
        self.nikLifetime = nikLifetime
    }
    /// Without keys.
    public var description: String {
        "PairedDeviceKeys(\(id), last seen as \(lastAddress), \(pairing.akm), NIK \(nik == nil ? "no" : "yes"))"
    }
}

/// What the pairing engine reports.
public enum PairingEvent: Sendable {
    /// A pairing setup finished (either role) and the NIKs were exchanged.
    case paired(PairedDeviceKeys)
    /// A paired device was verified with its cached NPK (either role); the ND-PMK is fresh.
    case verified(PairedDeviceKeys)
    /// An attempt with the device at the address failed.
    case failed(MACAddress, PairingError)
    /// A peer asks to bootstrap with a method that needs our user; `method` is our side of it (show the
    /// PIN or passphrase, or ask for it). Answer with ``PairingEngine/authorizeBootstrapping(_:)`` (or
    /// ``PairingEngine/declineBootstrapping(_:)``); until then the peer is told to come back.
    case bootstrappingRequested(MACAddress, BootstrappingMethods)
    /// We accepted a peer's bootstrapping request; `method` is our side of it. Its PASN setup follows.
    case bootstrapped(MACAddress, BootstrappingMethods)
}

/// NAN pairing on one device: runs PASN setup and verification as initiator (``pair(with:publishID:method:)``)
/// or responder (frames fed to ``handle(authentication:)``), exchanges NIKs in follow-ups, keeps the paired
/// devices and resolves their NIRAs. Attempts are bounded by count and by age; a frame 1 beyond the
/// bound is refused with a status frame. I/O goes through the ``PairingLink``.
public actor PairingEngine {
    /// Bounds of the attempts table and the NIK lifetime we announce.
    public struct Limits: Sendable {
        /// Attempts in progress at once (both roles).
        public var maximumAttempts: Int
        /// How long one attempt may take, NIK exchange included.
        public var attemptLifetime: Duration
        /// The lifetime announced with our NIK, in seconds.
        public var nikLifetime: UInt32
        /// How many times, at most, an initiator sends its NIK follow-up while the peer's NIK has not come.
        /// A responder that installs the NM-TK only once it has processed frame 3 (wpa_supplicant 2.12) drops
        /// a protected follow-up that arrives before, and then never answers: the follow-up goes again.
        public var nikSends: Int
        /// How long an initiator waits for the peer's NIK before sending its own again.
        public var nikResendInterval: Duration
        /// How long an initiator waits after frame 3 for the responder's NIK before it sends its own first. A
        /// responder of ours sends its NIK as soon as frame 3 verifies, and the initiator answers it at once, so
        /// this wait runs out only with a responder that waits for ours: wpa_supplicant 2.12. That one ends its
        /// exchange when our NIK comes, and if the status of its own frame 2 reaches it only after that (on
        /// mac80211_hwsim it came up to 6.5 s after the frame, after frame 3), it takes the exchange for refused
        /// and removes our NMI station with the NM-TK: its answering NIK is lost with the station's queue and
        /// it forgets the pairing. 5 s by default (the waiting is frame 3's acknowledgement plus this).
        public var nikDelay: Duration
        /// How long an initiator waits after frame 3 of a verification before it reports the device
        /// verified (and ``PairingEngine/verify(_:at:publishID:)`` returns), for a caller that sends protected
        /// frames at once (a message, a data-path request): a responder that installs the NM-TK only once it
        /// has handled frame 3 drops what comes before. wpa_supplicant 2.12 did with the message of
        /// `waware subscribe --paired --send`, sent 0.5 s after frame 3; its key went in 0.9 to 4.0 s after it
        /// reported the exchange done, in the VM's runs, and it tells nothing when it is in. 5 s by default; a
        /// caller that sends nothing protected next (`waware pair --find`) sets zero and has its answer when
        /// frame 3 is acknowledged.
        public var verificationDelay: Duration
        /// How long a responder attempt waits for frame 3 after answering frame 1 (never longer than
        /// ``attemptLifetime``). A frame 1 costs nothing to forge, from any address: without this bound each
        /// one held a place in the table for the whole lifetime (the caller's timeout, a minute or two), and
        /// eight of them kept every real device out. An initiator sends frame 3 as soon as frame 2 is in (the
        /// peer stack within a second on the bench); 10 s by default.
        public var frame3Wait: Duration
        /// How long an attempt goes on after a frame 2 or 3 that failed its check (a MIC, an SAE confirm, a
        /// refusal status) before it fails with that check's error. Such a frame costs nothing to forge with the
        /// peer's address, so it changes nothing by itself: the peer's own frame, which follows its partner at
        /// once, still completes the exchange. A real refusal (a wrong PIN) is reported this much later. 3 s by
        /// default.
        public var failureGrace: Duration
        /// Further frame 1s answered from an address whose attempt waits for frame 3: one of them may be the
        /// peer's own (a forged frame 1 came first, or the peer restarted), and frame 3 says which. 2 by default.
        public var alternateFrame1s: Int
        /// How soon a source whose frame 1 was refused, or answered, may have another one run through the
        /// key exchange (SAE costs a hash-to-element and a scalar multiplication): earlier ones are dropped
        /// and counted. 1 s by default.
        public var frame1Interval: Duration
        /// Attempts in progress from which a frame 1 without a valid comeback cookie is answered with one
        /// (``PASNComebackCookies``, status 30) instead of a key exchange. 1 by default: under a flood each SAE run
        /// holds the engine for a while in a slow build, and frames queued meanwhile may be dropped.
        public var comebackThreshold: Int
        /// How long an initiator waits for frame 2 before it sends its frame 1 again (at most 4 times). A
        /// responder flooded with frame 1s may lose ours in its event queue, or its frame 2 in the air; it
        /// answers the same frame 1 with the same frame 2. 3 s by default.
        public var frame1Resend: Duration
        /// Creates limits.
        public init(
            maximumAttempts: Int = 8, attemptLifetime: Duration = .seconds(10), nikLifetime: UInt32 = 30 * 86_400,
            nikSends: Int = 4, nikResendInterval: Duration = .seconds(3), nikDelay: Duration = .seconds(5),
            verificationDelay: Duration = .seconds(5), frame3Wait: Duration = .seconds(10),
            failureGrace: Duration = .seconds(3), alternateFrame1s: Int = 2, frame1Interval: Duration = .seconds(1),
            comebackThreshold: Int = 1, frame1Resend: Duration = .seconds(3)
        ) {
            self.maximumAttempts = max(1, maximumAttempts); self.attemptLifetime = attemptLifetime;
            self.nikLifetime = nikLifetime
            self.nikSends = max(1, nikSends); self.nikResendInterval = nikResendInterval; self.nikDelay = nikDelay
            self.verificationDelay = verificationDelay; self.frame3Wait = frame3Wait
            self.failureGrace = failureGrace; self.alternateFrame1s = max(0, alternateFrame1s);
            self.frame1Interval = frame1Interval
            self.comebackThreshold = max(1, comebackThreshold); self.frame1Resend = frame1Resend
        }
    }

    private enum Role: Sendable {
        case initiator(PASNPairingInitiator)
        case responder(PASNPairingResponder)
    }

    private struct Attempt {
        var role: Role
        let token: UInt64
        let started: ContinuousClock.Instant
        let publishID: InstanceID
        var result: PairingResult?
        var sentNIK = false
        var verifying: MACAddress?
        var waiter: CheckedContinuation<Result<PairedDeviceKeys, PairingError>, Never>?
        /// The frame 1 a responder attempt answers, to recognise its retransmission.
        var frame1: PASNAuthenticationFrame?
        /// The TK a responder installed for receiving before sending frame 2, withdrawn if the attempt fails.
        var preparedKey: [UInt8]?
        /// When a responder attempt stops waiting for frame 3 (each frame 1 answered moves it on).
        var frame3Deadline: ContinuousClock.Instant?
        /// Other frame 1s from the same address, answered while this attempt waits for frame 3.
        var alternates: [Alternate] = []
        /// Our own exchange, kept when a frame 1 from the peer crossed it: a forged frame 1 with the peer's
        /// address must not end it, so a frame 2 that verifies still takes it back.
        var crossed: PASNPairingInitiator?
        /// What the last frame that failed its check said, and the frame that tells the peer we give up;
        /// reported when nothing better comes within ``Limits/failureGrace`` (or the attempt's lifetime).
        var lastFailure: PairingError?
        var failureFrame: PASNAuthenticationFrame?
        /// Initiator: how often the responder asked us to come back with a cookie.
        var comebacks = 0
        /// Initiator: our frame 1 as last sent, and how often it went (``Limits/frame1Resend``).
        var frame1Bytes: [UInt8]?
        var frame1Sends = 0
        /// Initiator: a frame 2 came for our current frame 1 (whatever it said): no need to send frame 1 again.
        var frame2Seen = false
        /// Responder: the frame 2 we answered ``frame1`` with, sent again when that frame 1 comes again.
        var reply: PASNAuthenticationFrame?
    }

    /// A frame 1 answered besides the one a responder attempt runs.
    private struct Alternate {
        var responder: PASNPairingResponder
        let frame1: PASNAuthenticationFrame
        let verifying: MACAddress?
    }

    /// A frame 1 run through a fresh responder.
    private struct Answer {
        var responder: PASNPairingResponder
        let reply: PASNAuthenticationFrame
        let verifying: MACAddress?
        let publishID: InstanceID
    }

    /// A frame 1 refused: why, and the frame 2 that says so.
    private struct Refusal: Error {
        let error: PairingError
        let frame: PASNAuthenticationFrame
    }

    /// Our NMI.
    public nonisolated let localAddress: MACAddress
    /// The cluster (the BSSID of our Authentication frames).
    public nonisolated let cluster: MACAddress
    /// What the engine reports, in order.
    public nonisolated let events: AsyncStream<PairingEvent>
    let eventSink: AsyncStream<PairingEvent>.Continuation
    private let identity: NANIdentityKey
    let link: any PairingLink
    let limits: Limits
    private var policy: PASNPairingResponder.Policy
    private var attempts: [MACAddress: Attempt] = [:]
    /// When each recent source last had a frame 1 refused (bounded, oldest out).
    private var recentFrame1s: [MACAddress: ContinuousClock.Instant] = [:]
    private static let recentFrame1Capacity = 64
    private var devices: [MACAddress: PairedDeviceKeys] = [:]
    private var resolver: IdentityResolver<MACAddress>
    private var nextToken: UInt64 = 1
    /// Bootstrapping as responder (every peer), and our requests in progress (the dialog token each waits on).
    var bootstrapResponder = BootstrappingResponder(supported: [])
    var bootstrapRequests: [MACAddress: UInt8] = [:]
    var bootstrapWaits:
        [MACAddress: (token: UInt64, continuation: CheckedContinuation<PairingBootstrappingAttribute?, Never>)] = [:]
    /// A response that arrived before its wait began (while the request was still being sent), one per peer.
    var bootstrapEarly: [MACAddress: PairingBootstrappingAttribute] = [:]
    /// When each peer's bootstrapping request was last answered (at most 64 peers).
    var bootstrapAnswers: [MACAddress: ContinuousClock.Instant] = [:]
    /// Limits of our bootstrapping requests.
    public nonisolated let bootstrappingLimits: BootstrappingInitiator.Limits
    /// Where each successful setup or verification leaves its ND-PMK for NCS-PK-PASN data paths with the
    /// peer (a failed attempt keeps the last one: it may be an attacker's); nil keeps none.
    public nonisolated let dataPathKeys: PairedDataPathKeys?
    /// Where the engine says what it did with each frame (label `pairing`, debug level): which frame came,
    /// which was ignored and why. Never a key.
    nonisolated let logger: Logger

    /// An engine for the device at `localAddress` with NIK `identity`. `policy` says what we accept as
    /// responder (its identity is replaced by ours); `devices` are the pairings already stored; `dataPathKeys`
    /// receives the ND-PMK of every pairing and verification; `logger` is the caller's (disabled by default).
    public init(
        localAddress: MACAddress, cluster: MACAddress, identity: NANIdentityKey, link: any PairingLink,
        policy: PASNPairingResponder.Policy = .init(), devices: [PairedDeviceKeys] = [], limits: Limits = .init(),
        bootstrappingLimits: BootstrappingInitiator.Limits = .init(), resolverCapacity: Int = 256,
        dataPathKeys: PairedDataPathKeys? = nil, logger: Logger = .disabled
    ) {
        self.localAddress = localAddress; self.cluster = cluster; self.identity = identity; self.link = link;
        self.limits = limits
        self.logger = logger.labelled("pairing")
        self.dataPathKeys = dataPathKeys
        self.bootstrappingLimits = bootstrappingLimits
        var policy = policy
        policy.identity = identity
        self.policy = policy
        var resolver = IdentityResolver<MACAddress>(capacity: resolverCapacity)
        for device in devices {
            self.devices[device.id] = device
            if let nik = device.nik { try? resolver.add(nik, for: device.id) }
        }
        self.resolver = resolver
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// The paired devices.
    public var pairedDevices: [PairedDeviceKeys] { Array(devices.values) }
    /// Attempts in progress.
    public var attemptCount: Int { attempts.count }
    /// Frames dropped because they failed a check (a MIC, an SAE confirm, a status, a key unwrap) or came
    /// too soon from their source: none of them changed an attempt.
    public private(set) var refusedFrames = 0
    /// Frame 1s answered with a comeback cookie instead of a key exchange (diagnostics).
    public private(set) var comebacksSent = 0
    private var cookies = PASNComebackCookies()

    /// Changes what we accept as responder (the PIN the user was shown, say).
    /// `suites`: the cipher suites a setup may use (nil keeps them).
    public func setPolicy(password: [UInt8]?, allowsOpportunistic: Bool, suites: [NDPCipherSuite]? = nil) {
        policy.password = password
        policy.allowsOpportunistic = allowsOpportunistic
        if let suites { policy.suites = suites.filter(\.isPairing) }
    }

    /// A fresh NIRA for our NMI, to carry in publish and subscribe messages.
    public func identityResolution() throws(PairingError) -> IdentityResolutionAttribute {
        try identity.identityResolution(nmi: localAddress)
    }

    /// The paired device that sent `nira` from `transmitter`, its last address updated; nil for none.
    public func resolve(_ nira: IdentityResolutionAttribute, from transmitter: MACAddress) -> PairedDeviceKeys? {
        guard let id = resolver.resolve(nira, from: transmitter), var device = devices[id] else { return nil }
        device.lastAddress = transmitter
        devices[id] = device
        return device
    }

    /// Pairs with (setup, on `suite`: NCS-PK-PASN-128 or -256) or verifies (``PairingMethod/verification(_:)``,
    /// on the cached pairing's suite) the device at `peer`, whose publish instance is `publishID`. Returns
    /// the paired device once the NIKs are exchanged (setup) or the cached NPK is proved (verification).
    public func pair(
        with peer: MACAddress, publishID: InstanceID, method: PairingMethod, suite: NDPCipherSuite = .pk128,
        verifying device: MACAddress? = nil
    ) async throws(PairingError) -> PairedDeviceKeys {
        let capability = await link.deviceCapability()
        let availability = await link.availability()
        expire()
        guard attempts[peer] == nil else { throw PairingError(.unexpectedMessage, "already pairing with \(peer)") }
        guard attempts.count < limits.maximumAttempts else {
            throw PairingError(.tableFull, "\(attempts.count) pairing attempts in progress")
        }
        let peerNIK = device.flatMap { devices[$0]?.nik }
        var initiator = try PASNPairingInitiator(
            own: localAddress, peer: peer, publishID: publishID, method: method, suite: suite,
            identity: identity, peerIdentity: peerNIK, deviceCapability: capability, availability: availability)
        let frame = try PASNManagementFrame(
            body: initiator.start(), destination: peer, source: localAddress, bssid: cluster
        ).encoded()
        let token = newToken()
        var attempt = Attempt(role: .initiator(initiator), token: token, started: .now, publishID: publishID)
        attempt.verifying = device
        attempt.frame1Bytes = frame
        attempt.frame1Sends = 1
        attempts[peer] = attempt
        scheduleTimeout(peer, token)
        scheduleFrame1Resend(peer, token)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<PairedDeviceKeys, PairingError>, Never>) in
                attempts[peer]?.waiter = continuation
                Task { await self.transmit(frame, to: peer, token: token) }
            }
        } onCancel: {
            // A cancelled caller (its session ended) ends the attempt at once rather than at its lifetime.
            Task { await self.cancelAttempt(peer, token) }
        }
        return try result.get()
    }

    /// Verifies the stored pairing `device` (its NPK, its NIK) at its current address `peer`.
    public func verify(
        _ device: MACAddress, at peer: MACAddress, publishID: InstanceID
    ) async throws(PairingError) -> PairedDeviceKeys {
        guard let record = devices[device] else { throw PairingError(.unknownPeer, "no pairing with \(device)") }
        return try await pair(
            with: peer, publishID: publishID, method: .verification(record.pairing), verifying: device)
    }

    /// Takes the stored pairings as they are now (the store changed while the engine ran: a device paired
    /// by another process, or unpaired). A record whose id the engine already holds keeps the address it
    /// was last seen at; devices missing from `stored` are forgotten. Attempts in progress go on.
    public func replaceDevices(_ stored: [PairedDeviceKeys]) {
        var next: [MACAddress: PairedDeviceKeys] = [:]
        var resolver = IdentityResolver<MACAddress>(capacity: self.resolver.capacity)
        for var record in stored {
            if let known = devices[record.id] { record.lastAddress = known.lastAddress }
            if let nik = record.nik, (try? resolver.add(nik, for: record.id)) == nil { continue }
            next[record.id] = record
        }
        devices = next
        self.resolver = resolver
    }

    /// Forgets a paired device (unpairing).
    public func remove(_ device: MACAddress) {
        devices[device] = nil
        resolver.remove(device)
    }

    /// Takes a received Authentication frame (header included); frames for other addresses, or not
    /// PASN, are ignored.
    public func handle(authentication bytes: [UInt8]) async {
        expire()
        let frame: PASNManagementFrame
        do { frame = try PASNManagementFrame(bytes: bytes) } catch {
            logger.debug("an Authentication frame of \(bytes.count) bytes ignored: \(error)")
            return
        }
        guard frame.header.destination == localAddress else { return }
        let peer = frame.header.source
        logger.debug("PASN frame \(frame.body.sequence) status \(frame.body.status) from \(peer)")
        switch frame.body.sequence {
        case 1: await respond(to: frame.body, from: peer)
        case 2: await initiatorReceives(frame.body, from: peer)
        default: await responderReceives(frame.body, from: peer)
        }
    }

    /// Takes a Shared Key Descriptor attribute received in a follow-up from `peer`: the peer's NIK after
    /// a pairing setup.
    public func handle(keyDescriptor: SharedKeyDescriptorAttribute, from peer: MACAddress) async {
        guard var attempt = attempts[peer], let result = attempt.result, result.kind == .setup else {
            logger.debug("a Shared Key Descriptor from \(peer) ignored: no pairing setup with it awaits a NIK")
            return
        }
        logger.debug("the NIK follow-up of \(peer) came")
        do {
            let wrapped = try NIKKeyDescriptor.wrappedKeyData(of: keyDescriptor)
            let (nik, lifetime) = try NIKKeyData.unwrap(wrapped, kek: result.keys.kek)
            guard let pairing = CachedPairing(npk: result.keys.npk, akm: result.keys.akm, suite: result.keys.suite)
            else {
                throw PairingError(.crypto, "NPK of the wrong length")
            }
            if !attempt.sentNIK {
                attempt.sentNIK = true
                attempts[peer] = attempt
                if case .responder = attempt.role {
                    await resendNIK(
                        to: peer, kek: result.keys.kek, suite: result.keys.suite, publishID: attempt.publishID)
                } else {
                    try await sendNIK(
                        to: peer, kek: result.keys.kek, suite: result.keys.suite, publishID: attempt.publishID)
                }
            }
            try resolver.add(nik, for: peer)
            let device = PairedDeviceKeys(
                id: peer, lastAddress: peer, nik: nik, pairing: pairing, nikLifetime: lifetime)
            devices[peer] = device
            dataPathKeys?.store(result.keys.ndPMK, suite: result.keys.suite, for: peer)
            finish(peer, token: attempt.token, .success(device), event: .paired(device))
        } catch {
            // A NIK that does not unwrap under this exchange's KEK is not the peer's: dropped and counted; the
            // attempt waits on for the real one (its lifetime reports this failure if none comes).
            refusedFrames += 1
            let failure = error as? PairingError ?? PairingError(.malformed, "\(error)")
            logger.debug("the NIK follow-up of \(peer) failed its check: \(failure)")
            attempts[peer]?.lastFailure = failure
        }
    }

    // MARK: Roles

    private func respond(to frame: PASNAuthenticationFrame, from peer: MACAddress) async {
        if let existing = attempts[peer] {
            // A retransmission: the peer did not see our acknowledgement in time, or sends frame 1 again because
            // no frame 2 came. Our frame 2 again (the same one: the exchange stays as it is).
            if existing.frame1 == frame, existing.result == nil, let reply = existing.reply {
                // The peer is there and waits for our frame 2: its frame 3 has its full wait again.
                attempts[peer]?.frame3Deadline = .now + min(limits.frame3Wait, limits.attemptLifetime)
                scheduleFrame3Timeout(peer, existing.token)
                sendWithoutWaiting(reply, to: peer)
                return
            }
            if existing.frame1 == frame || existing.alternates.contains(where: { $0.frame1 == frame }) { return }
            await respondDuring(existing, to: frame, from: peer)
            return
        }
        guard admitsFrame1(from: peer) else { return }
        if attempts.count >= limits.comebackThreshold, !hasBootstrapped(peer),
            !cookies.isValid((try? frame.parameters())??.comeback.map { Array($0.cookie) }, for: peer)
        {
            // Busy: the key exchange runs only for a source that bootstrapped with us or shows, with a cookie,
            // that it receives at its address. Answers are rationed too: each one to an address nobody
            // listens at is sent again and again in the discovery windows, where the real peers' frames go.
            guard admitsComeback(), let comeback = cookies.frame(for: peer, after: Self.comebackAfter) else {
                refusedFrames += 1
                return
            }
            comebacksSent += 1
            sendWithoutWaiting(comeback, to: peer)
            return
        }
        guard attempts.count < limits.maximumAttempts else {
            sendWithoutWaiting(PASNPairing.failureFrame(sequence: 2), to: peer)
            return
        }
        do throws(Refusal) {
            let computing = ContinuousClock.now
            let answer = try self.answer(frame, from: peer)
            logger.debug("PASN frame 1 of \(peer): key exchange computed in \(ContinuousClock.now - computing)")
            let token = newToken()
            var attempt = Attempt(
                role: .responder(answer.responder), token: token, started: .now, publishID: answer.publishID)
            attempt.frame1 = frame
            attempt.verifying = answer.verifying
            attempt.preparedKey = answer.responder.temporalKey
            attempts[peer] = attempt
            scheduleTimeout(peer, token)
            if answer.verifying != nil { await noteSchedule(in: frame, of: peer) }
            inBackground { await self.answerFrame1(answer, to: peer, token: token) }
        } catch {
            refusedFrame1(from: peer)
            // The refusal goes out before the event: a caller that ends on the event (waware pair) must not
            // stop the radio first, or the initiator waits out its timeout instead of learning why. Both wait
            // in the background (a flood's refusals would hold up the frames behind them), and when too many
            // answers are on their way the event comes without the frame.
            let (frame, failure) = (error.frame, error.error)
            guard background.count < Self.maximumSendsInFlight else {
                eventSink.yield(.failed(peer, failure))
                return
            }
            inBackground {
                await self.transmitBody(frame, to: peer)
                await self.report(.failed(peer, failure))
            }
        }
    }

    /// A frame 1 from `peer` while an attempt with it runs. Neither a forged frame 1 with the peer's address
    /// nor the peer's restart ends that attempt:
    /// - our own exchange, when the peer's frame 1 crossed it (both started at once), is kept beside the
    ///   answer. The exchange started by the larger NMI goes on; the smaller side answers the peer's, and its
    ///   caller waits for that exchange's outcome (the same device verified, the same keys). A frame 2 that
    ///   verifies for our own frame 1 still takes our exchange back.
    /// - a responder attempt answers a few further frame 1s besides its own, and frame 3 says which one the
    ///   peer's was; the rest are dropped and counted.
    private func respondDuring(_ existing: Attempt, to frame: PASNAuthenticationFrame, from peer: MACAddress) async {
        switch existing.role {
        case .initiator(let initiator):
            guard peer > localAddress, existing.result == nil, admitsFrame1(from: peer) else { return }
            do throws(Refusal) {
                let answer = try self.answer(frame, from: peer)
                var attempt = existing
                attempt.role = .responder(answer.responder)
                attempt.crossed = initiator
                attempt.frame1 = frame
                attempt.verifying = answer.verifying ?? existing.verifying
                attempt.preparedKey = answer.responder.temporalKey
                attempts[peer] = attempt
                logger.debug("PASN frame 1 of \(peer) crossed ours: answered, ours kept until frame 3")
                if answer.verifying != nil { await noteSchedule(in: frame, of: peer) }
                let token = attempt.token
                inBackground { await self.answerFrame1(answer, to: peer, token: token) }
            } catch {
                // Our own exchange goes on: the frame may not be the peer's.
                refusedFrames += 1
                refusedFrame1(from: peer)
                logger.debug("PASN frame 1 of \(peer) crossing ours refused (\(error.error)): ours goes on")
                await transmitBody(error.frame, to: peer)
            }
        case .responder:
            guard existing.result == nil, existing.alternates.count < limits.alternateFrame1s, admitsFrame1(from: peer)
            else {
                refusedFrames += 1
                logger.debug("PASN frame 1 from \(peer) dropped: an attempt with it runs")
                return
            }
            do throws(Refusal) {
                let answer = try self.answer(frame, from: peer)
                attempts[peer]?.alternates.append(
                    Alternate(responder: answer.responder, frame1: frame, verifying: answer.verifying))
                attempts[peer]?.frame3Deadline = .now + min(limits.frame3Wait, limits.attemptLifetime)
                scheduleFrame3Timeout(peer, existing.token)
                logger.debug("another PASN frame 1 from \(peer) answered: its frame 3 says which was the peer's")
                sendWithoutWaiting(answer.reply, to: peer)
            } catch {
                // No refusal frame: it would end the peer's own exchange, which may be the one in progress.
                refusedFrames += 1
                refusedFrame1(from: peer)
                logger.debug("another PASN frame 1 from \(peer) refused (\(error.error)): the attempt goes on")
            }
        }
    }

    /// Whether a frame 1 from `source` may run through the key exchange now: not within
    /// ``Limits/frame1Interval`` of one from it that was refused. Counts the ones that may not.
    private func admitsFrame1(from source: MACAddress) -> Bool {
        guard let last = recentFrame1s[source] else { return true }
        guard ContinuousClock.now - last < limits.frame1Interval else {
            recentFrame1s[source] = nil
            return true
        }
        refusedFrames += 1
        logger.debug(
            "PASN frame 1 from \(source) dropped: its last one was refused less than \(limits.frame1Interval) ago")
        return false
    }

    /// Notes a refused frame 1 from `source`, for ``admitsFrame1(from:)`` (a bounded table, oldest out).
    private func refusedFrame1(from source: MACAddress) {
        recentFrame1s.note(source, capacity: Self.recentFrame1Capacity)
    }

    /// Runs frame 1 from `peer` through a fresh responder under our policy.
    private func answer(_ frame: PASNAuthenticationFrame, from peer: MACAddress) throws(Refusal) -> Answer {
        let publishID =
            (try? PASNPairingElements.attribute(
                CipherSuiteInfoAttribute.self, in: PASNPairingElements.nanAttributes(in: frame)))??
            .entries.first?.publishID ?? InstanceID(0)
        var responder = PASNPairingResponder(own: localAddress, peer: peer, publishID: publishID, policy: policy)
        verifyingCandidate = nil
        defer { verifyingCandidate = nil }
        let lookup: (IdentityResolutionAttribute, MACAddress) -> CachedPairing? = { nira, transmitter in
            self.resolveForVerification(nira, transmitter)
        }
        do {
            let reply = try responder.receive(frame1: frame, cachedPairing: lookup)
            return Answer(responder: responder, reply: reply, verifying: verifyingCandidate, publishID: publishID)
        } catch {
            throw Refusal(error: error, frame: responder.failureFrame)
        }
    }

    /// The paired device a verification's NIRA named, while ``answer(_:from:)`` runs.
    private var verifyingCandidate: MACAddress?

    private func resolveForVerification(
        _ nira: IdentityResolutionAttribute, _ transmitter: MACAddress
    ) -> CachedPairing? {
        guard let id = resolver.resolve(nira, from: transmitter), let device = devices[id] else { return nil }
        verifyingCandidate = id
        return device.pairing
    }

    /// Hands the schedule `peer` announced in its frame 1 (NAN Availability, Device Capability) to the link,
    /// before our frame 2: a peer never heard in an SDF then gets it outside the DWs. Nothing without one.
    /// Only for a verification, whose NIRA resolved to a paired device at this address (a peer pairing anew
    /// announced its schedule in its bootstrapping follow-ups): a flood of copied frame 1s from random
    /// addresses (attack-air) must not have us send at once, in every slot, to addresses nobody listens at.
    private func noteSchedule(in frame: PASNAuthenticationFrame, of peer: MACAddress) async {
        let attributes = PASNPairingElements.nanAttributes(in: frame)
        guard
            let availability = (try? PASNPairingElements.attribute(NANAvailabilityAttribute.self, in: attributes))
                ?? nil
        else { return }
        let capability = (try? PASNPairingElements.attribute(DeviceCapabilityAttribute.self, in: attributes)) ?? nil
        await link.peerAnnounced(peer, availability: availability, committedDW: capability?.committedDWInfo)
    }

    /// Sends the frame 2 of the responder attempt `token`, its key in first, and starts its wait for frame 3.
    ///
    /// The wait starts when frame 2 leaves, not when frame 1 came: the kernel may take long to install the
    /// key (16–21 s in attack-air's runs on a loaded host, NEW_KEY for a peer with a schedule while a flood
    /// of frame 1s came in), and a wait counted from frame 1 then ended the exchange before its frame 2 went
    /// out. Until then a repeated frame 1 is dropped (there is no frame 2 to send again yet); the attempt's
    /// lifetime still bounds it all.
    private func answerFrame1(_ answer: Answer, to peer: MACAddress, token: UInt64) async {
        if let key = answer.responder.temporalKey, let suite = answer.responder.suite {
            // The initiator may send its NIK, protected, right after frame 3: the key must be in first.
            let installing = ContinuousClock.now
            await link.prepareProtection(peer, temporalKey: key, suite: suite)
            logger.debug("PASN frame 2 to \(peer): its TK in after \(ContinuousClock.now - installing)")
            guard attempts[peer]?.token == token else {
                await link.withdrawProtection(peer, temporalKey: key)
                return
            }
        }
        attempts[peer]?.frame3Deadline = .now + min(limits.frame3Wait, limits.attemptLifetime)
        attempts[peer]?.reply = answer.reply
        scheduleFrame3Timeout(peer, token)
        await transmitBody(answer.reply, to: peer)
    }

    private func initiatorReceives(_ frame: PASNAuthenticationFrame, from peer: MACAddress) async {
        guard var attempt = attempts[peer], attempt.result == nil else {
            // None, or a retransmitted frame 2 (frame 3 went out already).
            if attempts[peer] == nil { logger.debug("PASN frame 2 from \(peer) ignored: we sent it no frame 1") }
            return
        }
        if frame.status == PASNComebackCookies.status {
            await comeBack(attempt, to: frame, from: peer)
            return
        }
        attempts[peer]?.frame2Seen = true
        attempt.frame2Seen = true
        let initiator: PASNPairingInitiator
        switch attempt.role {
        case .initiator(let own): initiator = own
        case .responder:
            guard let crossed = attempt.crossed else {
                logger.debug("PASN frame 2 from \(peer) ignored: we answered its frame 1")
                return
            }
            initiator = crossed
        }
        var next = initiator
        do {
            let (frame3, result) = try next.receive(frame)
            if case .responder = attempt.role {
                // The crossing frame 1 was not the peer's: the peer answered ours.
                logger.debug("PASN frame 2 of \(peer) verifies for our frame 1: our exchange goes on")
                if let prepared = attempt.preparedKey { await link.withdrawProtection(peer, temporalKey: prepared) }
                guard attempts[peer]?.token == attempt.token, attempts[peer]?.result == nil else { return }
                attempt = attempts[peer] ?? attempt
                attempt.crossed = nil; attempt.alternates = []; attempt.frame1 = nil; attempt.preparedKey = nil
                attempt.frame3Deadline = nil
            }
            attempt.role = .initiator(next)
            attempt.result = result
            attempts[peer] = attempt
            // The NM-TK goes in before frame 3 (wpa_supplicant installs it once frame 3 is out): a responder of
            // ours sends its NIK, protected, as soon as frame 3 verifies, and ours answers it protected, maybe
            // before frame 3's status reaches us.
            logger.debug("PASN frame 2 of \(peer) verifies")
            if result.kind == .verification {
                // No NIK follows a verification: frame 3 goes out while the key goes in, and the
                // verification completes once both are done.
                async let keyed: Void = link.protect(peer, temporalKey: result.keys.tk, suite: result.keys.suite)
                await transmitBody(frame3, to: peer)
                await keyed
            } else {
                await link.protect(peer, temporalKey: result.keys.tk, suite: result.keys.suite)
                guard attempts[peer]?.token == attempt.token else { return }
                await transmitBody(frame3, to: peer)
            }
            if result.kind == .verification, limits.verificationDelay == .zero {
                completeVerification(peer, token: attempt.token)
            } else if result.kind == .verification {
                // Our caller sends protected frames at once (a message, a data-path request): give the
                // responder time to install its NM-TK first.
                let token = attempt.token
                Task {
                    try? await Task.sleep(for: self.limits.verificationDelay)
                    await self.completeVerification(peer, token: token)
                }
            } else {
                let token = attempt.token
                Task { await self.sendNIKs(to: peer, token: token) }
            }
        } catch {
            // Anyone can send a frame 2 with the peer's address: it changes nothing, and the attempt fails
            // with it (our failure frame 3 telling the peer) only if no frame 2 that verifies comes in time.
            refusedFrames += 1
            logger.debug("PASN frame 2 from \(peer) failed its check: \(error)")
            guard case .initiator = attempt.role else { return }
            failLater(peer, token: attempt.token, error, telling: next.failureFrame)
        }
    }

    /// At most this many comeback frames a second; a busy responder drops the frame 1s beyond, unanswered.
    /// A NAN radio sends management frames only in the discovery windows (16 TU in 512), and one nobody
    /// acknowledges goes again and again: at 10 a second, answers to a flood's addresses held the real peer's
    /// frame 2 back for over 10 s on the bench.
    static let comebacksPerSecond = 1
    /// Peers whose bootstrapping request we accepted, and when (``hasBootstrapped(_:)``), at most 64.
    var recentBootstraps: [MACAddress: ContinuousClock.Instant] = [:]
    /// How long an accepted bootstrapping lets a busy responder run the peer's frame 1 without a cookie.
    static let bootstrapValidity: Duration = .seconds(120)
    private var comebackWindow: (start: ContinuousClock.Instant, count: Int) = (.now, 0)

    /// Notes that `peer` bootstrapped with us (a bounded table, oldest out).
    func noteBootstrapped(_ peer: MACAddress) {
        recentBootstraps.note(peer, capacity: Self.recentFrame1Capacity)
    }

    /// Whether `peer` bootstrapped with us within ``bootstrapValidity``: it showed it receives at its address.
    private func hasBootstrapped(_ peer: MACAddress) -> Bool {
        recentBootstraps[peer].map { ContinuousClock.now - $0 < Self.bootstrapValidity } ?? false
    }

    /// Whether another comeback frame may go this second (``comebacksPerSecond``).
    private func admitsComeback() -> Bool {
        let now = ContinuousClock.now
        if now - comebackWindow.start >= .seconds(1) { comebackWindow = (now, 0) }
        guard comebackWindow.count < Self.comebacksPerSecond else { return false }
        comebackWindow.count += 1
        return true
    }

    /// How long a busy responder asks an initiator to wait before its frame 1 comes back (TUs).
    static let comebackAfter: UInt16 = 10
    /// Comebacks an initiator honours per attempt; later ones are dropped.
    static let maximumComebacks = 3

    /// The responder is busy and asks for frame 1 again with its cookie (``PASNComebackCookies``): sent after
    /// the time it asks (at most a second). A forged request costs our exchange nothing more than a frame 1
    /// that the responder answers besides the first (``Limits/alternateFrame1s``).
    private func comeBack(_ attempt: Attempt, to frame: PASNAuthenticationFrame, from peer: MACAddress) async {
        guard case .initiator(var initiator) = attempt.role, attempt.comebacks < Self.maximumComebacks,
            let comeback = (try? frame.parameters())??.comeback, !comeback.cookie.isEmpty,
            let frame1 = try? initiator.comeback(cookie: Array(comeback.cookie))
        else {
            refusedFrames += 1
            logger.debug("PASN comeback from \(peer) dropped")
            return
        }
        var updated = attempt
        updated.role = .initiator(initiator)
        updated.comebacks += 1
        updated.frame1Bytes = try? PASNManagementFrame(
            body: frame1, destination: peer, source: localAddress, bssid: cluster
        ).encoded()
        attempts[peer] = updated
        let wait = min(Duration.microseconds(Int64(comeback.after ?? 0) * 1024), .seconds(1))
        logger.debug("PASN responder \(peer) is busy: frame 1 again with its cookie in \(wait)")
        try? await Task.sleep(for: wait)
        guard attempts[peer]?.token == attempt.token, attempts[peer]?.result == nil else { return }
        await transmitBody(frame1, to: peer)
    }

    private func responderReceives(_ frame: PASNAuthenticationFrame, from peer: MACAddress) async {
        guard var attempt = attempts[peer], case .responder(let responder) = attempt.role else {
            logger.debug("PASN frame 3 from \(peer) ignored: we answered no frame 1 of it")
            return
        }
        guard attempt.result == nil else { return }  // a retransmitted frame 3
        // Frame 3 authenticates one of the frame 1s answered: the first that verifies it was the peer's.
        let candidates =
            [Alternate(responder: responder, frame1: attempt.frame1 ?? frame, verifying: attempt.verifying)]
            + attempt.alternates
        var firstError: PairingError?
        for (index, candidate) in candidates.enumerated() {
            var next = candidate.responder
            do {
                let result = try next.receive(frame3: frame)
                if index > 0 {
                    logger.debug("PASN frame 3 of \(peer) answers another of its frame 1s: that one was the peer's")
                }
                attempt.role = .responder(next)
                attempt.result = result
                attempt.frame1 = candidate.frame1
                attempt.verifying = candidate.verifying
                attempt.alternates = []
                attempt.crossed = nil
                if index > 0 { attempt.preparedKey = next.temporalKey }
                attempts[peer] = attempt
                // The initiator's NIK (after a setup) comes protected by the NM-TK: install it now.
                await link.protect(peer, temporalKey: result.keys.tk, suite: result.keys.suite)
                if result.kind == .verification { completeVerification(peer, attempt: attempt) }
                if result.kind == .setup { sendEarlyNIK(to: peer, token: attempt.token) }
                return
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        refusedFrames += 1
        let error = firstError ?? PairingError(.malformed, "PASN frame 3")
        logger.debug("PASN frame 3 from \(peer) failed its check: \(error)")
        failLater(peer, token: attempt.token, error, telling: nil)
    }

    /// Fails the attempt `token` with `peer` after ``Limits/failureGrace`` with `error` (a frame failed its
    /// check), sending `frame` first, unless a frame that passes came meanwhile.
    private func failLater(
        _ peer: MACAddress, token: UInt64, _ error: PairingError, telling frame: PASNAuthenticationFrame?
    ) {
        guard attempts[peer]?.token == token else { return }
        let armed = attempts[peer]?.lastFailure != nil
        attempts[peer]?.lastFailure = error
        attempts[peer]?.failureFrame = frame
        guard !armed else { return }
        let grace = limits.failureGrace
        Task { [weak self] in
            try? await Task.sleep(for: grace)
            await self?.failAfterGrace(peer, token)
        }
    }

    private func failAfterGrace(_ peer: MACAddress, _ token: UInt64) async {
        guard let attempt = attempts[peer], attempt.token == token, attempt.result == nil,
            let error = attempt.lastFailure
        else { return }
        if let frame = attempt.failureFrame { await transmitBody(frame, to: peer) }
        finish(peer, token: token, .failure(error), event: .failed(peer, error))
    }

    /// Completes the initiator attempt `token` with `peer` if it still runs.
    private func completeVerification(_ peer: MACAddress, token: UInt64) {
        guard let attempt = attempts[peer], attempt.token == token else { return }
        completeVerification(peer, attempt: attempt)
    }

    private func completeVerification(_ peer: MACAddress, attempt: Attempt) {
        guard let id = attempt.verifying, var device = devices[id] else {
            let error = PairingError(.unknownPeer, "verified a device no longer stored")
            finish(peer, token: attempt.token, .failure(error), event: .failed(peer, error))
            return
        }
        device.lastAddress = peer
        devices[id] = device
        if let keys = attempt.result?.keys { dataPathKeys?.store(keys.ndPMK, suite: keys.suite, for: peer) }
        finish(peer, token: attempt.token, .success(device), event: .verified(device))
    }

    // MARK: Plumbing

    private func sendNIK(to peer: MACAddress, kek: [UInt8], suite: NDPCipherSuite, publishID: InstanceID) async throws {
        let wrapped = try NIKKeyData.wrap(identity, lifetime: limits.nikLifetime, kek: kek)
        let attribute = NIKKeyDescriptor.attribute(
            publishID: publishID, wrappedKeyData: wrapped, keyLength: UInt16(suite.tkLength))
        try await link.send(keyDescriptor: attribute, to: peer)
    }

    /// A responder's NIK as soon as frame 3 of a setup verifies, before the initiator's: an initiator of ours
    /// answers it at once instead of waiting ``Limits/nikDelay``. It goes again, as before, when the
    /// initiator's NIK comes (``handle(keyDescriptor:from:)``): wpa_supplicant 2.12 as initiator installs its
    /// key only on frame 3's status, and until then the kernel drops this one; once it holds the key it has
    /// sent its own NIK already, so this one ends nothing early there.
    private func sendEarlyNIK(to peer: MACAddress, token: UInt64) {
        Task {
            guard let attempt = attempts[peer], attempt.token == token, let result = attempt.result else { return }
            do {
                try await sendNIK(
                    to: peer, kek: result.keys.kek, suite: result.keys.suite, publishID: attempt.publishID)
            } catch {
                logger.debug("our early NIK to \(peer) not sent: \(error) (it goes when the peer's comes)")
            }
        }
    }

    /// A responder's NIK again, on the initiator's: ours went when frame 3 verified, and this copy is for an
    /// initiator that had no key yet then (wpa_supplicant 2.12 as initiator installs it only on frame 3's
    /// status: in the VM 1.4 s after, and the kernel dropped our first NIK). An initiator of ours has ours
    /// already and exits once its answer is acknowledged, so this copy is never acknowledged there: the
    /// pairing completes after the first attempt's DW (``nikResendWait``), not the follow-up's three attempts.
    /// The send goes on in the background meanwhile.
    private func resendNIK(to peer: MACAddress, kek: [UInt8], suite: NDPCipherSuite, publishID: InstanceID) async {
        let (done, finished) = AsyncStream<Void>.makeStream()
        Task {
            try? await sendNIK(to: peer, kek: kek, suite: suite, publishID: publishID)
            finished.finish()
        }
        Task {
            try? await Task.sleep(for: Self.nikResendWait)
            finished.finish()
        }
        for await _ in done {}
    }

    /// How long a responder waits for its NIK sent again to be acknowledged before it reports the pairing:
    /// the frame waits for the next DW (up to 512 TU), and its status follows at once.
    static let nikResendWait: Duration = .seconds(1)

    /// The initiator's NIK follow-ups of attempt `token` with `peer`, when the responder's NIK has not come
    /// first (it is answered at once then): the first ``Limits/nikDelay`` after frame 3, then again every
    /// ``Limits/nikResendInterval``, up to ``Limits/nikSends`` in all, while the attempt still waits for the
    /// peer's NIK (it ends when that comes). The first failing to go out (no route to the peer) fails the
    /// attempt.
    private func sendNIKs(to peer: MACAddress, token: UInt64) async {
        for sent in 0..<limits.nikSends {
            try? await Task.sleep(for: sent == 0 ? limits.nikDelay : limits.nikResendInterval)
            guard let attempt = attempts[peer], attempt.token == token, let result = attempt.result else { return }
            if sent == 0 {
                // The responder's NIK came first and ours went with the answer.
                guard !attempt.sentNIK else { return }
                attempts[peer]?.sentNIK = true
            }
            if sent > 0 {
                logger.debug("no NIK from \(peer) yet: sending ours again (a peer without the NM-TK yet drops it)")
            }
            do {
                try await sendNIK(
                    to: peer, kek: result.keys.kek, suite: result.keys.suite, publishID: attempt.publishID)
            } catch {
                logger.debug("our NIK to \(peer) not sent: \(error)")
                guard sent == 0 else { continue }
                let failure = error as? PairingError ?? PairingError(.malformed, "\(error)")
                finish(peer, token: token, .failure(failure), event: .failed(peer, failure))
                return
            }
        }
    }

    private func transmit(_ frame: [UInt8], to peer: MACAddress, token: UInt64) async {
        do { try await link.send(authentication: frame) } catch {
            let failure = PairingError(.timedOut, "PASN frame to \(peer) not sent: \(error)")
            finish(peer, token: token, .failure(failure), event: .failed(peer, failure))
        }
    }

    /// Sends a responder's answer to a frame 1 (a frame 2 again, a comeback, a refusal for a full table)
    /// without holding up the frames received after it (``inBackground(_:)``). At most
    /// ``maximumSendsInFlight`` run at once; beyond, an answer is dropped, as the air may drop it too.
    private func sendWithoutWaiting(_ body: PASNAuthenticationFrame, to peer: MACAddress) {
        guard background.count < Self.maximumSendsInFlight else {
            refusedFrames += 1
            logger.debug("PASN answer to \(peer) dropped: \(background.count) answers are on their way")
            return
        }
        inBackground { await self.transmitBody(body, to: peer) }
    }

    /// Runs `work` (an answer to a frame 1: the key install and frame 2, or a send) in a task of its own.
    /// ``serve(_:)`` hands frames over one at a time, and an answer waits: for the peer's acknowledgement, again
    /// and again when none comes, and for the kernel to install the TK before frame 2 (9–21 s for a peer with a
    /// schedule under attack-air's flood on a loaded host). Awaited in line, each answer to a flood's address
    /// held the frames behind it, the 1,024 queued filled, and the real peer's frame 3 was dropped or came
    /// too late for its NIK. A frame 2 that opens an attempt goes this way too: at most
    /// ``Limits/maximumAttempts`` of them.
    private func inBackground(_ work: @escaping @Sendable () async -> Void) {
        nextBackground &+= 1
        let id = nextBackground
        background[id] = Task {
            await work()
            background[id] = nil
        }
    }

    /// Waits until every answer ``inBackground(_:)`` started has been handed to the link and its delivery has
    /// ended (tests that look at the air right after a frame).
    func answersSent() async {
        while let send = background.values.first { await send.value }
    }

    private func report(_ event: PairingEvent) { eventSink.yield(event) }

    /// Answers ``sendWithoutWaiting(_:to:)`` sends at once, at most.
    static let maximumSendsInFlight = 16
    /// Answers on their way (``inBackground(_:)``), by a number of their own.
    private var background: [UInt64: Task<Void, Never>] = [:]
    private var nextBackground: UInt64 = 0

    private func transmitBody(_ body: PASNAuthenticationFrame, to peer: MACAddress) async {
        guard
            let bytes = try? PASNManagementFrame(body: body, destination: peer, source: localAddress, bssid: cluster)
                .encoded()
        else { return }
        try? await link.send(authentication: bytes)
    }

    private func finish(
        _ peer: MACAddress, token: UInt64, _ result: Result<PairedDeviceKeys, PairingError>, event: PairingEvent?
    ) {
        guard let attempt = attempts[peer], attempt.token == token else { return }
        attempts[peer] = nil
        switch result {
        case .success: logger.debug("the attempt with \(peer) succeeded")
        case .failure(let error): logger.debug("the attempt with \(peer) failed: \(error)")
        }
        // A failed attempt leaves the ND-PMK of the last one that succeeded: the failure may be an attacker's
        // (a replayed frame 1, a forged frame 3), and a peer whose key really changed fails the data path's
        // PMKID check anyway.
        attempt.waiter?.resume(returning: result)
        if let event { eventSink.yield(event) }
        let link = self.link
        let prepared: [UInt8]? = if case .failure = result { attempt.preparedKey } else { nil }
        Task {
            if let prepared { await link.withdrawProtection(peer, temporalKey: prepared) }
            await link.finished(with: peer)
        }
    }

    func newToken() -> UInt64 {
        defer { nextToken += 1 }
        return nextToken
    }

    /// Sends our frame 1 to `peer` again while no frame 2 has come, every ``Limits/frame1Resend``, 4 times at most.
    private func scheduleFrame1Resend(_ peer: MACAddress, _ token: UInt64) {
        let interval = limits.frame1Resend
        Task { [weak self] in
            try? await Task.sleep(for: interval)
            await self?.resendFrame1(peer, token)
        }
    }

    private func resendFrame1(_ peer: MACAddress, _ token: UInt64) async {
        guard let attempt = attempts[peer], attempt.token == token, attempt.result == nil,
            !attempt.frame2Seen, case .initiator(let initiator) = attempt.role, initiator.state == .awaitingFrame2,
            let bytes = attempt.frame1Bytes, attempt.frame1Sends < Self.maximumFrame1Sends
        else { return }
        attempts[peer]?.frame1Sends += 1
        logger.debug("no PASN frame 2 from \(peer) yet: frame 1 again")
        try? await link.send(authentication: bytes)
        scheduleFrame1Resend(peer, token)
    }

    /// Frame 1 goes at most this many times (``Limits/frame1Resend``).
    static let maximumFrame1Sends = 5

    private func scheduleTimeout(_ peer: MACAddress, _ token: UInt64) {
        let lifetime = limits.attemptLifetime
        Task { [weak self] in
            try? await Task.sleep(for: lifetime)
            await self?.timeOut(peer, token)
        }
    }

    /// Fails the responder attempt `token` with `peer` if its frame 3 has not come within ``Limits/frame3Wait``.
    private func scheduleFrame3Timeout(_ peer: MACAddress, _ token: UInt64) {
        let wait = min(limits.frame3Wait, limits.attemptLifetime)
        Task { [weak self] in
            try? await Task.sleep(for: wait)
            await self?.frame3TimedOut(peer, token)
        }
    }

    private func frame3TimedOut(_ peer: MACAddress, _ token: UInt64) {
        guard let attempt = attempts[peer], attempt.token == token, attempt.result == nil,
            case .responder = attempt.role,
            let deadline = attempt.frame3Deadline, ContinuousClock.now >= deadline
        else { return }
        let error =
            attempt.lastFailure
            ?? PairingError(
                .timedOut,
                "no PASN frame 3 from \(peer) within \(min(limits.frame3Wait, limits.attemptLifetime)) of our frame 2")
        finish(peer, token: token, .failure(error), event: .failed(peer, error))
    }

    private func cancelAttempt(_ peer: MACAddress, _ token: UInt64) {
        finish(peer, token: token, .failure(PairingError(.timedOut, "pairing with \(peer) cancelled")), event: nil)
    }

    private func timeOut(_ peer: MACAddress, _ token: UInt64) {
        let error =
            attempts[peer]?.lastFailure
            ?? PairingError(.timedOut, "pairing with \(peer) did not finish in \(limits.attemptLifetime)")
        finish(peer, token: token, .failure(error), event: .failed(peer, error))
    }

    /// Fails attempts older than their lifetime (the timers do it too; this bounds the table even when
    /// a timer is late).
    private func expire() {
        let now = ContinuousClock.now
        for (peer, attempt) in attempts where now - attempt.started > limits.attemptLifetime {
            timeOut(peer, attempt.token)
        }
        for (peer, attempt) in attempts {
            if let deadline = attempt.frame3Deadline, now >= deadline { frame3TimedOut(peer, attempt.token) }
        }
    }
}

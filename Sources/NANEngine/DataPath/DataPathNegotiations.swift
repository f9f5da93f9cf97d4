public import NANWire

/// Everything needed to bring one negotiated data path up on the kernel side.
public struct NDPLink: Hashable, Sendable {
    /// Which data path.
    public var id: NDPIdentifier
    /// Whether we initiated it.
    public var isInitiator: Bool
    /// Our NDI address.
    public var localNDI: MACAddress
    /// The peer's NDI address.
    public var peerNDI: MACAddress
    /// The peer's committed schedule.
    public var peerAvailability: PeerAvailability
    /// The peer's committed DW info (Device Capability), 0x0001 if it sent none.
    public var peerCommittedDW: UInt16
    /// The peer's HT/VHT capability elements, if it sent an Element Container.
    public var peerElements: [InformationElement]
    /// The peer's IPv6 interface identifier, if it sent one.
    public var peerInterfaceID: InterfaceIdentifier?
    /// The service info the peer sent in its NDPE.
    public var peerServiceInfo: [UInt8]
    /// The publish instance the data path is for.
    public var publishID: InstanceID
    /// The pairwise key of a secure data path, installed before the peer's NDI station is authorized; nil
    /// for an open one.
    public var pairwiseKey: DataPathPairwiseKey? = nil
    /// Names the PMK a secure data path was keyed by (``NDPKeyExchange/masterKeyTag``), never the PMK; nil
    /// for an open one. Two links with the same tag were authenticated by the same credential.
    public var masterKeyTag: [UInt8]? = nil
}

/// What the negotiation asks its owner to do.
public enum DataPathAction: Hashable, Sendable {
    /// Send a NAF to the peer's NMI.
    case send(DataPathMessage, to: MACAddress, ndp: NDPIdentifier)
    /// Send a secure data-path NAF to the peer's NMI: `body` is the message encoded and signed (its MIC
    /// covers these bytes), the action body to transmit as it is; the message is there to be read.
    case sendSealed(DataPathMessage, body: [UInt8], to: MACAddress, ndp: NDPIdentifier)
    /// A peer asks for a data path to one of our accepting publishes (reported before we answer).
    case requested(NDPIdentifier, publishID: InstanceID, serviceInfo: [UInt8])
    /// We refused a peer's request to one of our accepting publishes (a security or resource failure), so
    /// the publisher's side can report it; nothing was set up.
    case refused(NDPIdentifier, publishID: InstanceID, DataPathEndReason)
    /// We took a peer's counter-proposal: install `schedule` as our local schedule (`NAN_SET_LOCAL_SCHED`)
    /// before any later action for `ndp`; if the kernel refuses it, put `previous` back in the table and end
    /// that data path.
    case changeSchedule(to: DataPathSchedule, from: DataPathSchedule, ndp: NDPIdentifier)
    /// Negotiation done: install the peer schedule and stations (and the key), bring the link up.
    case establish(NDPLink)
    /// The data path is over; undo whatever was set up for it.
    case ended(NDPIdentifier, DataPathEndReason, wasEstablished: Bool)
}

/// The NDP/NDL negotiations of one device: a value with no I/O, fed decoded NAFs, local requests and the
/// time, answering with ``DataPathAction``s. Bounded by count (``maximumEntries``) and by age (a setup must
/// finish within ``setupTimeout``); a frame that fits no entry changes nothing.
///
/// Secure data paths (an ``NDPSecurityPolicy`` given to ``initiate(to:publishID:serviceInfo:security:now:)``
/// or in ``publishSecurity``) run the NCS-SK 4-way handshake of ``NDPKeyExchange`` in the same NAFs:
/// Request (message 1), Response (2), Confirm (3), Key Install (4). Their frames are checked on the bytes
/// received, so ``receive(_:body:from:now:)`` needs the NAF body.
public struct DataPathNegotiations: Sendable {
    /// Where a data path is.
    public enum Phase: Hashable, Sendable {
        /// Initiator: request sent, waiting for the response.
        case requestSent
        /// Responder: response sent, waiting for the confirm.
        case responseSent
        /// Initiator of a secure data path: confirm (message 3) sent, waiting for the key install (message 4).
        case confirmSent
        /// Up.
        case established
    }

    /// A NAF we sent, kept to send again when the peer repeats the frame it answered.
    struct Outgoing: Sendable {
        var message: DataPathMessage
        /// The sealed body of a secure NAF; nil for an open one.
        var body: [UInt8]?
    }

    struct Entry: Sendable {
        var isInitiator: Bool
        var phase: Phase
        var dialogToken: UInt8
        var publishID: InstanceID
        var localNDI: MACAddress
        var peerNDI: MACAddress?
        var peerAvailability: [NANAvailabilityAttribute]
        var peerCommittedDW: UInt16
        var peerElements: [InformationElement]
        var peerInterfaceID: InterfaceIdentifier?
        var peerServiceInfo: [UInt8]
        var deadline: ContinuousClock.Instant?
        /// What we sent last, and the peer body it answered (secure data paths), to answer a repeat alike.
        var lastSent: Outgoing?
        var lastPeerBody: [UInt8]?
        /// The handshake of a secure data path while it runs (dropped when it completes).
        var keyExchange: NDPKeyExchange?
        /// The key of a secure data path, once the handshake completed, and the tag of the PMK it came from.
        var key: NDPInstallableKey?
        var masterKeyTag: [UInt8]?
        var isSecure: Bool
        /// The service a secure data path is for (its ID enters the PMK and the PMKID); nil for an open one.
        var serviceID: ServiceID? = nil
        /// Responder: our response was a counter-proposal, so the confirm must accept it (NDL confirm).
        var countered = false
        /// Initiator: DWs since the request (or secure confirm) last went out unanswered, and how often it was sent again.
        var windowsWaited = 0
        var resends = 0
        /// A secure setup frame for this data path failed its check: the error and when the setup ends with
        /// it, unless a frame that passes comes first.
        var refused: RefusedFrame?
    }

    /// The first secure setup frame of a data path that failed its check, and when the setup ends for it.
    struct RefusedFrame: Sendable {
        var error: NDPSecurityError
        var endsAt: ContinuousClock.Instant
    }

    /// An initiator's request (or secure confirm) with no answer after this many DWs is sent again…
    public var resendAfterWindows = 4
    /// …at most this many times; then the setup waits for its deadline (``setupTimeout``).
    public var maximumResends = 6

    /// At most this many data paths (pending or up) at once.
    public var maximumEntries = 16
    /// How long a setup may take from request to confirm.
    public var setupTimeout: Duration = .seconds(120)
    /// A secure setup frame (response, confirm, key install) that fails its check may be anyone's, since
    /// anyone can send from the peer's address: it is dropped, and the setup ends with its error only when
    /// no frame that passes comes within this time. A real mismatch (another passphrase) ends the setup
    /// this much later; a forged frame ends nothing.
    public var securityFailureGrace: Duration = .seconds(3)
    /// Secure setup frames dropped because they failed their check (diagnostics).
    public private(set) var refusedFrames = 0
    /// What we say about ourselves.
    public var local: DataPathLocalDevice
    /// Our NDI address (one NDI serves every data path).
    public var localNDI: MACAddress
    /// Publish instances that accept data-path requests.
    public var acceptingPublishes: Set<InstanceID> = []
    /// Per publish, whose requests are accepted (checked as each request arrives); no entry: anyone.
    public var admittedPeers: [InstanceID: DataPathAdmission] = [:]
    /// Service info we send back in responses, per publish.
    public var responseServiceInfo: [InstanceID: [UInt8]] = [:]
    /// Per publish, the NCS-SK security its data paths require; no entry: open data paths only. A request
    /// that does not match (open for a secure publish, secure for an open one) is refused with "security policy".
    public var publishSecurity: [InstanceID: NDPSecurityPolicy] = [:]
    /// Peers whose NMI station holds the NM-TK of a pairing: our data-path NAFs to them are protected
    /// (category 9, encrypted by the kernel) and, secure ones, sealed as such, since the MIC covers the
    /// category. wpa_supplicant 2.12 drops unprotected unicast NAFs from a peer it has paired with.
    public var protectedPeers: Set<MACAddress> = []

    private(set) var entries: [NDPIdentifier: Entry] = [:]
    /// The passphrase PMKs of our accepting publishes, derived once per publish (forget a publish's when it
    /// stops accepting).
    var masterKeys = PublishMasterKeys()
    private var nextToken: UInt8 = 1
    /// Known-answer tests only: the nonce our key exchanges use instead of a random one.
    var fixedNonce: [UInt8]?

    /// Creates an empty table.
    public init(local: DataPathLocalDevice, localNDI: MACAddress) {
        self.local = local
        self.localNDI = localNDI
    }

    /// The data paths in the table and where each is.
    public var phases: [NDPIdentifier: Phase] { entries.mapValues(\.phase) }

    private var interfaceID: InterfaceIdentifier { InterfaceIdentifier(eui64Of: localNDI) }

    private mutating func token() -> UInt8 {
        defer { nextToken = nextToken == 255 ? 1 : nextToken + 1 }
        return nextToken
    }

    /// An NDP ID not in use with `peer` (1…255), or nil when all are.
    func freeNDPID(for peer: MACAddress) -> UInt8? {
        let used = Set(entries.keys.filter { $0.peer == peer && $0.initiatorNDI == localNDI }.map(\.ndpID))
        return (1...255).lazy.map { UInt8($0) }.first { !used.contains($0) }
    }

    /// Starts a data path to `peer`'s publish `publishID`: the request to send, or nil when the table is
    /// full. With `security`, an NCS-SK data path with the policy's first suite.
    ///
    /// - Throws: ``NDPSecurityError`` when the credential cannot be used (e.g. a passphrase over 63 bytes).
    public mutating func initiate(
        to peer: MACAddress, publishID: InstanceID, serviceInfo: [UInt8],
        security: NDPSecurityPolicy? = nil, peerAvailability: [NANAvailabilityAttribute] = [],
        now: ContinuousClock.Instant
    ) throws(NDPSecurityError) -> (NDPIdentifier, [DataPathAction])? {
        guard entries.count < maximumEntries, let ndpID = freeNDPID(for: peer) else { return nil }
        let id = NDPIdentifier(peer: peer, initiatorNDI: localNDI, ndpID: ndpID)
        // The peer's SDFs announced its committed schedule: propose one that meets it.
        let previous = local.schedule
        let scheduleChange = realign(on: PeerAvailability(peerAvailability), for: id)
        var request = DataPathMessages.request(
            local, id: id, dialogToken: nextToken, publishID: publishID,
            interfaceID: interfaceID, serviceInfo: serviceInfo, secured: security != nil)
        var outgoing = Outgoing(message: request, body: nil)
        var exchange: NDPKeyExchange?
        if let security {
            do throws(NDPSecurityError) {
                var kx = try NDPKeyExchange(
                    initiator: security.requestedSuite, credential: security.credential,
                    serviceID: security.serviceID, publishID: publishID, localNMI: local.nmi,
                    peerNMI: peer, localNDI: localNDI, nonce: fixedNonce)
                try kx.requestAttributes().apply(to: &request)
                outgoing = Outgoing(
                    message: request, body: try Self.sealed(request, by: &kx, protected: protectedPeers.contains(peer)))
                exchange = kx
            } catch {
                local.schedule = previous
                throw error
            }
        }
        let dialog = token()
        entries[id] = Entry(
            isInitiator: true, phase: .requestSent, dialogToken: dialog, publishID: publishID,
            localNDI: localNDI, peerAvailability: [], peerCommittedDW: 0x0001, peerElements: [],
            peerServiceInfo: [], deadline: now.advanced(by: setupTimeout), lastSent: outgoing,
            keyExchange: exchange, isSecure: security != nil, serviceID: security?.serviceID)
        return (id, scheduleChange + [Self.send(outgoing, id)])
    }

    /// Realigns our schedule on a peer's committed slots when ours meets them poorly: the peer's committed
    /// channels in its own slots (``DataPathSchedule/adopting(_:usable:after:)``, on the channels we can use)
    /// when that gives the data link more than twice the common slots our schedule gives, and no other data
    /// path depends on our schedule. Deployed stacks commit few channels (wpa_supplicant 2.12's tests use
    /// 2437 MHz in slots 1–3 and 5180 MHz in 4–31): against our preferred schedule that leaves one common
    /// slot, 16 TU of every 512, too little to carry traffic. Returns the schedule change to perform before
    /// the frame that announces it (none when ours stays).
    private mutating func realign(on peer: PeerAvailability, for id: NDPIdentifier) -> [DataPathAction] {
        guard local.realignsOnPeers, !peer.maps.isEmpty, entries.keys.allSatisfy({ $0 == id }) else { return [] }
        let previous = local.schedule
        guard let adopted = DataPathSchedule.adopting(peer, usable: local.usableChannels, after: previous.sequenceID),
            peer.commonSlots(with: adopted).count > 2 * peer.commonSlots(with: previous).count
        else { return [] }
        local.schedule = adopted
        return [.changeSchedule(to: adopted, from: previous, ndp: id)]
    }

    /// Ends a data path from our side: a termination to send (if the peer knows of it) and the end.
    public mutating func terminate(
        _ id: NDPIdentifier, reason: DataPathEndReason = .init(.localRequest)
    ) -> [DataPathAction] {
        guard let entry = entries.removeValue(forKey: id) else { return [] }
        let message = DataPathMessages.termination(id: id, dialogToken: entry.dialogToken, reason: reason.code)
        return [.send(message, to: id.peer, ndp: id), .ended(id, reason, wasEstablished: entry.phase == .established)]
    }

    /// Ends a data path without telling the peer (it is gone, or the kernel failed under it).
    public mutating func drop(_ id: NDPIdentifier, reason: DataPathEndReason) -> [DataPathAction] {
        guard let entry = entries.removeValue(forKey: id) else { return [] }
        return [.ended(id, reason, wasEstablished: entry.phase == .established)]
    }

    /// A discovery window passed: an initiator whose request (or, secure, confirm) has had no answer for
    /// ``resendAfterWindows`` DWs sends it again, at most ``maximumResends`` times. The frame may have been
    /// acknowledged by the peer's radio and still lost (its event queue full, its process busy); the
    /// responder answers a repeat with the same response (or key install), so a repeat is harmless.
    public mutating func discoveryWindow() -> [DataPathAction] {
        var actions: [DataPathAction] = []
        for (id, entry) in entries
        where entry.isInitiator && (entry.phase == .requestSent || entry.phase == .confirmSent) {
            guard let outgoing = entry.lastSent, entry.resends < maximumResends else { continue }
            var updated = entry
            updated.windowsWaited += 1
            if updated.windowsWaited >= resendAfterWindows {
                updated.windowsWaited = 0
                updated.resends += 1
                actions.append(Self.send(outgoing, id))
            }
            entries[id] = updated
        }
        return actions
    }

    /// Expires setups past their deadline, and ends those whose refused frame had no valid successor
    /// within ``securityFailureGrace``.
    public mutating func tick(now: ContinuousClock.Instant) -> [DataPathAction] {
        var actions: [DataPathAction] = []
        for (id, entry) in entries {
            guard let refused = entry.refused, now >= refused.endsAt else { continue }
            actions += endForSecurity(id, entry, refused.error)
        }
        let expired = entries.filter { $0.value.deadline.map { now >= $0 } ?? false }.map(\.key)
        return actions + expired.flatMap { terminate($0, reason: DataPathEndReason(.timeout, code: .unspecified)) }
    }

    /// Drops a secure setup frame that failed its check (``securityFailureGrace``): counted, and the first
    /// such error is the one the setup ends with if nothing valid follows. Changes nothing else.
    private mutating func refuse(
        _ error: NDPSecurityError, for id: NDPIdentifier, now: ContinuousClock.Instant
    ) -> [DataPathAction] {
        refusedFrames += 1
        if entries[id]?.refused == nil {
            entries[id]?.refused = RefusedFrame(error: error, endsAt: now + securityFailureGrace)
        }
        return []
    }

    /// Ends a setup for a security failure: an initiator still waiting for the response rejects it with a
    /// confirm (the responder holds a data path for us); otherwise a termination.
    private mutating func endForSecurity(
        _ id: NDPIdentifier, _ entry: Entry, _ error: NDPSecurityError
    ) -> [DataPathAction] {
        let reason = DataPathEndReason(.securityFailure, code: error.reasonCode, detail: error.description)
        guard entry.isInitiator, entry.phase == .requestSent else { return terminate(id, reason: reason) }
        let confirm = DataPathMessages.confirm(
            local, id: id, dialogToken: entry.dialogToken, accepted: false, reason: error.reasonCode)
        return [.send(confirm, to: id.peer, ndp: id)] + drop(id, reason: reason)
    }

    /// A data-path NAF from `peer` (its NMI), already typed; `body` is its action body as received (from the
    /// Category field), which the security checks of a secure data path need (without it, a secure frame
    /// is refused or ignored).
    public mutating func receive(
        _ message: DataPathMessage, body: [UInt8]? = nil, from peer: MACAddress,
        now: ContinuousClock.Instant
    ) -> [DataPathAction] {
        let ndp = message.ndp
        let id = NDPIdentifier(peer: peer, initiatorNDI: ndp.initiatorNDI, ndpID: ndp.ndpID)
        guard peer != local.nmi, ndp.ndpID != 0, ndp.initiatorNDI != .zero, !ndp.initiatorNDI.isBroadcast else {
            return []
        }
        switch message.subtype {
        case .dataPathRequest: return receiveRequest(message, body: body, id: id, now: now)
        case .dataPathResponse: return receiveResponse(message, body: body, id: id, now: now)
        case .dataPathConfirm: return receiveConfirm(message, body: body, id: id, now: now)
        case .dataPathKeyInstall: return receiveKeyInstall(message, body: body, id: id, now: now)
        case .dataPathTermination:
            guard entries[id] != nil else { return [] }
            return drop(id, reason: DataPathEndReason(.peerRequest, code: ndp.reasonCode))
        default: return []
        }
    }

    private mutating func receiveRequest(
        _ message: DataPathMessage, body: [UInt8]?, id: NDPIdentifier,
        now: ContinuousClock.Instant
    ) -> [DataPathAction] {
        let ndp = message.ndp
        if let existing = entries[id] {
            // A repeat of a request we answered (our response was lost): answer again; anything else is stale.
            if !existing.isInitiator, existing.phase == .responseSent, existing.dialogToken == ndp.dialogToken,
                let response = existing.lastSent
            {
                return [Self.send(response, id)]
            }
            return []
        }
        guard id.initiatorNDI != localNDI else { return [] }
        func reject(_ reason: NANReasonCode, report: DataPathEndReason? = nil) -> [DataPathAction] {
            let response = DataPathMessages.response(
                local, id: id, dialogToken: ndp.dialogToken, responderNDI: nil, accepted: false,
                reason: reason, interfaceID: nil, serviceInfo: [])
            var actions: [DataPathAction] = [.send(response, to: id.peer, ndp: id)]
            if let report, let publishID = ndp.publishID { actions.append(.refused(id, publishID: publishID, report)) }
            return actions
        }
        guard let publishID = ndp.publishID, acceptingPublishes.contains(publishID),
            admittedPeers[publishID]?.admits(id.peer) ?? true
        else { return reject(.ndpRejected) }
        // Crossed requests (both devices connecting to each other at once): the kernel keeps one NDI station,
        // so one pairwise key, per peer NDI, and two data paths would leave the two sides with different keys.
        let ours = entries.filter { $0.key.peer == id.peer && $0.value.isInitiator }
        if !ours.isEmpty, local.nmi > id.peer || ours.contains(where: { $0.value.phase != .requestSent }) {
            // Not reported: nothing failed on this side (our data path goes on), and the peer sends its
            // request again until it sees ours, which would repeat the line. The peer reports the reason.
            return reject(.ndpRejected)
        }
        // Room first (ours, if crossed, make way): a full table costs no key derivation.
        guard entries.count - ours.count < maximumEntries else {
            return reject(.resourceLimitation, report: DataPathEndReason(.resourceLimit, code: .resourceLimitation))
        }
        let asksSecurity = ndp.securityPresentFlag || NDPKeyExchange.isSecured(message)
        var exchange: NDPKeyExchange?
        switch (publishSecurity[publishID], asksSecurity) {
        case (nil, true):
            return reject(
                .securityPolicy,
                report: DataPathEndReason(
                    .securityFailure, code: .securityPolicy,
                    detail: "the peer asked for a secure data path; this publish accepts open ones"))
        case (.some, false):
            return reject(
                .securityPolicy,
                report: DataPathEndReason(
                    .securityFailure, code: .securityPolicy,
                    detail: "the peer asked for an open data path; this publish requires NCS-SK"))
        case (.some(let policy), true):
            guard let body else { return reject(.invalidParameters) }
            var keys = masterKeys
            defer { masterKeys = keys }
            let (localNMI, peerNMI) = (local.nmi, id.peer)
            do throws(NDPSecurityError) {
                exchange = try NDPKeyExchange(
                    respondingTo: body, acceptedSuites: Set(policy.suites), serviceID: policy.serviceID,
                    localNMI: localNMI, peerNMI: peerNMI, localNDI: localNDI, nonce: fixedNonce
                ) { suite throws(NDPSecurityError) in
                    try keys.key(for: publishID, policy: policy, suite: suite, localNMI: localNMI, peerNMI: peerNMI)
                }
            } catch {
                return reject(
                    error.reasonCode,
                    report: DataPathEndReason(.securityFailure, code: error.reasonCode, detail: error.description))
            }
        case (nil, false):
            break
        }
        // Ours makes way only for a request that is the crossing one: taken by this publish (checked above)
        // and asking the security ours asks (both open, or both NCS-SK for the same service). Anything else
        // from the peer's address (a stale or forged request) is dropped and ours goes on.
        var superseded: [DataPathAction] = []
        if !ours.isEmpty {
            let service = exchange == nil ? nil : publishSecurity[publishID]?.serviceID
            guard ours.values.allSatisfy({ $0.isSecure == (exchange != nil) && $0.serviceID == service }) else {
                return []
            }
            for (ourID, _) in ours {
                entries[ourID] = nil
                superseded.append(
                    .ended(
                        ourID,
                        DataPathEndReason(
                            .crossedRequests, code: .ndpRejected,
                            detail: "both devices asked for a data path at once; the peer's goes on (the larger NMI's)"),
                        wasEstablished: false))
            }
        }
        // A proposal with no slot in common with ours (or an NDL request we cannot take as it is) is
        // answered with a counter-proposal: our schedule, which the initiator accepts in its confirm.
        let peerAvailability = PeerAvailability(message.availability)
        // Meet the proposal where we can (our response then accepts it with the same slots); a proposal we
        // still share no slot with gets our schedule as a counter-proposal.
        let previous = local.schedule
        let scheduleChange = realign(on: peerAvailability, for: id)
        let counter = peerAvailability.commonSlots(with: local.schedule).isEmpty
        let (iid, info) = DataPathMessages.peerExtras(ndp)
        // A confirm follows when the initiator asked for one, when keys are exchanged, or when we counter.
        let confirmFollows = ndp.confirmRequiredFlag || exchange != nil || counter
        var response = DataPathMessages.response(
            local, id: id, dialogToken: ndp.dialogToken, responderNDI: localNDI, accepted: true,
            interfaceID: interfaceID, serviceInfo: responseServiceInfo[publishID] ?? [],
            secured: exchange != nil, counter: counter, confirmFollows: confirmFollows)
        var outgoing = Outgoing(message: response, body: nil)
        if var kx = exchange {
            do throws(NDPSecurityError) {
                try kx.responseAttributes().apply(to: &response)
                outgoing = Outgoing(
                    message: response,
                    body: try Self.sealed(response, by: &kx, protected: protectedPeers.contains(id.peer)))
            } catch {
                local.schedule = previous
                return reject(
                    error.reasonCode,
                    report: DataPathEndReason(.securityFailure, code: error.reasonCode, detail: error.description))
            }
            exchange = kx
        }
        let entry = Entry(
            isInitiator: false, phase: confirmFollows ? .responseSent : .established, dialogToken: ndp.dialogToken,
            publishID: publishID, localNDI: localNDI, peerNDI: id.initiatorNDI, peerAvailability: message.availability,
            peerCommittedDW: message.deviceCapability?.committedDWInfo ?? 0x0001,
            peerElements: message.elementContainer?.elements ?? [], peerInterfaceID: iid,
            peerServiceInfo: info, deadline: confirmFollows ? now.advanced(by: setupTimeout) : nil,
            lastSent: confirmFollows ? outgoing : nil,
            lastPeerBody: exchange != nil ? body : nil, keyExchange: exchange, isSecure: exchange != nil,
            serviceID: exchange != nil ? publishSecurity[publishID]?.serviceID : nil, countered: counter)
        entries[id] = entry
        let actions =
            superseded + scheduleChange + [
                .requested(id, publishID: publishID, serviceInfo: info), Self.send(outgoing, id),
            ]
        // An open request that asks for no confirm is set up by our acceptance.
        guard confirmFollows else {
            return actions + [.establish(link(id, entry, peerNDI: id.initiatorNDI, availability: peerAvailability))]
        }
        return actions
    }

    private mutating func receiveResponse(
        _ message: DataPathMessage, body: [UInt8]?, id: NDPIdentifier,
        now: ContinuousClock.Instant
    ) -> [DataPathAction] {
        let ndp = message.ndp
        guard var entry = entries[id], entry.isInitiator, entry.dialogToken == ndp.dialogToken else { return [] }
        // A repeat of the response our confirm answered (the confirm was lost): send the confirm again.
        if entry.phase == .confirmSent, let body, body == entry.lastPeerBody, let confirm = entry.lastSent {
            return [Self.send(confirm, id)]
        }
        guard entry.phase == .requestSent else { return [] }
        guard ndp.status != .rejected else {
            return drop(id, reason: DataPathEndReason(.rejected, code: ndp.reasonCode))
        }
        // NDP status "continued" on an open data path only says our confirm must follow (wpa_supplicant 2.12
        // answers so when the request asks for a confirm); the schedule's verdict is the NDL status.
        if let ndl = message.ndl, ndl.status == .rejected {
            return drop(id, reason: DataPathEndReason(.rejected, code: ndl.reasonCode))
        }
        let countered = message.ndl?.status == .continued
        // A secure response is checked first (its MIC covers every attribute): one that fails may be forged.
        if entry.isSecure {
            guard var kx = entry.keyExchange, let body else { return [] }
            do throws(NDPSecurityError) { try kx.receive(body) } catch { return refuse(error, for: id, now: now) }
            entry.keyExchange = kx
            entry.refused = nil
        }
        guard let responderNDI = ndp.responderNDI, responderNDI != .zero, !responderNDI.isBroadcast else {
            return terminate(id, reason: DataPathEndReason(.protocolError, code: .invalidParameters))
        }
        func fail(_ error: NDPSecurityError) -> [DataPathAction] { endForSecurity(id, entry, error) }
        let availability = PeerAvailability(message.availability)
        var scheduleChange: [DataPathAction] = []
        if availability.commonSlots(with: local.schedule).isEmpty {
            // A counter-proposal we can only take by changing our schedule: done when no other data path
            // depends on the schedule we have, and the peer's slots use channels our radio can take.
            let previous = local.schedule
            guard countered, entries.keys.allSatisfy({ $0 == id }),
                let adopted = DataPathSchedule.adopting(
                    availability, usable: local.usableChannels, after: previous.sequenceID),
                !availability.commonSlots(with: adopted).isEmpty
            else {
                let confirm = DataPathMessages.confirm(
                    local, id: id, dialogToken: entry.dialogToken, accepted: false,
                    reason: .ndlUnacceptable, answeringCounter: countered)
                return [.send(confirm, to: id.peer, ndp: id)]
                    + drop(id, reason: DataPathEndReason(.protocolError, code: .ndlUnacceptable))
            }
            local.schedule = adopted
            scheduleChange = [.changeSchedule(to: adopted, from: previous, ndp: id)]
        }
        // The answer to a counter-proposal names the NDC: the peer's ID, in the first slot we now share.
        let agreedNDC =
            countered
            ? availability.commonSlots(with: local.schedule).first.map { slot in
                NDCAttribute(
                    ndcID: message.ndc?.ndcID ?? local.ndcID, selected: true,
                    schedule: [
                        ScheduleEntry(mapID: DataPathSchedule.mapID, timeBitmap: DataPathSchedule.timeBitmap([slot]))
                    ])
            } : nil
        let (iid, info) = DataPathMessages.peerExtras(ndp)
        entry.peerNDI = responderNDI
        entry.peerAvailability = message.availability
        entry.peerCommittedDW = message.deviceCapability?.committedDWInfo ?? 0x0001
        entry.peerElements = message.elementContainer?.elements ?? []
        entry.peerInterfaceID = iid
        entry.peerServiceInfo = info
        if var kx = entry.keyExchange {
            var confirm = DataPathMessages.confirm(
                local, id: id, dialogToken: entry.dialogToken, accepted: true, secured: true,
                answeringCounter: countered, ndc: agreedNDC)
            let outgoing: Outgoing
            do throws(NDPSecurityError) {
                try kx.confirmAttributes().apply(to: &confirm)
                outgoing = Outgoing(
                    message: confirm,
                    body: try Self.sealed(confirm, by: &kx, protected: protectedPeers.contains(id.peer)))
            } catch {
                if case .changeSchedule(_, let previous, _)? = scheduleChange.first { local.schedule = previous }
                return fail(error)
            }
            entry.keyExchange = kx
            entry.phase = .confirmSent
            entry.lastSent = outgoing
            entry.lastPeerBody = body
            entries[id] = entry
            return scheduleChange + [Self.send(outgoing, id)]
        }
        entry.phase = .established
        entry.deadline = nil
        entry.lastSent = nil
        entries[id] = entry
        let confirm = DataPathMessages.confirm(
            local, id: id, dialogToken: entry.dialogToken, accepted: true,
            answeringCounter: countered, ndc: agreedNDC)
        return scheduleChange
            + [
                .send(confirm, to: id.peer, ndp: id),
                .establish(link(id, entry, peerNDI: responderNDI, availability: availability)),
            ]
    }

    private mutating func receiveConfirm(
        _ message: DataPathMessage, body: [UInt8]?, id: NDPIdentifier,
        now: ContinuousClock.Instant
    ) -> [DataPathAction] {
        let ndp = message.ndp
        guard var entry = entries[id], !entry.isInitiator, entry.dialogToken == ndp.dialogToken else { return [] }
        // A repeat of the confirm our key install answered (the key install was lost): send it again.
        if entry.phase == .established, entry.isSecure, let body, body == entry.lastPeerBody,
            let install = entry.lastSent
        {
            return [Self.send(install, id)]
        }
        guard entry.phase == .responseSent else { return [] }
        guard ndp.status != .rejected, ndp.status == .accepted || entry.isSecure, message.ndl?.status != .rejected
        else {
            let code = ndp.status == .rejected ? ndp.reasonCode : message.ndl?.reasonCode ?? ndp.reasonCode
            return drop(id, reason: DataPathEndReason(.rejected, code: code))
        }
        // A secure confirm is checked before anything it says is believed: one that fails may be forged.
        var checked: NDPKeyExchange?
        if entry.isSecure {
            guard var kx = entry.keyExchange, let body else { return [] }
            do throws(NDPSecurityError) { try kx.receive(body) } catch { return refuse(error, for: id, now: now) }
            checked = kx
            entry.refused = nil
        }
        if entry.countered {
            // Our counter-proposal stands only if the confirm takes it: an NDL confirm, accepted, with an
            // availability that shares slots with ours. Anything else ends the setup.
            guard let ndl = message.ndl, ndl.type == .confirm, ndl.status == .accepted,
                ndl.dialogToken == entry.dialogToken,
                !PeerAvailability(message.availability).commonSlots(with: local.schedule).isEmpty
            else {
                return terminate(
                    id,
                    reason: DataPathEndReason(
                        .protocolError, code: .ndlUnacceptable,
                        detail: "the confirm did not take our counter-proposal"))
            }
        }
        if !message.availability.isEmpty { entry.peerAvailability = message.availability }
        var actions: [DataPathAction] = []
        if var kx = checked, let body {
            var install = DataPathMessages.keyInstall(local, id: id, dialogToken: entry.dialogToken)
            let outgoing: Outgoing
            do throws(NDPSecurityError) {
                try kx.keyInstallAttributes().apply(to: &install)
                outgoing = Outgoing(
                    message: install,
                    body: try Self.sealed(install, by: &kx, protected: protectedPeers.contains(id.peer)))
            } catch {
                return terminate(
                    id, reason: DataPathEndReason(.securityFailure, code: error.reasonCode, detail: error.description))
            }
            guard let key = kx.installableKey else {
                return terminate(
                    id,
                    reason: DataPathEndReason(.securityFailure, code: .unspecified, detail: "no key after message 4"))
            }
            entry.key = key
            entry.masterKeyTag = kx.masterKeyTag
            entry.keyExchange = nil
            entry.lastSent = outgoing
            entry.lastPeerBody = body
            actions.append(Self.send(outgoing, id))
        } else {
            entry.lastSent = nil
        }
        entry.phase = .established
        entry.deadline = nil
        entries[id] = entry
        return actions + [
            .establish(
                link(id, entry, peerNDI: id.initiatorNDI, availability: PeerAvailability(entry.peerAvailability)))
        ]
    }

    private mutating func receiveKeyInstall(
        _ message: DataPathMessage, body: [UInt8]?, id: NDPIdentifier,
        now: ContinuousClock.Instant
    ) -> [DataPathAction] {
        let ndp = message.ndp
        guard var entry = entries[id], entry.isInitiator, entry.phase == .confirmSent,
            entry.dialogToken == ndp.dialogToken,
            var kx = entry.keyExchange, let body, let peerNDI = entry.peerNDI
        else { return [] }
        guard ndp.status != .rejected else {
            return drop(id, reason: DataPathEndReason(.rejected, code: ndp.reasonCode))
        }
        do throws(NDPSecurityError) { try kx.receive(body) } catch { return refuse(error, for: id, now: now) }
        guard let key = kx.installableKey else {
            return terminate(
                id, reason: DataPathEndReason(.securityFailure, code: .unspecified, detail: "no key after message 4"))
        }
        entry.key = key
        entry.masterKeyTag = kx.masterKeyTag
        entry.keyExchange = nil
        entry.refused = nil
        entry.lastSent = nil
        entry.lastPeerBody = nil
        entry.phase = .established
        entry.deadline = nil
        entries[id] = entry
        return [.establish(link(id, entry, peerNDI: peerNDI, availability: PeerAvailability(entry.peerAvailability)))]
    }

    private func link(
        _ id: NDPIdentifier, _ entry: Entry, peerNDI: MACAddress, availability: PeerAvailability
    ) -> NDPLink {
        NDPLink(
            id: id, isInitiator: entry.isInitiator, localNDI: entry.localNDI, peerNDI: peerNDI,
            peerAvailability: availability, peerCommittedDW: entry.peerCommittedDW, peerElements: entry.peerElements,
            peerInterfaceID: entry.peerInterfaceID, peerServiceInfo: entry.peerServiceInfo, publishID: entry.publishID,
            pairwiseKey: entry.key.flatMap { DataPathPairwiseKey(cipherSuite: $0.suite, temporalKey: $0.temporalKey) },
            masterKeyTag: entry.key == nil ? nil : entry.masterKeyTag)
    }

    private static func send(_ outgoing: Outgoing, _ id: NDPIdentifier) -> DataPathAction {
        if let body = outgoing.body { return .sendSealed(outgoing.message, body: body, to: id.peer, ndp: id) }
        return .send(outgoing.message, to: id.peer, ndp: id)
    }

    /// Encodes a secure message (category 9 when `protected`) and has the key exchange sign it (or record
    /// its token, for message 1).
    private static func sealed(
        _ message: DataPathMessage, by exchange: inout NDPKeyExchange,
        protected: Bool
    ) throws(NDPSecurityError) -> [UInt8] {
        var body: [UInt8]
        do { body = try message.frame(isProtected: protected).encoded() } catch {
            throw NDPSecurityError(.malformed, "encoding \(message.subtype): \(error)")
        }
        try exchange.seal(&body)
        return body
    }
}

extension NDPDescriptor {
    /// Control bit 2 ("security present") of either attribute.
    var securityPresentFlag: Bool {
        switch self {
        case .ndp(let a): return a.securityPresent;
        case .ndpExtension(let a): return a.securityPresent
        }
    }

    /// Control bit 1 ("confirm required") of either attribute: the initiator's confirm must follow our response.
    var confirmRequiredFlag: Bool {
        switch self {
        case .ndp(let a): return a.confirmRequired;
        case .ndpExtension(let a): return a.confirmRequired
        }
    }
}

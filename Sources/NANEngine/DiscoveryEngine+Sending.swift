import NANLogging
import NANWire

/// Sending frames, and follow-up messages with delivery status (their TX status from the radio's transmit
/// service, retried by the ``Options/followUp`` policy).
extension DiscoveryEngine {
    /// Encodes and sends a frame; returns its cookie, or nil if it could not be sent.
    func transmit(_ frame: OutgoingDiscoveryFrame, frequency: Int?) async -> UInt64? {
        var frame = frame
        if frame.identityResolution == nil, let identityResolution,
            frame.announcements.contains(where: { $0.kind != .followUp })
        {
            frame.identityResolution = identityResolution
        }
        if let deviceAttributes { frame.deviceAttributes = deviceAttributes.attributes }
        if !frame.destination.isMulticast, protectedPeers.contains(frame.destination) { frame.isProtected = true }
        do {
            let bytes = try codec.encode(frame, source: localAddress, cluster: cluster ?? .broadcast)
            let cookie = try await radio.transmit(bytes, frequency: frequency)
            statistics.framesSent += 1
            if options.logger.isEnabled(.trace) {
                let kinds = frame.announcements.map { "\($0.kind)#\($0.instanceID.rawValue)" }.joined(separator: ",")
                options.logger.trace("tx to \(frame.destination) [\(kinds)] cookie \(cookie)")
            }
            return cookie
        } catch {
            statistics.sendFailures += 1
            return nil
        }
    }

    /// Sends a follow-up from our instance `local` to a peer's instance; reports whether it was acknowledged.
    func send(
        _ payload: [UInt8], from local: InstanceID, to peer: MACAddress, peerInstanceID: InstanceID,
        keyDescriptor: SharedKeyDescriptorAttribute? = nil,
        bootstrapping: PairingBootstrappingAttribute? = nil
    ) async throws -> DeliveryStatus {
        if payload.count > Self.maximumServiceInfo {
            throw DiscoveryError.tooLong(payload.count, limit: Self.maximumServiceInfo)
        }
        guard !stopped else { throw DiscoveryError.engineStopped }
        guard let function = functions[local] else { throw DiscoveryError.sessionEnded }
        if radio.discoveryMode == .offloaded {
            // The driver builds offloaded follow-ups: it carries service info only.
            if keyDescriptor != nil || bootstrapping != nil { throw DiscoveryError.offloadUnavailable }
            var followUp = OffloadedFunction(kind: .followUp, serviceID: function.role.serviceID)
            followUp.followUpID = peerInstanceID
            followUp.followUpRequestorID = local
            followUp.followUpDestination = peer
            followUp.serviceInfo = payload
            _ = try await radio.addFunction(followUp)
            return .handedToDriver
        }
        // A plain follow-up to a peer that announced its schedule: its station first, so the frame leaves in
        // our next common slot instead of the next DW. The pairing link adds the stations of its own
        // follow-ups (bootstrapping, NIK); a protected peer's station holds its key and is the link's.
        if keyDescriptor == nil, bootstrapping == nil, let stationPreparer, !protectedPeers.contains(peer) {
            let announced = announcedSchedule(of: peer)
            if !announced.availability.isEmpty {
                _ = await stationPreparer(peer, announced.availability, announced.committedDW)
            }
        }
        var followUp = ServiceAnnouncement(
            kind: .followUp, serviceID: function.role.serviceID, instanceID: local,
            requestorInstanceID: peerInstanceID, serviceInfo: payload)
        followUp.keyDescriptor = keyDescriptor
        followUp.bootstrapping = bootstrapping
        let frame = OutgoingDiscoveryFrame(destination: peer, announcements: [followUp])
        let delivered = await options.followUp.deliver { attempt in
            attempt == 0 && options.followUpImmediately ? true : await nextWindow()
        } attempt: { timeout in
            guard let cookie = await transmit(frame, frequency: nil) else { return nil }
            let acknowledged = await radio.acknowledgement(of: cookie, within: timeout) ?? false
            if acknowledged { statistics.framesAcknowledged += 1 } else { statistics.framesNotAcknowledged += 1 }
            options.logger.trace("tx status cookie \(cookie) \(acknowledged ? "acked" : "not acked")")
            return acknowledged
        }
        return delivered ? .acknowledged : .notAcknowledged
    }
}

import NANSystem
import NANWire

/// The real radio: a thin adapter from the engine's `DiscoveryRadio` to a ``NANRuntime`` client: the
/// runtime's events for discovery in, frames and functions out on the runtime's session.
final class NL80211Radio: DiscoveryRadio, Sendable {
    let session: NL80211Session
    let runtime: NANRuntime
    let interface: NANInterface
    let discoveryMode: DiscoveryMode
    private let stream: AsyncThrowingStream<NL80211Event, any Error>

    var localAddress: MACAddress { interface.address }

    /// What discovery registers for: cluster, DW, offload events, and (in user space) SDFs,
    /// protected ones (category 9, from paired peers, decrypted by the kernel) too.
    static func interest(_ mode: DiscoveryMode) -> NANEventInterest {
        NANEventInterest(
            kinds: [.cluster, .discoveryWindow, .offloadedDiscovery],
            framePrefixes: mode == .userSpace
                ? [NANFramePrefix.serviceDiscovery, NANFramePrefix.protectedServiceDiscovery] : [])
    }

    /// Registers discovery with `runtime` and wraps its stream.
    init(runtime: NANRuntime) async throws {
        session = runtime.session
        self.runtime = runtime
        interface = runtime.managementInterface
        discoveryMode = runtime.discoveryMode
        stream = try await runtime.events(for: Self.interest(runtime.discoveryMode))
    }

    /// The client's events about our interface, translated as they are read. When the session ends, so
    /// does the sequence, and the engine shuts down.
    var events: AsyncCompactMapSequence<AsyncThrowingStream<NL80211Event, any Error>, RadioEvent> {
        let wdev = interface.wdev
        return stream.compactMap { event in Self.translate(event, wdev: wdev) }
    }

    /// The engine's view of one nl80211 event about our interface; nil for everything else.
    static func translate(_ event: NL80211Event, wdev: WirelessDeviceID) -> RadioEvent? {
        switch event {
        case .clusterJoined(let from, let clusterID, _) where from == wdev:
            return .clusterJoined(clusterID)
        case .nextDiscoveryWindow(let from, let frequency) where from == wdev:
            return .discoveryWindow(frequency: Int(frequency.rawValue))
        case .frameReceived(let from, let frequency, let signal, let bytes) where from == nil || from == wdev:
            return .frameReceived(bytes: bytes, frequency: Int(frequency.rawValue), signal: signal.map(Int.init))
        case .nanMatch(let match) where match.wdev == nil || match.wdev == wdev:
            let kind: OffloadedMatch.PeerKind
            switch match.peerType {
            case .publish: kind = .publish
            case .subscribe: kind = .subscribe
            case .followUp: kind = .followUp
            }
            return .functionMatched(
                OffloadedMatch(
                    cookie: match.cookie.rawValue, localInstanceID: match.localInstance, peer: match.peer,
                    peerKind: kind, peerInstanceID: match.peerInstance, serviceInfo: match.serviceInfo ?? []))
        case .nanFunctionTerminated(let cookie, _, let reason):
            let mapped: TerminationReason =
                reason == .userRequest ? .userRequest : reason == .ttlExpired ? .timeToLiveExpired : .failure
            return .functionTerminated(cookie: cookie.rawValue, reason: mapped)
        case .interfaceRemoved(_, let removed, _) where removed == wdev:
            return .interfaceRemoved
        case .wiphyRemoved(let wiphy) where wiphy == interface(wdev):
            return .interfaceRemoved
        case .overrun(let dropped):
            return .eventsLost(droppedEvents: dropped)
        default:
            return nil
        }
    }

    private static func interface(_ wdev: WirelessDeviceID) -> WiphyIndex { wdev.wiphy }

    nonisolated(nonsending) func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 {
        let cookie = try await session.sendFrame(
            frame, on: interface.wdev, frequency: frequency.map { Frequency(rawValue: UInt32(clamping: $0)) })
        return cookie.rawValue
    }

    /// The runtime's router hands `responder` every SDF on the reader's thread before routing it; replies
    /// go straight onto the session's socket, without waiting for the kernel's answer.
    func answerSubscribes(with responder: SolicitedResponder) {
        let session = session
        let wdev = interface.wdev
        runtime.router.answerServiceDiscovery { bytes, signal in
            responder.respond(to: bytes, signal: signal) { frame in try session.postFrame(frame, on: wdev) }
        }
    }

    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? {
        await runtime.acknowledgement(of: FrameCookie(rawValue: cookie), within: timeout)
    }

    /// After an overrun: whether our NMI is still in the kernel's interface dump, and the cluster the
    /// runtime last saw joined (its router reads every event of the session, so a client's own overrun
    /// did not hide a join from it; a kernel socket overrun may have).
    func snapshot() async throws -> RadioSnapshot? {
        let present = try await session.interfaces().contains { $0.wdev == interface.wdev }
        return RadioSnapshot(interfacePresent: present, cluster: runtime.cluster)
    }

    func addFunction(_ function: OffloadedFunction) async throws -> OffloadedFunctionHandle {
        let handle = try await session.addNANFunction(Self.nanFunction(function), on: interface.wdev)
        return OffloadedFunctionHandle(cookie: handle.cookie.rawValue, instanceID: handle.instanceID)
    }

    func removeFunction(cookie: UInt64) async throws {
        try await session.removeNANFunction(NANFunctionCookie(rawValue: cookie), on: interface.wdev)
    }

    /// The ADD_NAN_FUNCTION contents for one of the engine's offloaded functions.
    static func nanFunction(_ f: OffloadedFunction) -> NANFunction {
        let type: NANFunctionType
        switch f.kind {
        case .publish: type = .publish
        case .subscribe: type = .subscribe
        case .followUp: type = .followUp
        }
        var srf: NANServiceResponseFilter?
        if let filter = f.responseFilter {
            switch filter.addressSet {
            case .addresses(let list):
                srf = NANServiceResponseFilter(include: filter.include, content: .addresses(list))
            case .bloomFilter(let bloom):
                srf = NANServiceResponseFilter(
                    include: filter.include, content: .bloomFilter(Array(bloom.bits), index: bloom.index))
            }
        }
        return NANFunction(
            type: type, serviceID: f.serviceID,
            publishType: f.kind == .publish ? NANPublishType(rawValue: f.publishType.rawValue) : [],
            publishBroadcast: f.broadcastReplies, subscribeActive: f.activeSubscribe, followUpID: f.followUpID,
            followUpRequestorID: f.followUpRequestorID, followUpDestination: f.followUpDestination,
            closeRange: f.closeRange, timeToLive: f.ttlDiscoveryWindows,
            serviceInfo: f.serviceInfo.isEmpty ? nil : f.serviceInfo, serviceResponseFilter: srf,
            receiveMatchFilter: f.receiveFilter.map { $0.elements.map(Array.init) },
            transmitMatchFilter: f.transmitFilter.map { $0.elements.map(Array.init) })
    }
}

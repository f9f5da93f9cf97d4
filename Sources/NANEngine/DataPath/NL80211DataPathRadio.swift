import NANLogging
import NANSystem
import NANWire

/// The real data-path radio: the nl80211 session that owns the NAN interface, the runtime's transmit
/// service, and the adapter's facts.
final class NL80211DataPathRadio: DataPathRadio, Sendable {
    let runtime: NANRuntime
    let session: NL80211Session
    let interface: NANInterface
    let adapter: Adapter
    /// Whether NAN runs with a 5 GHz DW (then 5 GHz channels are worth trying).
    let fiveGHzEnabled: Bool

    /// Diagnostics (trace level): one line per kernel step.
    let logger: Logger

    init(runtime: NANRuntime, fiveGHzEnabled: Bool, logger: Logger = .disabled) {
        self.logger = logger
        self.runtime = runtime
        self.session = runtime.session
        self.interface = runtime.managementInterface
        self.adapter = runtime.adapter
        self.fiveGHzEnabled = fiveGHzEnabled
    }

    var localAddress: MACAddress { interface.address }

    var fiveGHzCandidates: [DataPathChannel] {
        adapter.nan.bands.contains(.band5GHz) ? [.channel149, .channel44] : []
    }

    /// HT capabilities as mac80211_hwsim reports them for NAN (2 streams, 20/40 MHz, short GI); used until
    /// the NAN PHY capabilities are read from the wiphy.
    static let htCapabilities: [UInt8] = [0x72, 0x10, 0x1b, 0xff, 0xff] + [UInt8](repeating: 0, count: 21)

    var capabilities: (DeviceCapabilityAttribute, [InformationElement]) {
        let caps = adapter.nan.capabilities
        let bands: UInt8 = adapter.nan.bands.contains(.band5GHz) ? 0x14 : 0x04
        let antennas = UInt8(((caps?.receiveAntennas ?? 1) & 0x0f) << 4 | ((caps?.transmitAntennas ?? 1) & 0x0f))
        let capability = DeviceCapabilityAttribute(
            committedDWInfo: fiveGHzEnabled ? 0x0009 : 0x0001, supportedBands: bands, operationMode: 0,
            antennas: antennas, maxChannelSwitchTime: caps?.maxChannelSwitchTimeMicroseconds ?? 0,
            capabilities: (caps?.capabilities ?? 0) | 0x08)
        return (capability, [InformationElement(id: 45, body: Self.htCapabilities[...])])
    }

    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64 {
        try await session.sendFrame(
            frame, on: interface.wdev,
            frequency: frequency.map { Frequency(rawValue: UInt32(clamping: $0)) }
        ).rawValue
    }

    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool? {
        await runtime.acknowledgement(of: FrameCookie(rawValue: cookie), within: timeout)
    }

    func transmit(_ frame: [UInt8], from data: DataInterface) async throws -> UInt64 {
        guard let found = try await session.interfaces().first(where: { $0.index?.rawValue == data.index }) else {
            throw NetlinkError(
                code: .malformedMessage, call: "NL80211_CMD_FRAME",
                detail: "the NAN data interface \(data.name) is gone")
        }
        return try await session.sendFrame(frame, on: found.wdev, frequency: nil).rawValue
    }

    func createDataInterface() async throws -> DataInterface {
        let name = "nan\(adapter.wiphy.rawValue)data"
        let created = try await session.createDataInterface(on: adapter.wiphy, name: name)
        guard let index = created.index, let address = created.address else {
            try? await session.deleteInterface(created.wdev)
            throw NetlinkError(
                code: .malformedMessage, call: "NL80211_CMD_NEW_INTERFACE",
                detail: "NAN data interface without index or address")
        }
        // A peer with a secure data path up may send its NAFs NDI to NDI under the data path's key (as
        // wpa_supplicant 2.12 does when it is not paired with us): have them delivered. Without it only
        // those frames are missed, so a refusal is traced, not fatal.
        do {
            try await session.registerFrames(on: created.wdev, matching: NANFramePrefix.protectedNANAction)
        } catch {
            logger.trace("dp protected NAFs on \(created.name ?? name) not registered: \(error)")
        }
        return DataInterface(name: created.name ?? name, index: index.rawValue, address: address)
    }

    func removeDataInterface(_ data: DataInterface) async {
        let all = (try? await session.interfaces()) ?? []
        if let found = all.first(where: { $0.index?.rawValue == data.index }) {
            try? await session.deleteInterface(found.wdev)
        }
    }

    static func localSchedule(_ schedule: DataPathSchedule) throws -> NANLocalSchedule {
        let channels = schedule.channels.map {
            NANScheduleChannel(
                frequency: Frequency(rawValue: UInt32($0.frequency)), channelEntry: $0.kernelChannelEntry)
        }
        let slots = schedule.slots.map { $0.map { UInt8($0) } ?? NANLocalSchedule.unavailableSlot }
        let blob = try schedule.availabilityAttribute.encoded()
        return NANLocalSchedule(channels: channels, timeSlots: slots, availabilityAttribute: blob)
    }

    func setLocalSchedule(_ schedule: DataPathSchedule) async throws {
        try await session.setLocalSchedule(try Self.localSchedule(schedule), on: interface.wdev)
    }

    func clearLocalSchedule() async {
        try? await session.setLocalSchedule(.cleared, on: interface.wdev)
    }

    /// The peer's schedule for `NAN_SET_PEER_SCHED`, cut down to the channels of `local`: the kernel refuses
    /// the whole schedule (EINVAL, "Channel N not compatible with any local channel") when the peer commits a
    /// channel we have not committed, and such slots could carry no frame between us anyway. Channels are
    /// matched by frequency; a map left with no slot is dropped; with none left, only the committed DWs.
    static func peerSchedule(_ link: NDPLink, local: DataPathSchedule) -> NANPeerSchedule {
        peerSchedule(
            of: link.id.peer, availability: link.peerAvailability, committedDW: link.peerCommittedDW, local: local)
    }

    /// As ``peerSchedule(_:local:)``, for any peer: what it announced (`availability`, its committed DW
    /// info `committedDW`) cut down to the channels of `local`. No map left: only the committed DWs.
    static func peerSchedule(
        of peer: MACAddress, availability: PeerAvailability, committedDW: UInt16, local: DataPathSchedule
    ) -> NANPeerSchedule {
        let ours = Set(local.channels.map(\.frequency))
        // Old position in the peer's channel list -> new position among the channels we keep.
        var kept: [PeerAvailability.Channel] = []
        var position: [Int: Int] = [:]
        for (index, channel) in availability.channels.enumerated() where ours.contains(channel.channel.frequency) {
            position[index] = kept.count
            kept.append(channel)
        }
        let maps = availability.maps.compactMap { map -> NANPeerMap? in
            let slots = map.slots.map { $0.flatMap { position[$0] } }
            guard slots.contains(where: { $0 != nil }) else { return nil }
            return NANPeerMap(
                mapID: map.mapID, timeSlots: slots.map { $0.map { UInt8($0) } ?? NANLocalSchedule.unavailableSlot })
        }
        guard !maps.isEmpty else { return NANPeerSchedule(peer: peer, committedDiscoveryWindows: committedDW) }
        let channels = kept.map {
            NANScheduleChannel(
                frequency: Frequency(rawValue: UInt32($0.channel.frequency)), channelEntry: $0.kernelChannelEntry)
        }
        return NANPeerSchedule(
            peer: peer, committedDiscoveryWindows: committedDW, sequenceID: availability.sequenceID,
            channels: channels, maps: maps)
    }

    /// The peer's HT/VHT capabilities from its Element Container; ours when it sent no well-formed HT
    /// element (the kernel needs HT on the NMI station before it takes an NDI station).
    static func peerCapabilities(_ link: NDPLink) -> (NANPeerCapabilities, fromPeer: Bool) {
        let ht = link.peerElements.first(where: { $0.id == 45 }).map { Array($0.body) }
        let vht = link.peerElements.first(where: { $0.id == 191 }).map { Array($0.body) }
        if let ht, let both = NANPeerCapabilities(ht: ht, vht: vht) { return (both, true) }
        if let ht, let htOnly = NANPeerCapabilities(ht: ht) { return (htOnly, true) }
        return (NANPeerCapabilities(ht: htCapabilities)!, false)
    }

    func addPeer(_ link: NDPLink, localSchedule: DataPathSchedule) async throws {
        let scope = StationScope.managementInterface(interface.wdev)
        let peer = link.id.peer
        try await step("add the peer's NMI station") {
            do {
                try await session.addStation(NANStationParameters(scope: scope, peer: peer))
                logger.trace("dp NMI station \(peer) added")
            } catch let error as NetlinkError where error.errno == .fileExists {
                // EEXIST from NEW_STATION (the kernel's code, not recoded: only START_NAN's EEXIST means alreadyRunning).
                logger.trace("dp NMI station \(peer) already there")
            }
        }
        try await step("install the peer's schedule") {
            try await session.setPeerSchedule(Self.peerSchedule(link, local: localSchedule), on: interface.wdev)
        }
        let (capabilities, fromPeer) = Self.peerCapabilities(link)
        try await step("give the peer's NMI station its HT capabilities and authorize it") {
            try await session.updateStation(.authorize(scope, peer: peer, capabilities: capabilities))
            logger.trace(
                "dp NMI station \(peer) authorized with \(fromPeer ? "its" : "our") HT\(capabilities.vht == nil ? "" : "/VHT") capabilities"
            )
        }
    }

    func preparePeer(
        _ peer: MACAddress, availability: PeerAvailability, committedDW: UInt16, localSchedule: DataPathSchedule
    ) async -> Bool {
        let schedule = Self.peerSchedule(
            of: peer, availability: availability, committedDW: committedDW, local: localSchedule)
        guard !schedule.maps.isEmpty else { return false }
        do {
            try await session.addStation(
                NANStationParameters(scope: .managementInterface(interface.wdev), peer: peer))
        } catch {
            // Already there (the pairing link's, with the peer's schedule): used as it is, not ours.
            logger.trace("dp no NMI station added for \(peer) before setup: \(error)")
            return false
        }
        do {
            try await session.setPeerSchedule(schedule, on: interface.wdev)
            logger.trace("dp NMI station \(peer) added with its announced schedule before setup")
        } catch {
            logger.trace("dp the schedule of \(peer) not set, its setup NAFs wait for DWs: \(error)")
        }
        return true
    }

    func updatePeerSchedule(_ link: NDPLink, localSchedule: DataPathSchedule) async throws {
        try await step("install the peer's new schedule") {
            try await session.setPeerSchedule(Self.peerSchedule(link, local: localSchedule), on: interface.wdev)
        }
    }

    func updatePeerSchedule(
        of peer: MACAddress, availability: PeerAvailability, committedDW: UInt16, localSchedule: DataPathSchedule
    ) async throws {
        let schedule = Self.peerSchedule(
            of: peer, availability: availability, committedDW: committedDW, local: localSchedule)
        try await step("install the peer's new schedule on its NMI station") {
            try await session.setPeerSchedule(schedule, on: interface.wdev)
        }
    }

    func addPeerDataStation(_ link: NDPLink, on data: DataInterface) async throws {
        let scope = StationScope.dataInterface(
            InterfaceIndex(rawValue: data.index), peerManagementAddress: link.id.peer)
        let flags: StationFlags =
            link.pairwiseKey == nil
            ? [.authenticated, .associated, .authorized]
            : [.authenticated, .associated, .managementFrameProtection]
        try await step("add the peer's NDI station") {
            do {
                try await session.addStation(
                    NANStationParameters(scope: scope, peer: link.peerNDI, flagMask: flags, flagSet: flags))
                logger.trace(
                    "dp NDI station \(link.peerNDI) of \(link.id.peer) added on \(data.name)\(link.pairwiseKey == nil ? ", authorized" : "")"
                )
            } catch let error as NetlinkError where error.errno == .fileExists {
                // EEXIST from NEW_STATION (the kernel's code, not recoded: only START_NAN's EEXIST means alreadyRunning).
                logger.trace("dp NDI station \(link.peerNDI) already there")
            }
        }
        if let key = link.pairwiseKey {
            try await installPairwiseKey(key, for: link.peerNDI, of: link.id.peer, on: data)
            try await authorizePeerDataStation(link.peerNDI, of: link.id.peer, on: data)
        }
    }

    func installPairwiseKey(
        _ key: DataPathPairwiseKey, for peerNDI: MACAddress, of peerNMI: MACAddress,
        on data: DataInterface
    ) async throws {
        try await step("install the \(key.cipherSuite) key for the peer's NDI station") {
            guard adapter.nan.secure else {
                throw DataPathError(.noSecureNAN)
            }
            try await session.addKey(
                .pairwise(
                    key.temporalKey, cipher: CipherSuite(rawValue: key.cipherSuite.keyCipherSelector),
                    peerNDI: peerNDI, ofPeer: peerNMI, on: InterfaceIndex(rawValue: data.index)))
            logger.trace("dp \(key.cipherSuite) key installed for \(peerNDI) on \(data.name)")
        }
    }

    func authorizePeerDataStation(_ peerNDI: MACAddress, of peerNMI: MACAddress, on data: DataInterface) async throws {
        try await step("authorize the peer's NDI station") {
            let scope = StationScope.dataInterface(InterfaceIndex(rawValue: data.index), peerManagementAddress: peerNMI)
            try await session.updateStation(.authorize(scope, peer: peerNDI))
        }
    }

    func bindPeerAddress(_ identifier: InterfaceIdentifier, to peerNDI: MACAddress, on data: DataInterface) async {
        let address: [UInt8] = [0xfe, 0x80, 0, 0, 0, 0, 0, 0] + identifier.bytes
        do {
            try NeighborTable.pin(address, to: peerNDI, interface: data.index)
        } catch {
            logger.trace("dp the peer address \(identifier) not bound to \(peerNDI) on \(data.name): \(error)")
        }
    }

    /// Runs one kernel step; a failure names the step.
    private func step(_ name: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as DataPathError {
            throw DataPathError(error.code, "\(name): \(error)", errno: error.errno)
        } catch {
            throw DataPathError(.kernelStep, "\(name): \(error)", errno: (error as? NetlinkError)?.errno)
        }
    }

    func removePeerDataStation(_ peerNDI: MACAddress, of peerNMI: MACAddress, on data: DataInterface) async {
        try? await session.removeStation(
            .dataInterface(InterfaceIndex(rawValue: data.index), peerManagementAddress: peerNMI),
            peer: peerNDI)
    }

    func packetCount(of peerNDI: MACAddress, on data: DataInterface) async -> UInt64? {
        guard let stations = try? await session.stations(on: InterfaceIndex(rawValue: data.index)),
            let station = stations.first(where: { $0.peer == peerNDI })
        else { return nil }
        return UInt64(station.receivedPackets ?? 0) + UInt64(station.transmittedPackets ?? 0)
    }

    func removePeer(_ peerNMI: MACAddress) async {
        try? await session.removeStation(.managementInterface(interface.wdev), peer: peerNMI)
    }
}

import NANSystem
import NANWire

/// The real data-path radio: the nl80211 session that owns the NAN interface, and the adapter's facts.
final class NL80211DataPathRadio: DataPathRadio, Sendable {
    let session: NL80211Session
    let interface: NANInterface
    let adapter: Adapter
    /// Whether NAN runs with a 5 GHz DW (then 5 GHz channels are worth trying).
    let fiveGHzEnabled: Bool

    /// Diagnostics, one line per kernel step that needed a second try.
    let trace: (@Sendable (String) -> Void)?

    init(session: NL80211Session, interface: NANInterface, adapter: Adapter, fiveGHzEnabled: Bool,
         trace: (@Sendable (String) -> Void)? = nil) {
        self.trace = trace
        self.session = session
        self.interface = interface
        self.adapter = adapter
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
        try await session.sendFrame(frame, on: interface.wdev,
                                    frequency: frequency.map { Frequency(rawValue: UInt32(clamping: $0)) }).rawValue
    }

    func createDataInterface() async throws -> DataInterface {
        let name = "nan\(adapter.wiphy.rawValue)data"
        let created = try await session.createDataInterface(on: adapter.wiphy, name: name)
        guard let index = created.index, let address = created.address else {
            try? await session.deleteInterface(created.wdev)
            throw NetlinkError(code: .malformedMessage, call: "NL80211_CMD_NEW_INTERFACE", detail: "NAN data interface without index or address")
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
            NANScheduleChannel(frequency: Frequency(rawValue: UInt32($0.frequency)), channelEntry: $0.kernelChannelEntry)
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

    static func peerSchedule(_ link: NDPLink) -> NANPeerSchedule {
        let availability = link.peerAvailability
        guard !availability.maps.isEmpty else {
            return NANPeerSchedule(peer: link.id.peer, committedDiscoveryWindows: link.peerCommittedDW)
        }
        let channels = availability.channels.map {
            NANScheduleChannel(frequency: Frequency(rawValue: UInt32($0.channel.frequency)), channelEntry: $0.kernelChannelEntry)
        }
        let maps = availability.maps.map { map in
            NANPeerMap(mapID: map.mapID, timeSlots: map.slots.map { $0.map { UInt8($0) } ?? NANLocalSchedule.unavailableSlot })
        }
        return NANPeerSchedule(peer: link.id.peer, committedDiscoveryWindows: link.peerCommittedDW,
                               sequenceID: availability.sequenceID, channels: channels, maps: maps)
    }

    func addPeer(_ link: NDPLink) async throws {
        let ht = link.peerElements.first(where: { $0.id == 45 }).map { Array($0.body) } ?? Self.htCapabilities
        let vht = link.peerElements.first(where: { $0.id == 191 }).map { Array($0.body) }
        let scope = StationScope.managementInterface(interface.wdev)
        try await step("add the peer's NMI station") {
            try await addStation(Self.stationVariants(scope: scope, peer: link.id.peer, ht: ht, vht: vht), kind: "NMI")
        }
        try await step("install the peer's schedule") {
            try await session.setPeerSchedule(Self.peerSchedule(link), on: interface.wdev)
        }
    }

    func addPeerDataStation(_ link: NDPLink, on data: DataInterface) async throws {
        let scope = StationScope.dataInterface(InterfaceIndex(rawValue: data.index), peerManagementAddress: link.id.peer)
        try await step("add the peer's NDI station") {
            try await addStation(Self.stationVariants(scope: scope, peer: link.peerNDI, ht: nil, vht: nil), kind: "NDI")
        }
        if let key = link.pairwiseKey {
            try await installPairwiseKey(key, for: link.peerNDI, of: link.id.peer, on: data)
        }
        try await authorizePeerDataStation(link.peerNDI, of: link.id.peer, on: data)
    }

    func installPairwiseKey(_ key: DataPathPairwiseKey, for peerNDI: MACAddress, of peerNMI: MACAddress,
                            on data: DataInterface) async throws {
        let scope = StationScope.dataInterface(InterfaceIndex(rawValue: data.index), peerManagementAddress: peerNMI)
        try await step("install the \(key.cipherSuite) key for the peer's NDI station") {
            try await session.addKey(NANKey(scope: scope, peer: peerNDI, cipher: CipherSuite(rawValue: key.cipherSuite.keyCipherSelector),
                                            index: 0, data: key.temporalKey))
        }
    }

    func authorizePeerDataStation(_ peerNDI: MACAddress, of peerNMI: MACAddress, on data: DataInterface) async throws {
        let scope = StationScope.dataInterface(InterfaceIndex(rawValue: data.index), peerManagementAddress: peerNMI)
        try await step("authorize the peer's NDI station") {
            try await session.setStationFlags(scope, peer: peerNDI, mask: .authorized, set: .authorized)
        }
    }

    /// The NEW_STATION forms to try, most complete first: Linux 7.2's NAN station rules are young, so the
    /// first form the kernel accepts is used (and traced). Capabilities only on NMI stations.
    static func stationVariants(scope: StationScope, peer: MACAddress, ht: [UInt8]?, vht: [UInt8]?) -> [NANStationParameters] {
        // Linux 7.2 refuses supported rates on NAN stations and capabilities on NDI stations, and wants
        // them added authenticated or associated.
        var list: [NANStationParameters] = []
        if ht != nil || vht != nil {
            list.append(NANStationParameters(scope: scope, peer: peer, htCapability: ht, vhtCapability: vht))
            if vht != nil { list.append(NANStationParameters(scope: scope, peer: peer, htCapability: ht)) }
        }
        list.append(NANStationParameters(scope: scope, peer: peer))
        list.append(NANStationParameters(scope: scope, peer: peer, flagMask: [.authenticated], flagSet: [.authenticated]))
        return list
    }

    /// Adds a station with the first form the kernel takes; an existing station (a second data path to
    /// the same peer) is fine.
    private func addStation(_ variants: [NANStationParameters], kind: String) async throws {
        var last: (any Error)?
        for (number, parameters) in variants.enumerated() {
            do {
                try await session.addStation(parameters)
                trace?("dp \(kind) station \(parameters.peer) added with form \(number + 1) of \(variants.count)")
                return
            } catch let error as NetlinkError where error.code == .alreadyRunning {
                return
            } catch let error as NetlinkError where error.errno?.rawValue == 22 {
                trace?("dp \(kind) station form \(number + 1) refused: \(error)")
                last = error
            }
        }
        if let last { throw last }
    }

    /// Runs one kernel step; a failure names the step.
    private func step(_ name: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            throw DataPathError(description: "\(name): \(error)")
        }
    }

    func removePeerDataStation(_ peerNDI: MACAddress, of peerNMI: MACAddress, on data: DataInterface) async {
        try? await session.removeStation(.dataInterface(InterfaceIndex(rawValue: data.index), peerManagementAddress: peerNMI),
                                         peer: peerNDI)
    }

    func packetCount(of peerNDI: MACAddress, on data: DataInterface) async -> UInt64? {
        guard let stations = try? await session.stations(on: InterfaceIndex(rawValue: data.index)),
              let station = stations.first(where: { $0.peer == peerNDI }) else { return nil }
        return UInt64(station.receivedPackets ?? 0) + UInt64(station.transmittedPackets ?? 0)
    }

    func removePeer(_ peerNMI: MACAddress) async {
        try? await session.removeStation(.managementInterface(interface.wdev), peer: peerNMI)
    }
}

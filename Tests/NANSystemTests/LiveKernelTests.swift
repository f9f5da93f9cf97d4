import NANWire
import NANSystem
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Runs only inside the VM bench (Linux 7.2 with mac80211_hwsim loaded with radios=0), where
/// `WAWARE_LIVE_NL80211=1` is set. With `WAWARE_NL_RECORD=<dir>` every message received is saved,
/// which is how the fixtures in Fixtures/ were captured.
private let liveEnabled = getenv("WAWARE_LIVE_NL80211").map { String(cString: $0) == "1" } ?? false

@Suite(.enabled(if: liveEnabled, "set WAWARE_LIVE_NL80211=1 inside the VM bench"), .serialized)
struct LiveKernelTests {
    /// The library reads no environment: recording is asked for here, as the CLI does.
    init() {
        NetlinkDiagnostics.record(into: getenv("WAWARE_NL_RECORD").map { String(cString: $0) })
    }

    /// Waits for the first event matching `predicate`, failing after `seconds`.
    private func waitFor(
        _ events: AsyncThrowingStream<NL80211Event, any Error>, seconds: Double,
        _ predicate: @escaping @Sendable (NL80211Event) -> Bool
    ) async throws -> NL80211Event? {
        try await withThrowingTaskGroup(of: NL80211Event?.self) { group in
            group.addTask {
                for try await event in events where predicate(event) { return event }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func hwsimRadioWithNANIsListedAsNANCapableAdapter() async throws {
        try await HWSim.withSession { hwsim in
            #expect(hwsim.supportsNAN)
            let id = try await hwsim.addRadio(HWSimRadioConfiguration(name: "wwlive0", destroyOnClose: true))
            let radios = try await hwsim.radios()
            #expect(radios.contains { $0.id == id && $0.name == "wwlive0" })

            try await NL80211.withSession { session in
                let adapters = try await session.adapters()
                let adapter = try #require(adapters.first { $0.name == "wwlive0" })
                #expect(adapter.nan.isSupported)
                #expect(adapter.nan.managementInterface)
                #expect(adapter.nan.dataInterface)
                #expect(adapter.nan.capabilities?.userSpaceDiscoveryEngine == true)
                #expect(adapter.nan.capabilities?.configurableSynchronization == true)
                #expect(adapter.nan.bands.contains(.band2GHz))
                #expect(adapter.driver == "mac80211_hwsim")
                #expect(adapter.permanentAddress != nil)
                #expect(adapter.supportedInterfaceTypes.contains(.nan))
            }
            try await hwsim.removeRadio(id)
            #expect(try await hwsim.radios().contains { $0.id == id } == false)
        }
    }

    @Test func nanInterfaceStartsJoinsClusterAndReportsDiscoveryWindows() async throws {
        try await HWSim.withSession { hwsim in
            _ = try await hwsim.addRadio(HWSimRadioConfiguration(name: "wwlive1", destroyOnClose: true))
            try await NL80211.withSession { session in
                let adapter = try #require(try await session.adapters().first { $0.name == "wwlive1" })
                let nan = try await session.createNANInterface(on: adapter.wiphy, name: "wwnan1")
                #expect(nan.wiphy == adapter.wiphy)
                let listed = try await session.interfaces()
                #expect(listed.contains { $0.wdev == nan.wdev && $0.type == .nan && $0.index == nil })

                try await session.registerFrames(on: nan.wdev, matching: NANFramePrefix.serviceDiscovery)
                try await session.startNAN(on: nan.wdev, configuration: NANConfiguration(masterPreference: 10))
                do {
                    try await session.startNAN(on: nan.wdev)
                    Issue.record("second START_NAN succeeded")
                } catch let error as NetlinkError {
                    #expect(error.code == .alreadyRunning)
                    #expect(error.errno == .fileExists)
                }

                let joined = try await waitFor(session.events, seconds: 10) {
                    if case .clusterJoined = $0 { return true } else { return false }
                }
                guard case .clusterJoined(let wdev, let cluster, _) = joined else {
                    Issue.record("no clusterJoined event within 10 s")
                    return
                }
                #expect(wdev == nan.wdev)
                #expect(cluster.bytes.prefix(4) == [0x50, 0x6f, 0x9a, 0x01])

                let window = try await waitFor(session.events, seconds: 5) {
                    if case .nextDiscoveryWindow = $0 { return true } else { return false }
                }
                guard case .nextDiscoveryWindow(let windowWdev, let frequency) = window else {
                    Issue.record("no nextDiscoveryWindow event within 5 s")
                    return
                }
                #expect(windowWdev == nan.wdev)
                #expect(frequency == .nan2GHz || frequency == .nan5GHzHigh)

                try await session.changeNANConfiguration(on: nan.wdev, NANConfiguration(masterPreference: 30))
                try await session.stopNAN(on: nan.wdev)
                do {
                    try await session.changeNANConfiguration(on: nan.wdev, NANConfiguration(masterPreference: 30))
                    Issue.record("CHANGE_NAN_CONFIG succeeded after STOP_NAN")
                } catch let error as NetlinkError {
                    #expect(error.code == .notRunning, "\(error)")
                }
                try await session.deleteInterface(nan.wdev)
                let removed = try await waitFor(session.events, seconds: 5) {
                    if case .interfaceRemoved(_, let wdev, _) = $0 { return wdev == nan.wdev } else { return false }
                }
                #expect(removed != nil, "no interfaceRemoved event for the deleted NAN interface")
                do {
                    try await session.stopNAN(on: nan.wdev)
                    Issue.record("STOP_NAN on a deleted interface succeeded")
                } catch let error as NetlinkError {
                    #expect(error.code == .noSuchDevice, "\(error)")
                }
            }
        }
    }

    @Test func closingTheSessionDestroysItsNANInterfaceAndFinishesEvents() async throws {
        try await HWSim.withSession { hwsim in
            _ = try await hwsim.addRadio(HWSimRadioConfiguration(name: "wwlive2", destroyOnClose: true))
            let owner = try NL80211Session()
            let adapter = try #require(try await owner.adapters().first { $0.name == "wwlive2" })
            let nan = try await owner.createNANInterface(on: adapter.wiphy, name: "wwnan2")
            owner.close()
            // The stream must finish once the session is closed (the VM bench's timeout catches a hang).
            for try await _ in owner.events {}
            do {
                try await owner.stopNAN(on: nan.wdev)
                Issue.record("a request on a closed session succeeded")
            } catch let error as NetlinkError {
                #expect(error.code == .closed)
            }
            try await NL80211.withSession { observer in
                // The kernel tears the interface down when its owning socket closes.
                var gone = false
                for _ in 0..<20 where !gone {
                    gone = try await !observer.interfaces().contains { $0.wdev == nan.wdev }
                    if !gone { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(gone)
            }
        }
    }

    @Test func peerStationAndDataInterfaceCanBeCreatedOnARunningNANDevice() async throws {
        try await HWSim.withSession { hwsim in
            _ = try await hwsim.addRadio(HWSimRadioConfiguration(name: "wwlive3", destroyOnClose: true))
            try await NL80211.withSession { session in
                let adapter = try #require(try await session.adapters().first { $0.name == "wwlive3" })
                let nan = try await session.createNANInterface(on: adapter.wiphy, name: "wwnan3")
                try await session.startNAN(on: nan.wdev, configuration: NANConfiguration(masterPreference: 10))
                let peer = try #require(MACAddress(bytes: [0x02, 0x00, 0x00, 0x00, 0x33, 0x01]))
                let nmi = StationScope.managementInterface(nan.wdev)
                do {
                    try await session.addStation(NANStationParameters(scope: nmi, peer: peer))
                    let stations = try await session.stations(on: nan.wdev)
                    #expect(stations.contains { $0.peer == peer })
                    try await session.removeStation(nmi, peer: peer)
                } catch let error as NetlinkError {
                    Issue.record("NMI station: \(error)")
                }
                do {
                    let ndi = try await session.createInterface(on: adapter.wiphy, name: "wwndi3", type: .nanData)
                    #expect(ndi.type == .nanData)
                    #expect(ndi.index != nil)
                    try await session.deleteInterface(ndi.wdev)
                } catch let error as NetlinkError {
                    Issue.record("NAN data interface: \(error)")
                }
                try await session.stopNAN(on: nan.wdev)
            }
        }
    }

    /// The order Linux 7.2 needs for a data path's stations: NMI station (authenticated, associated), then
    /// its HT capabilities with SET_STATION (NEW_STATION drops them: a NAN station has no WME), then the NDI
    /// station naming its NMI; then a pairwise key for it and its authorization, as a secure data path does.
    @Test func ndiStationIsAcceptedOnceItsNMIStationHasHTCapabilities() async throws {
        try await HWSim.withSession { hwsim in
            _ = try await hwsim.addRadio(HWSimRadioConfiguration(name: "wwlive5", destroyOnClose: true))
            try await NL80211.withSession { session in
                let adapter = try #require(try await session.adapters().first { $0.name == "wwlive5" })
                let nan = try await session.createNANInterface(on: adapter.wiphy, name: "wwnan5")
                try await session.startNAN(on: nan.wdev, configuration: NANConfiguration(masterPreference: 10))
                let peerNMI = try #require(MACAddress(bytes: [0x02, 0x00, 0x00, 0x00, 0x55, 0x01]))
                let peerNDI = try #require(MACAddress(bytes: [0x02, 0x00, 0x00, 0x00, 0x55, 0x02]))
                let nmi = StationScope.managementInterface(nan.wdev)
                let ndi = try await session.createDataInterface(on: adapter.wiphy, name: "wwndi5")
                let index = try #require(ndi.index)
                let ndiScope = StationScope.dataInterface(index, peerManagementAddress: peerNMI)
                do {
                    try await session.addStation(NANStationParameters(scope: nmi, peer: peerNMI))
                    // Without HT on the NMI station the kernel refuses the NDI station.
                    await #expect(throws: NetlinkError.self) {
                        try await session.addStation(NANStationParameters(scope: ndiScope, peer: peerNDI))
                    }
                    let ht: [UInt8] = [0x72, 0x10, 0x1b, 0xff, 0xff] + [UInt8](repeating: 0, count: 21)
                    try await session.updateStation(
                        .authorize(nmi, peer: peerNMI, capabilities: NANPeerCapabilities(ht: ht)))
                    let flags: StationFlags = [.authenticated, .associated, .managementFrameProtection]
                    try await session.addStation(
                        NANStationParameters(scope: ndiScope, peer: peerNDI, flagMask: flags, flagSet: flags))
                    #expect(try await session.stations(on: index).contains { $0.peer == peerNDI })
                    if adapter.nan.secure {
                        try await session.addKey(
                            .pairwise(
                                [UInt8](repeating: 0x5a, count: 16), cipher: .ccmp128,
                                peerNDI: peerNDI, ofPeer: peerNMI, on: index))
                    }
                    try await session.updateStation(.authorize(ndiScope, peer: peerNDI))
                    try await session.removeStation(ndiScope, peer: peerNDI)
                    try await session.removeStation(nmi, peer: peerNMI)
                } catch let error as NetlinkError {
                    Issue.record("data-path stations: \(error)")
                }
                try await session.deleteInterface(ndi.wdev)
                try await session.stopNAN(on: nan.wdev)
            }
        }
    }

    @Test func concurrentRequestsOnOneSessionAllGetTheirOwnReplies() async throws {
        try await HWSim.withSession { hwsim in
            _ = try await hwsim.addRadio(HWSimRadioConfiguration(name: "wwlive4", destroyOnClose: true))
            try await NL80211.withSession { session in
                let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                    for round in 0..<8 {
                        group.addTask {
                            round.isMultiple(of: 2)
                                ? try await session.adapters().count : try await session.interfaces().count
                        }
                    }
                    var counts: [Int] = []
                    for try await count in group { counts.append(count) }
                    return counts
                }
                #expect(counts.count == 8)
                #expect(counts.allSatisfy { $0 >= 1 })
                // A cancelled request does not disturb the session.
                let cancelled = Task { try await session.adapters() }
                cancelled.cancel()
                _ = await cancelled.result
                #expect(try await session.adapters().contains { $0.name == "wwlive4" })
            }
        }
    }

    @Test func localScheduleOnChannel6IsAcceptedAndCleared() async throws {
        try await HWSim.withSession { hwsim in
            _ = try await hwsim.addRadio(HWSimRadioConfiguration(name: "wwlive5", destroyOnClose: true))
            try await NL80211.withSession { session in
                let adapter = try #require(try await session.adapters().first { $0.name == "wwlive5" })
                let nan = try await session.createNANInterface(on: adapter.wiphy, name: "wwnan5")
                try await session.startNAN(on: nan.wdev, configuration: NANConfiguration(masterPreference: 10))
                // Channel entry (Table 100): operating class 81, channel bitmap bit 5 (channel 6),
                // primary channel bitmap 0, auxiliary channel bitmap 0.
                let entry: [UInt8] = [81, 0x20, 0x00, 0x00, 0x00, 0x00]
                var slots = [UInt8](repeating: NANLocalSchedule.unavailableSlot, count: 32)
                slots[8] = 0
                slots[9] = 0
                // NAN Availability attribute: id 0x12, length, sequence 1, control map 1, one committed
                // entry with a 512 TU / 16 TU time bitmap (slots 8, 9) on channel 6.
                let entryBody: [UInt8] = [
                    0x01, 0x11, 0x18, 0x00, 0x04, 0x00, 0x03, 0x00, 0x00, 0x11, 81, 0x20, 0x00, 0x00,
                ]
                let body: [UInt8] = [0x01, 0x01, 0x00, UInt8(entryBody.count), 0x00] + entryBody
                let blob: [UInt8] = [0x12, UInt8(body.count), 0x00] + body
                do {
                    try await session.setLocalSchedule(
                        NANLocalSchedule(
                            channels: [NANScheduleChannel(frequency: .nan2GHz, channelEntry: entry)],
                            timeSlots: slots, availabilityAttribute: blob), on: nan.wdev)
                    try await session.setLocalSchedule(.cleared, on: nan.wdev)
                } catch let error as NetlinkError {
                    Issue.record("local schedule: \(error)")
                }
                // A refusal carries the kernel's extended-ack text.
                do {
                    try await session.setLocalSchedule(
                        NANLocalSchedule(
                            channels: [NANScheduleChannel(frequency: .nan2GHz, channelEntry: entry)],
                            timeSlots: slots, availabilityAttribute: [0x12]), on: nan.wdev)
                    Issue.record("a 1-byte availability attribute was accepted")
                } catch let error as NetlinkError {
                    #expect(error.errno == .invalidArgument)
                    #expect(error.kernelMessage?.contains("Too short") == true, "\(error)")
                }
                try await session.stopNAN(on: nan.wdev)
            }
        }
    }

    @Test func serviceDiscoveryFrameSentByOneRadioIsReceivedByTheOther() async throws {
        try await HWSim.withSession { hwsim in
            _ = try await hwsim.addRadio(HWSimRadioConfiguration(name: "wwliveA", destroyOnClose: true))
            _ = try await hwsim.addRadio(HWSimRadioConfiguration(name: "wwliveB", destroyOnClose: true))
            try await NL80211.withSession { a in
                try await NL80211.withSession { b in
                    let adapters = try await a.adapters()
                    let phyA = try #require(adapters.first { $0.name == "wwliveA" })
                    let phyB = try #require(adapters.first { $0.name == "wwliveB" })
                    let nanA = try await a.createNANInterface(on: phyA.wiphy, name: "wwnanA")
                    let nanB = try await b.createNANInterface(on: phyB.wiphy, name: "wwnanB")
                    try await b.registerFrames(on: nanB.wdev, matching: NANFramePrefix.serviceDiscovery)
                    try await a.startNAN(on: nanA.wdev, configuration: NANConfiguration(masterPreference: 20))
                    try await b.startNAN(on: nanB.wdev, configuration: NANConfiguration(masterPreference: 10))

                    // Send one SDF from A at each of its next discovery windows until B hears one.
                    let sender = Task {
                        do {
                            var cluster: MACAddress?
                            for try await event in a.events {
                                if case .clusterJoined(_, let id, _) = event { cluster = id }
                                guard case .nextDiscoveryWindow(_, let frequency) = event, let cluster else { continue }
                                let frame = Self.serviceDiscoveryFrame(from: nanA.address, cluster: cluster)
                                _ = try await a.sendFrame(frame, on: nanA.wdev, frequency: frequency)
                            }
                        } catch is CancellationError {
                        } catch  where Task.isCancelled {
                            // Stopped mid-send once B heard a frame: not a failure.
                        } catch {
                            Issue.record("sending an SDF failed: \(error)")
                        }
                    }
                    // The sender must finish while session A is still open: a send still in flight
                    // when the session closes fails with "session closed".
                    let received: NL80211Event?
                    do {
                        received = try await waitFor(b.events, seconds: 25) {
                            if case .frameReceived = $0 { return true } else { return false }
                        }
                    } catch {
                        sender.cancel()
                        await sender.value
                        throw error
                    }
                    sender.cancel()
                    await sender.value
                    guard case .frameReceived(let wdev, let frequency, let signal, let bytes) = received else {
                        Issue.record("B received no SDF within 25 s")
                        return
                    }
                    #expect(wdev == nanB.wdev)
                    #expect(frequency.rawValue > 2400)
                    #expect(signal != nil)
                    #expect(Array(bytes[10..<16]) == nanA.address.bytes)
                    #expect(Array(bytes[24..<30]) == NANFramePrefix.serviceDiscovery)
                }
            }
        }
    }

    /// A minimal SDF: management action header to broadcast, A3 = the cluster ID, then a public
    /// action body with one Service Descriptor attribute.
    static func serviceDiscoveryFrame(from source: MACAddress, cluster: MACAddress) -> [UInt8] {
        var frame: [UInt8] = [0xd0, 0x00, 0x00, 0x00]
        frame += [0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        frame += source.bytes
        frame += cluster.bytes
        frame += [0x00, 0x00]
        frame += NANFramePrefix.serviceDiscovery
        // Service Descriptor attribute (0x03): service id, instance 1, requestor 0, control = publish.
        frame += [0x03, 0x09, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x01, 0x00, 0x00]
        return frame
    }
}

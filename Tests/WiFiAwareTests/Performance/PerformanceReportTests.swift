@testable import NANEngine
@testable import NANSystem
import NANWire
@testable import WiFiAware
import Testing

// A data-path WAPerformanceReport from its parts: the ceiling is the PHY rate times the shared airtime, the
// ratio is capacity over ceiling, Apple's 0-1 signal strength comes from the average signal.

private let peer = MACAddress(bytes: [0x02, 0, 0, 0, 0x01, 0])!

private func station(tx: BitRate?, signal: Int8 = -60, average: Int8? = -54) -> StationInfo {
    var s = StationInfo(
        peer: peer, interface: InterfaceIndex(rawValue: 4), wdev: nil, inactiveMilliseconds: 20,
        receivedBytes: 1000, transmittedBytes: 2000, receivedPackets: 10, transmittedPackets: 20,
        transmitRetries: 3, transmitFailures: 1, signalDBM: signal, averageSignalDBM: average, ackSignalDBM: nil,
        transmitRate: tx, receiveRate: nil, connectedSeconds: 5, expectedThroughputKbps: 40_000)
    s.tidStatistics = [
        StationTIDStatistics(tid: 0, receivedMSDUs: 10, transmittedMSDUs: 20), StationTIDStatistics(tid: 5),
    ]
    return s
}

@Suite struct PerformanceReportTests {
    let schedule = DataPathLinkSchedule(
        local: .preferred(fiveGHz: .channel149),
        peer: PeerAvailability([DataPathSchedule.preferred(fiveGHz: .channel149).availabilityAttribute]))

    @Test func ceilingIsRateTimesSharedAirtimeAndRatioIsCapacityOverCeiling() throws {
        let rate = BitRate(hundredKilobitsPerSecond: 650, mcs: 7, spatialStreams: nil, width: .mhz20, modulation: .ht)
        let latency = ProbeClient.Latency(
            trafficClass: 0xb8, sent: 4, samples: [.milliseconds(1), .milliseconds(2), .milliseconds(3)])
        let report = WAPerformanceReport.dataPath(
            interface: "nan0data", station: station(tx: rate), schedule: schedule,
            transmitCapacity: ProbeClient.Capacity(bytes: 5_000_000, seconds: 2),
            receiveCapacity: ProbeClient.Capacity(bytes: 2_500_000, seconds: 2),
            latency: [.interactiveVoice: latency], mode: .realtime)
        let ceiling = try #require(report.throughputCeiling)
        #expect(abs(ceiling - 65 * 30 / 32) < 1e-9)
        #expect(report.throughputCapacity == 20)
        #expect(report.receiveCapacity == 10)
        #expect(abs((report.throughputCapacityRatio ?? 0) - 20 / ceiling) < 1e-9)
        #expect(report.signalStrength == -60)
        #expect(report.signalQuality == 0.6)  // average -54 dBm
        #expect(report.frequency == 5745)
        #expect(report.performanceMode == .realtime)
        let voice = try #require(report.transmitLatency[.interactiveVoice])
        #expect(voice.average == .milliseconds(2))
        #expect(voice.median == .milliseconds(2))
        #expect(voice.probesSent == 4 && voice.probesAnswered == 3)
        let link = try #require(report.link)
        #expect(link.tids.map(\.tid) == [0])
        #expect(link.commonSlots == 30)
        #expect(link.expectedThroughput == 40)
        #expect(report.timestamp != nil && report.localTimestamp != nil)
    }

    @Test func aDataPathReportSaysItsFiguresComeFromTheDataPath() {
        let report = WAPerformanceReport.dataPath(
            interface: "nan0data", station: station(tx: nil), schedule: schedule,
            transmitCapacity: nil, receiveCapacity: nil, latency: [:], mode: nil)
        #expect(report.statisticsSource == .dataPath)
        #expect(report.link != nil)
    }

    @Test func aDiscoveryReportSaysItsFiguresComeFromDiscoveryFrames() {
        let facts = PeerRadioFacts(signal: -48, frequency: 2437, discoveryWindowsHeard: 3, lastHeard: .now)
        let report = WAPerformanceReport(facts)
        #expect(report.statisticsSource == .discoveryFrames)
        #expect(report.link == nil && report.signalStrength == -48 && report.frequency == 2437)
        #expect(WAStatisticsSource.allCases.map(\.description) == ["dataPath", "discoveryFrames"])
    }

    @Test func withoutARateOrProbesThereIsNoCeilingOrCapacity() {
        let report = WAPerformanceReport.dataPath(
            interface: "nan0data", station: station(tx: nil, average: nil), schedule: schedule,
            transmitCapacity: nil, receiveCapacity: nil, latency: [:], mode: nil)
        #expect(report.throughputCeiling == nil)
        #expect(report.throughputCapacity == nil)
        #expect(report.throughputCapacityRatio == nil)
        #expect(report.transmitLatency.isEmpty)
        #expect(report.signalQuality == 0.5)  // -60 dBm, no average
    }

    @Test func aRateWithoutTheKernelsFigureComesFromTheMCSTable() {
        func rate(
            _ mcs: UInt8, _ modulation: BitRate.Modulation, nss: UInt8? = nil, width: ChannelWidth, sgi: Bool = false
        ) -> Double? {
            PHYRate.megabitsPerSecond(
                BitRate(
                    hundredKilobitsPerSecond: nil, mcs: mcs, spatialStreams: nss, width: width,
                    modulation: modulation, shortGuardInterval: sgi))
        }
        #expect(rate(7, .ht, width: .mhz20) == 65)
        #expect(rate(15, .ht, width: .mhz20) == 130)
        #expect(rate(7, .ht, width: .mhz40, sgi: true) == 150)
        #expect(rate(9, .vht, nss: 2, width: .mhz80).map { ($0 * 10).rounded() / 10 } == 780)
        #expect(rate(0, .he, width: .mhz20) == nil)
        #expect(rate(12, .vht, width: .mhz20) == nil)
    }

    @Test func signalQualityIsClampedToZeroAndOne() {
        #expect(WAPerformanceReport.signalQuality(dBm: -95) == 0)
        #expect(WAPerformanceReport.signalQuality(dBm: -30) == 1)
        #expect(WAPerformanceReport.signalQuality(dBm: -10) == 1)
    }

    @Test func accessCategoriesMapToTheDSCPLinuxClassifies() {
        #expect(WAAccessCategory.bestEffort.trafficClass == 0)
        #expect(WAAccessCategory.background.trafficClass == 0x20)
        #expect(WAAccessCategory.interactiveVideo.trafficClass == 0x88)
        #expect(WAAccessCategory.interactiveVoice.trafficClass == 0xb8)
        #expect(WAAccessCategory(name: "VO") == .interactiveVoice)
        #expect(WAAccessCategory(name: "bestEffort") == .bestEffort)
        #expect(WAAccessCategory(name: "xx") == nil)
    }
}

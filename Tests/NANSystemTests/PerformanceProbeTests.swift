@testable import NANSystem
import NANWire
import Testing

// The probe messages are total on hostile bytes, and a responder and a client talk over the loopback
// interface (the same code runs over a NAN data interface's link-local address in the VM).

@Suite struct PerformanceProbeTests {
    @Test func probeMessagesRoundTrip() {
        let request = ProbeMessage.CapacityRequest(clientSends: true, maximumBytes: 1 << 33, milliseconds: 2000)
        #expect(ProbeMessage.CapacityRequest(request.bytes) == request)
        let result = ProbeMessage.CapacityResult(bytes: 123_456_789, nanoseconds: 2_000_000_001)
        #expect(ProbeMessage.CapacityResult(result.encoded) == result)
        let probe = ProbeMessage.LatencyProbe(trafficClass: 0xb8, sequence: 77, holdNanoseconds: 1234)
        #expect(probe.bytes.count == ProbeMessage.LatencyProbe.size)
        #expect(ProbeMessage.LatencyProbe(probe.bytes) == probe)
    }

    @Test func probeMessagesRefuseForeignBytes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<80 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(ProbeMessage.CapacityRequest(bytes) == nil)
            #expect(ProbeMessage.CapacityResult(bytes) == nil)
            #expect(ProbeMessage.LatencyProbe(bytes) == nil)
        }
        var wrongVersion = ProbeMessage.LatencyProbe(trafficClass: 0, sequence: 1).bytes
        wrongVersion[4] = 9
        #expect(ProbeMessage.LatencyProbe(wrongVersion) == nil)
        var wrongDirection = ProbeMessage.CapacityRequest(clientSends: false, maximumBytes: 1, milliseconds: 1).bytes
        wrongDirection[5] = 0
        #expect(ProbeMessage.CapacityRequest(wrongDirection) == nil)
    }

    @Test func latencyStatisticsUseNearestRank() {
        let samples = (1...20).map { Duration.milliseconds($0) }
        let latency = ProbeClient.Latency(trafficClass: 0, sent: 25, samples: samples.reversed())
        #expect(latency.lost == 5)
        #expect(latency.median == .milliseconds(10))
        #expect(latency.percentile95 == .milliseconds(19))
        #expect(latency.average == .microseconds(10_500))
        #expect(ProbeClient.Latency(trafficClass: 0, sent: 3, samples: []).average == nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func responderAnswersCapacityBothWaysAndLatencyOverLoopback() async throws {
        let port = UInt16(40_000 + Int.random(in: 0..<20_000))
        let endpoint = LinkLocalEndpoint(address: .loopback, interface: "lo", port: port)
        let responder: ProbeResponder
        do throws(StreamSocketError) {
            responder = try await ProbeResponder.start(on: endpoint, bindTimeout: .seconds(1))
        } catch {
            // A host without IPv6 on loopback cannot run this test; say so rather than pass silently.
            Issue.record("no IPv6 loopback to test on: \(error)")
            return
        }
        defer { responder.stop() }
        let upload = try await ProbeClient.capacity(
            to: endpoint, clientSends: true, maximumBytes: 4 << 20, duration: .milliseconds(300))
        #expect(upload.bytes > 0 && upload.bytes <= 4 << 20)
        #expect((upload.megabitsPerSecond ?? 0) > 0)
        let download = try await ProbeClient.capacity(
            to: endpoint, clientSends: false, maximumBytes: 2 << 20, duration: .milliseconds(300))
        #expect(download.bytes > 0 && download.bytes <= 2 << 20)
        let latency = try await ProbeClient.latency(
            to: endpoint, trafficClass: 0xb8, count: 5, spacing: .milliseconds(5))
        #expect(latency.samples.count == 5)
        #expect((latency.average ?? .zero) > .zero)
        #expect(responder.served.transfers == 2)
        #expect(responder.served.echoes >= 4)
    }

    @Test func nothingListeningIsAPeerUnreachableError() async throws {
        let endpoint = LinkLocalEndpoint(address: .loopback, interface: "lo", port: 9)
        do throws(StreamSocketError) {
            _ = try await ProbeClient.capacity(
                to: endpoint, clientSends: true, maximumBytes: 1, duration: .milliseconds(10),
                connectTimeout: .milliseconds(200))
            Issue.record("a connection to a closed port succeeded")
        } catch {
            #expect(error.isPeerUnreachable, "\(error)")
        }
    }

    @Test func latencyProbesNobodyAnswersAreLostNotAnError() async throws {
        let endpoint = LinkLocalEndpoint(address: .loopback, interface: "lo", port: 9)
        let latency = try await ProbeClient.latency(
            to: endpoint, trafficClass: 0, count: 3, spacing: .milliseconds(5),
            timeout: .milliseconds(100))
        #expect(latency.samples.isEmpty && latency.lost == 3)
    }

    @Test(.timeLimit(.minutes(1)))
    func aStoppedResponderAnswersNoMore() async throws {
        let port = UInt16(40_000 + Int.random(in: 0..<20_000))
        let endpoint = LinkLocalEndpoint(address: .loopback, interface: "lo", port: port)
        guard let responder = try? await ProbeResponder.start(on: endpoint, bindTimeout: .seconds(1)) else {
            Issue.record("no IPv6 loopback to test on")
            return
        }
        responder.stop()
        try await Task.sleep(for: .milliseconds(300))
        await #expect(throws: StreamSocketError.self) {
            try await ProbeClient.capacity(
                to: endpoint, clientSends: true, maximumBytes: 1, duration: .milliseconds(10),
                connectTimeout: .milliseconds(200))
        }
        let latency = try await ProbeClient.latency(
            to: endpoint, trafficClass: 0, count: 2, spacing: .milliseconds(5),
            timeout: .milliseconds(100))
        #expect(latency.samples.isEmpty)
    }
}

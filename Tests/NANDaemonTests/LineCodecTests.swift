import NANEngine
import NANWire
import Testing

@testable import NANDaemon

@Suite struct LineCodecTests {
    @Test func linesSplitAnywhereComeOutWholeAndInOrder() {
        let lines: [[UInt8]] = [Array("{\"a\":1}".utf8), Array("second".utf8), Array("x".utf8)]
        let stream: [UInt8] = lines.flatMap { (line: [UInt8]) -> [UInt8] in line + [0x0A] }
        let expected: [LineCodec.Output] = lines.map { LineCodec.Output.line($0) }
        for cut in 0...stream.count {
            var codec = LineCodec()
            let out = codec.feed(Array(stream[..<cut])) + codec.feed(Array(stream[cut...]))
            #expect(out == expected)
            #expect(codec.pendingCount == 0)
        }
    }

    @Test func aLineLongerThanTheMaximumEndsTheStream() {
        var codec = LineCodec(maximum: 16)
        #expect(codec.feed([UInt8](repeating: 0x41, count: 15)) == [])
        #expect(codec.feed([0x41]) == [.overlong])
    }

    @Test func garbageGivesAnInvalidRequestNeverATrap() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if case .success = LineCodec.decodeRequest(bytes) { Issue.record("random bytes made a request") }
            _ = LineCodec.decodeMessage(bytes)
        }
        let samples = ["", "{", "[]", "null", "{\"v\":1}", "{\"v\":1,\"id\":3,\"method\":\"fly\"}", "{\"id\":-1}"]
        for sample in samples {
            guard case .failure(let failure) = LineCodec.decodeRequest(Array(sample.utf8)) else {
                Issue.record("\(sample) was taken as a request")
                continue
            }
            #expect(failure.error.code == "invalidRequest")
        }
    }

    @Test func anotherVersionIsRefusedWithItsID() {
        let line = Array("{\"v\":7,\"id\":9,\"method\":\"hello\"}".utf8)
        guard case .failure(let failure) = LineCodec.decodeRequest(line) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.id == 9)
        #expect(failure.error.code == "unsupportedVersion")
    }

    @Test func aRequestRoundTripsAsOneLine() throws {
        var request = DaemonRequest(id: 5, method: .send)
        request.session = 2
        request.send = WireSend(peer: "02:00:00:00:01:00", peerInstance: 3, payload: [0x0A, 0, 255])
        let line = LineCodec.encode(request)
        #expect(line.last == 0x0A)
        #expect(!line.dropLast().contains(0x0A))
        #expect(try LineCodec.decodeRequest(Array(line.dropLast())).get() == request)
    }

    @Test func badWireValuesAreRefusedNotTrapped() {
        var publish = WirePublish(.init(serviceID: .init(1, 2, 3, 4, 5, 6)))
        publish.serviceID = "zz"
        #expect(throws: DaemonError.self) { try publish.configuration() }
        publish.serviceID = "010203040506"
        publish.receiveFilter = [9, 1]
        #expect(throws: DaemonError.self) { try publish.configuration() }
        publish.receiveFilter = nil
        publish.timeToLiveMilliseconds = -5
        #expect(throws: DaemonError.self) { try publish.configuration() }
    }
}

import Testing
@testable import WiFiAware

@Suite struct ConnectionFramingTests {
    @Test func framesSplitAnywhereComeOutWholeAndInOrder() throws {
        let frames = [
            ConnectionFrame(kind: .message, payload: Array("hello".utf8)),
            ConnectionFrame(kind: .message, payload: []),
            ConnectionFrame(kind: .resourceData, payload: (0..<1000).map { UInt8(truncatingIfNeeded: $0) }),
        ]
        let wire = frames.flatMap(\.encoded)
        for cut in [1, 2, 5, 7, 333, wire.count] {
            var decoder = ConnectionFrameDecoder(maximumPayload: 4096)
            var out: [ConnectionFrame] = []
            var offset = 0
            while offset < wire.count {
                decoder.append(Array(wire[offset..<min(wire.count, offset + cut)]))
                offset += cut
                while let frame = try decoder.next() { out.append(frame) }
            }
            #expect(out == frames)
            #expect(decoder.pendingCount == 0)
        }
    }

    @Test func aLengthAboveTheLimitIsRefusedBeforeItsBytesArrive() {
        var decoder = ConnectionFrameDecoder(maximumPayload: 10)
        decoder.append(ConnectionFrame.header(.message, length: 11))
        #expect(throws: ConnectionFrameError.self) { try decoder.next() }
    }

    @Test func anUnknownKindIsAnErrorNotATrap() {
        var decoder = ConnectionFrameDecoder(maximumPayload: 10)
        decoder.append([0x7f, 0, 0, 0, 1, 0])
        #expect(throws: ConnectionFrameError.self) { try decoder.next() }
    }

    @Test func randomBytesNeverTrapTheDecoder() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var decoder = ConnectionFrameDecoder(maximumPayload: 64)
            decoder.append(
                (0..<Int.random(in: 0..<80, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
            while let frame = try? decoder.next() { #expect(frame.payload.count <= 64) }
        }
    }

    @Test func thePrefaceRoundTripsAndRefusesForeignBytes() throws {
        let me = WAPeerIdentifier(bytes: Array(1...16))
        let preface = ConnectionPreface(peer: me, mode: .byteStream)
        #expect(preface.encoded.count == ConnectionPreface.size)
        #expect(try ConnectionPreface(decoding: preface.encoded) == preface)
        #expect(throws: WAError.self) { try ConnectionPreface(decoding: Array("GET / HTTP/1.1\r\n\r\n1234".utf8)) }
        var wrongVersion = preface.encoded
        wrongVersion[4] = 9
        #expect(throws: WAError.self) { try ConnectionPreface(decoding: wrongVersion) }
    }

    @Test func thePortTravelsAtTheEndOfTheServiceInfo() {
        #expect(ConnectionServiceInfo.adding(port: 7000, to: []) == Array("waport=7000".utf8))
        let info = ConnectionServiceInfo.adding(port: 443, to: Array("v=1".utf8))!
        #expect(String(decoding: info, as: UTF8.self) == "v=1;waport=443")
        #expect(ConnectionServiceInfo.port(in: info) == 443)
        #expect(ConnectionServiceInfo.port(in: Array("hello".utf8)) == nil)
        #expect(ConnectionServiceInfo.port(in: Array("waport=99999".utf8)) == nil)
        #expect(ConnectionServiceInfo.port(in: Array("waport=".utf8)) == nil)
        #expect(ConnectionServiceInfo.adding(port: 1, to: [UInt8](repeating: 65, count: 250)) == nil)
    }

    @Test func aResourceHeaderRoundTripsAndRefusesPathNames() throws {
        let offer = WAResourceOffer(name: "photo.jpg", size: 5_000_000_000)
        #expect(try WAResourceOffer(decoding: offer.encoded) == offer)
        #expect(throws: WAError.self) {
            try WAResourceOffer(decoding: WAResourceOffer(name: "../etc/passwd", size: 1).encoded)
        }
        #expect(throws: WAError.self) { try WAResourceOffer(decoding: [0, 0]) }
    }

    @Test func theLargerInitiatorsConnectionIsTheOneKept() {
        let small = WAPeerIdentifier(bytes: [UInt8](repeating: 1, count: 16))
        let large = WAPeerIdentifier(bytes: [UInt8](repeating: 2, count: 16))
        #expect(small < large)
        #expect(!(large < small))
    }
}

import Testing
@testable import WiFiAware

/// The datagram pieces without sockets: the offer's codec, the replay window, sealing and opening.
@Suite struct DatagramProtocolTests {
    static func keys(initiator: Bool, material: [UInt8] = Array(0..<72)) throws -> DatagramKeys {
        try DatagramKeys(material: material, isInitiator: initiator, protection: "test")
    }

    static func pair(maximumSize: Int = 1200) throws -> (DatagramSealer, DatagramOpener) {
        let a = try keys(initiator: true), b = try keys(initiator: false)
        return (
            try DatagramSealer(key: a.sendKey, salt: a.sendSalt),
            try DatagramOpener(key: b.receiveKey, salt: b.receiveSalt, maximumSize: maximumSize)
        )
    }

    @Test func anOfferRoundTripsAndMalformedOnesAreTypedErrors() throws {
        let offer = DatagramOffer(port: 40123, maximumSize: 1200, random: Array(0..<32))
        #expect(offer.encoded.count == DatagramOffer.size)
        #expect(try DatagramOffer(decoding: offer.encoded) == offer)
        var wrongMagic = offer.encoded
        wrongMagic[0] = 0
        var zeroPort = offer.encoded
        (zeroPort[5], zeroPort[6]) = (0, 0)
        var hugeSize = offer.encoded
        (hugeSize[7], hugeSize[8]) = (0xff, 0xff)
        for bad in [[], Array(offer.encoded.dropLast()), wrongMagic, zeroPort, hugeSize] {
            #expect(throws: WAError.self) { try DatagramOffer(decoding: bad) }
        }
    }

    @Test func thePrefaceCarriesTheOfferFlagBesideTheMode() throws {
        let peer = WAPeerIdentifier(bytes: Array(1...16))
        let preface = ConnectionPreface(peer: peer, mode: .byteStream, offersDatagrams: true)
        let decoded = try ConnectionPreface(decoding: preface.encoded)
        #expect(decoded.mode == .byteStream && decoded.offersDatagrams)
        #expect(
            try !ConnectionPreface(decoding: ConnectionPreface(peer: peer, mode: .messages).encoded).offersDatagrams)
    }

    @Test func eachSideSendsWithTheKeyTheOtherReceivesWith() throws {
        let a = try Self.keys(initiator: true), b = try Self.keys(initiator: false)
        #expect(a.sendKey == b.receiveKey && a.sendSalt == b.receiveSalt)
        #expect(a.receiveKey == b.sendKey && a.sendKey != a.receiveKey)
    }

    @Test func aDatagramOpensOnceAndItsReplayIsRefused() throws {
        var (sealer, opener) = try Self.pair()
        let packet = try sealer.seal(Array("ping".utf8))
        #expect(packet.count == 4 + DatagramPacket.overhead)
        let first = opener.open(packet)
        let again = opener.open(packet)
        #expect(first == .success(Array("ping".utf8)))
        #expect(again == .failure(.replayed))
    }

    @Test func datagramsOutOfOrderWithinTheWindowOpen() throws {
        var (sealer, opener) = try Self.pair()
        let packets = try (0..<70).map { i in try sealer.seal([UInt8(i)]) }
        let results = [69, 10, 5, 10].map { opener.open(packets[$0]) }
        #expect(results[0] == .success([69]))
        #expect(results[1] == .success([10]))
        #expect(results[2] == .failure(.replayed))  // older than the 64 before the highest
        #expect(results[3] == .failure(.replayed))
    }

    @Test func alteredStrayAndOversizedDatagramsAreRefused() throws {
        var (sealer, opener) = try Self.pair(maximumSize: 8)
        var altered = try sealer.seal(Array("hello".utf8))
        altered[altered.count - 1] ^= 0x40
        var stranger = try DatagramSealer(key: [UInt8](repeating: 7, count: 32), salt: [1, 2, 3, 4])
        let forged = try stranger.seal(Array("hi".utf8))
        let oversized = try sealer.seal([UInt8](repeating: 1, count: 9))
        let genuine = try sealer.seal(Array("ok".utf8))
        let results = [altered, forged, oversized, [0xD1, 0, 0], [UInt8](repeating: 0, count: 40), genuine].map {
            opener.open($0)
        }
        #expect(results[0] == .failure(.unauthenticated))
        #expect(results[1] == .failure(.unauthenticated))
        #expect(results[2] == .failure(.tooLarge))
        #expect(results[3] == .failure(.malformed))
        #expect(results[4] == .failure(.malformed))
        // The refusals did not move the window: the next genuine datagram opens.
        #expect(results[5] == .success(Array("ok".utf8)))
    }

    @Test func plainKeysDependOnBothOffersAndAgreeOnBothSides() throws {
        let i = DatagramOffer(port: 1000, maximumSize: 1200, random: Array(repeating: 1, count: 32))
        let r = DatagramOffer(port: 2000, maximumSize: 1200, random: Array(repeating: 2, count: 32))
        let material = try DatagramKeys.plainMaterial(initiator: i, responder: r)
        #expect(material.count == DatagramKeys.materialSize)
        #expect(
            try DatagramKeys.plainMaterial(
                initiator: i, responder: DatagramOffer(port: 2001, maximumSize: 1200, random: r.random)) != material)
    }

    @Test func optionsOutsideTheirRangeAreRefused() {
        var options = WADatagramOptions()
        options.maximumSize = 0
        #expect(throws: WAError.self) { try options.check() }
        options = WADatagramOptions()
        options.queueLimit = 5000
        #expect(throws: WAError.self) { try options.check() }
    }
}

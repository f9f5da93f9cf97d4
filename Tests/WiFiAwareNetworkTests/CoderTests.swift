import Testing

@testable import WiFiAwareNetwork

/// Codable messages: JSON and the compact binary property list round-trip a value; a message that is not
/// the expected type is a coding error.
@Suite struct CoderTests {
    struct Move: Codable, Equatable, Sendable {
        var player: String
        var x: Int
        var y: Int
        var payload: Data
    }

    static let move = Move(player: "ada", x: 3, y: -4, payload: Data(repeating: 0xA5, count: 64))

    @Test func jsonRoundTripsAValue() throws {
        let coder = Coder(Move.self, using: .json) { TLS() }
        let bytes = try coder.encode(Self.move)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"player\":\"ada\""))
        #expect(try coder.decode(bytes) == Self.move)
    }

    @Test func theBinaryPropertyListRoundTripsAValue() throws {
        let coder = Coder(Move.self, using: .propertyList) { TLS() }
        let bytes = try coder.encode(Self.move)
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try coder.decode(bytes) == Self.move)
    }

    @Test func theCompactBinaryFormatRoundTripsAValueInFewerBytesThanJSONOrAPropertyList() throws {
        let binary = try Coder(Move.self, using: .binary) { TLS() }.encode(Self.move)
        #expect(try Coder(Move.self, using: .binary) { TLS() }.decode(binary) == Self.move)
        let json = try Coder(Move.self, using: .json) { TLS() }.encode(Self.move)
        let plist = try Coder(Move.self, using: .propertyList) { TLS() }.encode(Self.move)
        #expect(binary.count < json.count && binary.count < plist.count)
    }

    struct Everything: Codable, Equatable, Sendable {
        enum Kind: String, Codable, Sendable { case small, large }
        var flag = true
        var small: Int8 = -128
        var large: UInt64 = .max
        var negative = Int64.min
        var ratio = 0.1
        var half: Float = 0.5
        var text = "héllo ✓"
        var nothing: String? = nil
        var something: Int? = 7
        var kind = Kind.large
        var list = [[1, 2], [], [3]]
        var map = ["a": 1.5]
        var moves = [CoderTests.move]
    }

    @Test func theCompactBinaryFormatKeepsEveryKindOfValue() throws {
        let coder = Coder(Everything.self, using: .binary) { TLS() }
        #expect(try coder.decode(try coder.encode(Everything())) == Everything())
    }

    @Test func malformedCompactBinaryIsACodingErrorNeverATrap() throws {
        let coder = Coder(Everything.self, using: .binary) { TLS() }
        let good = try coder.encode(Everything())
        // Cut short at every length, and a count far beyond the bytes.
        for length in 0..<good.count {
            #expect(throws: NWError.self) { _ = try coder.decode(Array(good.prefix(length))) }
        }
        #expect(throws: NWError.self) { _ = try coder.decode([9, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) }
        // Nested too deep.
        #expect(throws: NWError.self) { _ = try coder.decode(Array(repeating: 9, count: 300) + [1]) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? coder.decode(bytes)
            _ = try? BinaryValue(decoding: bytes)
        }
    }

    @Test func aMessageOfAnotherShapeIsACodingError() throws {
        struct Other: Codable, Sendable { var name: String }
        let coder = Coder(sending: Other.self, receiving: Move.self, using: .json) { TLS() }
        let bytes = try coder.encode(Other(name: "x"))
        #expect {
            _ = try coder.decode(bytes)
        } throws: { ($0 as? NWError)?.code == .coding }
        #expect {
            _ = try coder.decode([0xFF, 0x00])
        } throws: { ($0 as? NWError)?.code == .coding }
    }

    @Test func aCoderMessageIsFramedByA4ByteLength() throws {
        let coder = Coder(Move.self, using: .json) { TLS() }
        let value = try coder.encode(Self.move)
        let frame = try coder.framing.encode(type: 0, value: value)
        #expect(frame.prefix(4) == [0, 0, UInt8(value.count >> 8), UInt8(value.count & 0xFF)][...])
    }
}

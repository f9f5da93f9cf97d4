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

    @Test func theBinaryPropertyListRoundTripsAValueInFewerBytes() throws {
        let binary = Coder(Move.self, using: .propertyList) { TLS() }
        let json = Coder(Move.self, using: .json) { TLS() }
        let bytes = try binary.encode(Self.move)
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try binary.decode(bytes) == Self.move)
        #expect(bytes.count < (try json.encode(Self.move)).count)
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

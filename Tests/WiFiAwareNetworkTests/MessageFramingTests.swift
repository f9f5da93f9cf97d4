import Testing

@testable import WiFiAwareNetwork

/// TLV and Coder framing: big-endian type and length fields, messages cut out of a stream whatever its
/// pieces, and malformed input reported as a typed error (never a trap).
@Suite struct MessageFramingTests {
    @Test func aTLVMessageIsTypeThenLengthBigEndianThenValue() throws {
        let framing = MessageFraming(typeSize: 1, lengthSize: 4)
        #expect(try framing.encode(type: 7, value: [0xAA, 0xBB]) == [7, 0, 0, 0, 2, 0xAA, 0xBB])
        let wide = MessageFraming(typeSize: 4, lengthSize: 2)
        #expect(try wide.encode(type: 0x0102_0304, value: []) == [1, 2, 3, 4, 0, 0])
    }

    @Test func theStackBuildersPickTheFieldSizes() {
        #expect(TLV(type: UInt8.self, length: UInt16.self) { TLS() }.framing.headerSize == 3)
        #expect(TLV { TLS() }.framing == MessageFraming(typeSize: 4, lengthSize: 4))
        // A 2-byte length cannot announce more than 65535 bytes.
        #expect(TLV(type: UInt8.self, length: UInt16.self) { TCP() }.framing.maximumLength == 65535)
    }

    @Test func messagesComeOutOfAStreamWhateverItsPieces() throws {
        let framing = MessageFraming(typeSize: 2, lengthSize: 4)
        let messages: [(UInt64, [UInt8])] = [(1, Array("one".utf8)), (2, []), (65535, Array(repeating: 9, count: 300))]
        let stream = try messages.flatMap { try framing.encode(type: $0.0, value: $0.1) }
        for piece in [1, 2, 5, 64, stream.count] {
            var buffer: [UInt8] = []
            var decoded: [(UInt64, [UInt8])] = []
            for start in stride(from: 0, to: stream.count, by: piece) {
                buffer += stream[start..<min(start + piece, stream.count)]
                while let message = try framing.decode(buffer[...]) {
                    decoded.append((message.type, message.value))
                    buffer.removeFirst(message.size)
                }
            }
            #expect(buffer.isEmpty)
            #expect(decoded.map(\.0) == messages.map(\.0))
            #expect(decoded.map(\.1) == messages.map(\.1))
        }
    }

    @Test func anIncompleteMessageWaitsForMoreBytes() throws {
        let framing = MessageFraming(typeSize: 1, lengthSize: 4)
        #expect(try framing.decode([7, 0, 0][...]) == nil)
        #expect(try framing.decode([7, 0, 0, 0, 3, 1, 2][...]) == nil)
        // A slice that does not start at index 0 (the rest of a buffer).
        let buffer: [UInt8] = [0xFF, 7, 0, 0, 0, 1, 42]
        let message = try #require(try framing.decode(buffer[1...]))
        #expect(message.type == 7 && message.value == [42] && message.size == 6)
    }

    @Test func aLengthBeyondTheLimitIsAMalformedMessage() {
        let framing = MessageFraming(typeSize: 1, lengthSize: 8, maximumLength: 1000)
        let header: [UInt8] = [1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect {
            _ = try framing.decode(header[...])
        } throws: { ($0 as? NWError)?.code == .malformedMessage }
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        for typeSize in 0...8 {
            for lengthSize in 1...8 {
                let framing = MessageFraming(typeSize: typeSize, lengthSize: lengthSize, maximumLength: 4096)
                for _ in 0..<200 {
                    var buffer = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                    // Whatever comes out is a message, a wait for more bytes, or a malformed-message error.
                    while let message = try? framing.decode(buffer[...]) {
                        #expect(message.size <= buffer.count)
                        buffer.removeFirst(message.size)
                    }
                }
            }
        }
    }

    @Test func whatDoesNotFitItsFieldsIsNotSent() {
        let framing = MessageFraming(typeSize: 1, lengthSize: 1)
        #expect {
            _ = try framing.encode(type: 256, value: [])
        } throws: { ($0 as? NWError)?.code == .coding }
        #expect {
            _ = try framing.encode(type: 1, value: Array(repeating: 0, count: 256))
        } throws: { ($0 as? NWError)?.code == .coding }
    }
}

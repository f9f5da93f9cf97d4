import Foundation
import Testing
@testable import NANWire

/// A short in-process pass over mutated seeds, so hostile input is exercised by every `swift test`.
/// The long passes run under libFuzzer with AddressSanitizer: `tools/fuzz/run`.
@Suite struct HostileInputTests {
    /// Flips, overwrites, truncates, duplicates or inserts bytes, like a simple mutation fuzzer.
    static func mutate(_ input: [UInt8], _ g: inout ValueGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<g.int(1...4) {
            switch g.int(0...5) {
            case 0 where !bytes.isEmpty: bytes[g.int(0...bytes.count - 1)] ^= UInt8(1) << UInt8(g.int(0...7))
            case 1 where !bytes.isEmpty:
                bytes[g.int(0...bytes.count - 1)] = [0x00, 0xff, 0x7f, 0x80, 0x01][g.int(0...4)]
            case 2 where !bytes.isEmpty: bytes.removeLast(g.int(1...min(bytes.count, 8)))
            case 3: bytes.insert(g.u8(), at: g.int(0...bytes.count))
            case 4 where bytes.count > 4:
                let start = g.int(0...bytes.count - 2)
                bytes.insert(
                    contentsOf: bytes[start..<min(bytes.count, start + g.int(1...6))], at: g.int(0...bytes.count))
            default: if !bytes.isEmpty { bytes[g.int(0...bytes.count - 1)] = g.u8() }
            }
        }
        return bytes
    }

    /// Decodes `input` with `decoder`; nil when the decoder rejects it (the rejection's offset is checked).
    /// A value that decodes is returned with a closure that re-encodes and decodes it again.
    static func decode(_ decoder: String, _ input: [UInt8]) -> (any Equatable, () throws -> any Equatable)? {
        do {
            switch decoder {
            case "sdf":
                let f = try ServiceDiscoveryFrame(actionBody: input)
                _ = try? f.messages()
                return (f, { try ServiceDiscoveryFrame(actionBody: f.encoded()) })
            case "naf":
                let f = try NANActionFrame(actionBody: input)
                _ = try? DataPathMessage(f)
                _ = try? ScheduleMessage(f)
                return (f, { try NANActionFrame(actionBody: f.encoded()) })
            case "frame":
                let f = try NANFrame(actionBody: input)
                return (f, { try NANFrame(actionBody: f.encoded()) })
            case "management":
                let f = try NANManagementFrame(bytes: input)
                return (f, { try NANManagementFrame(bytes: f.encoded()) })
            default:
                let list = try NANAttribute.decodeList(ByteReader(input))
                return (
                    list,
                    {
                        var w = ByteWriter()
                        try NANAttribute.encodeList(list, into: &w)
                        return try NANAttribute.decodeList(ByteReader(w.bytes))
                    }
                )
            }
        } catch {
            // Every rejection carries an offset inside the input.
            #expect(error.offset >= 0 && error.offset <= input.count, "\(error)")
            return nil
        }
    }

    /// Whether two decoded values of the same type are equal.
    static func same(_ a: any Equatable, _ b: any Equatable) -> Bool {
        func compare<T: Equatable>(_ a: T) -> Bool { (b as? T) == a }
        return compare(a)
    }

    /// Only a decoder's rejection counts as "rejected": a frame that decodes must re-encode, and the
    /// re-encoded bytes must decode to the same value (a failure there is a codec bug, not a rejection).
    @Test func mutatedFramesNeverTrapAndWhatDecodesRoundTrips() throws {
        let seeds = try SeedCorpusTests.seeds()
        var g = ValueGenerator(seed: 31337)
        var decoded = 0, rejected = 0
        for decoder in SeedCorpusTests.decoders {
            let inputs = seeds[decoder] ?? []
            for i in 0..<4_000 {
                let input = Self.mutate(inputs[i % inputs.count], &g)
                guard let (value, roundTrip) = Self.decode(decoder, input) else {
                    rejected += 1
                    continue
                }
                decoded += 1
                do {
                    let again = try roundTrip()
                    #expect(Self.same(value, again), "\(decoder): re-encoded value differs for \(hexString(input))")
                } catch {
                    Issue.record("\(decoder): decoded but did not re-encode (\(error)) for \(hexString(input))")
                }
            }
        }
        #expect(decoded > 0 && rejected > 0)
    }
}

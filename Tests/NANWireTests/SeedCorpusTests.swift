import Foundation
import Testing
@testable import NANWire

/// The libFuzzer seed corpus under Fixtures/corpus/<decoder>/ holds valid frames. These tests keep it
/// valid: every seed must decode and re-encode to the same bytes, and the generated ones must be what
/// ``SeedCorpus`` makes. Regenerate them with `tools/seed-corpus` (a tool, not a test).
@Suite(.serialized) struct SeedCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/corpus")
    static let decoders = SeedCorpus.decoders

    static func seeds() throws -> [String: [[UInt8]]] {
        try SeedCorpus.seeds(handWrittenSDF: ServiceDiscoveryFrameTests.body)
    }

    static func roundTrips(_ decoder: String, _ bytes: [UInt8]) throws -> Bool {
        try SeedCorpus.roundTrips(decoder, bytes)
    }

    /// The generated seeds on disk (`seed-NNN`) are exactly what the generator makes today: a change to the
    /// generator or to the encoder shows here (regenerate with `tools/seed-corpus`), and a seed edited or
    /// lost by hand too.
    @Test func committedSeedsAreWhatTheGeneratorMakes() throws {
        for (decoder, inputs) in try Self.seeds() {
            let dir = Self.corpus.appendingPathComponent(decoder)
            let onDisk = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("seed-") }
                .sorted()
            #expect(
                onDisk == inputs.indices.map { String(format: "seed-%03d", $0) }, "\(decoder): run tools/seed-corpus")
            for (index, input) in inputs.enumerated() {
                let file = dir.appendingPathComponent(String(format: "seed-%03d", index))
                let bytes = (try? Data(contentsOf: file)).map { [UInt8]($0) }
                #expect(bytes == input, "\(decoder)/seed-\(index) differs from the generator's: run tools/seed-corpus")
            }
        }
    }

    @Test func everySeedDecodesAndReencodesToTheSameBytes() throws {
        for decoder in Self.decoders {
            let dir = Self.corpus.appendingPathComponent(decoder)
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            #expect(files.count >= 20, "corpus for \(decoder) has \(files.count) seeds")
            for file in files {
                let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(file)))
                #expect(try Self.roundTrips(decoder, bytes), "\(decoder)/\(file)")
            }
        }
    }
}

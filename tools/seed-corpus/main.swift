import Foundation

// Writes the generated seeds of the libFuzzer corpus, Tests/NANWireTests/Fixtures/corpus/<decoder>/seed-NNN,
// from SeedCorpus (compiled together with NANWire by tools/seed-corpus/run). `captured-*` seeds are kept.

/// The SDF body of `ServiceDiscoveryFrameTests.body` (a publish with a matching filter and an SDEA).
let handWrittenSDF = hex("0409506f9a13031200c57ed9d5d16701001405036162630002dead0e0f000104016400c8000600506f9a020102")

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: seed-corpus CORPUS_FOLDER\n".utf8))
    exit(64)
}
let corpus = URL(fileURLWithPath: arguments[1], isDirectory: true)
do {
    var written = 0
    for (decoder, inputs) in try SeedCorpus.seeds(handWrittenSDF: handWrittenSDF).sorted(by: { $0.key < $1.key }) {
        let dir = corpus.appendingPathComponent(decoder)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for old in try FileManager.default.contentsOfDirectory(atPath: dir.path) where old.hasPrefix("seed-") {
            try FileManager.default.removeItem(at: dir.appendingPathComponent(old))
        }
        for (index, input) in inputs.enumerated() {
            guard try SeedCorpus.roundTrips(decoder, input) else {
                FileHandle.standardError.write(Data("seed-corpus: \(decoder) seed \(index) does not round-trip\n".utf8))
                exit(1)
            }
            try Data(input).write(to: dir.appendingPathComponent(String(format: "seed-%03d", index)))
            written += 1
        }
    }
    print("seed-corpus: wrote \(written) seeds under \(corpus.path)")
} catch {
    FileHandle.standardError.write(Data("seed-corpus: \(error)\n".utf8))
    exit(1)
}

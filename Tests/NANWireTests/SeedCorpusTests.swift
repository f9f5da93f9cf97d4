import Foundation
import Testing
@testable import NANWire

/// The libFuzzer seed corpus under Fixtures/corpus/<decoder>/ holds valid frames. These tests keep it
/// valid: every seed must decode and re-encode to the same bytes. Regenerate it with
/// `NANWIRE_WRITE_CORPUS=1 swift test --filter SeedCorpusTests`.
@Suite(.serialized) struct SeedCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/corpus")
    static let decoders = ["sdf", "naf", "frame", "management", "attributes"]

    static func seeds() throws -> [String: [[UInt8]]] {
        var g = ValueGenerator(seed: 2026)
        var sdf: [[UInt8]] = [try TypicalFrames.publishSDF.encoded(), ServiceDiscoveryFrameTests.body]
        var naf: [[UInt8]] = [try TypicalFrames.ndpRequest.frame().encoded(),
                              try ScheduleMessage(subtype: .scheduleRequest, ndl: NDLAttribute(dialogToken: 1, type: .request),
                                                  availability: [.init(sequenceID: 1, control: 1, entries: [])]).frame().encoded()]
        for _ in 0..<24 { sdf.append(try g.sdf().encoded()) }
        for _ in 0..<24 { naf.append(try g.naf().encoded()) }
        var management: [[UInt8]] = [
            try NANManagementFrame(header: TypicalFrames.header(source: TypicalFrames.publisher, destination: .broadcast),
                                   body: .serviceDiscovery(TypicalFrames.publishSDF)).encoded(),
            try NANManagementFrame(header: TypicalFrames.header(source: TypicalFrames.subscriber, destination: TypicalFrames.publisher),
                                   body: .action(TypicalFrames.ndpRequest.frame())).encoded(),
        ]
        for _ in 0..<24 { management.append(try g.managementFrame().encoded()) }
        var attributes: [[UInt8]] = []
        for _ in 0..<40 {
            var w = ByteWriter()
            try NANAttribute.encodeList(g.list(1...4) { $0.attribute() }, into: &w)
            attributes.append(w.bytes)
        }
        return ["sdf": sdf, "naf": naf, "frame": Array(sdf.prefix(12)) + Array(naf.prefix(12)), "management": management, "attributes": attributes]
    }

    static func roundTrips(_ decoder: String, _ bytes: [UInt8]) throws -> Bool {
        switch decoder {
        case "sdf": return try ServiceDiscoveryFrame(actionBody: bytes).encoded() == bytes
        case "naf": return try NANActionFrame(actionBody: bytes).encoded() == bytes
        case "frame": return try NANFrame(actionBody: bytes).encoded() == bytes
        case "management": return try NANManagementFrame(bytes: bytes).encoded() == bytes
        default:
            var w = ByteWriter()
            try NANAttribute.encodeList(NANAttribute.decodeList(ByteReader(bytes)), into: &w)
            return w.bytes == bytes
        }
    }

    @Test func writeSeedCorpusWhenAsked() throws {
        guard ProcessInfo.processInfo.environment["NANWIRE_WRITE_CORPUS"] == "1" else { return }
        for (decoder, inputs) in try Self.seeds() {
            let dir = Self.corpus.appendingPathComponent(decoder)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            // Replace only the generated seeds: `captured-*` seeds are frames recorded in the VM bench.
            for old in try FileManager.default.contentsOfDirectory(atPath: dir.path) where old.hasPrefix("seed-") {
                try FileManager.default.removeItem(at: dir.appendingPathComponent(old))
            }
            for (i, input) in inputs.enumerated() {
                try Data(input).write(to: dir.appendingPathComponent(String(format: "seed-%03d", i)))
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

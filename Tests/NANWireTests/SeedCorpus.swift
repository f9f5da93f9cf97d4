@testable import NANWire

/// The generated part of the libFuzzer seed corpus (Fixtures/corpus/<decoder>/seed-NNN): typical frames and
/// frames from ``ValueGenerator`` with a fixed seed. `tools/seed-corpus` writes it; `SeedCorpusTests`
/// checks that what is committed is what this makes. (`captured-*` seeds are frames recorded in the VM.)
enum SeedCorpus {
    static let decoders = ["sdf", "naf", "frame", "management", "attributes"]

    /// The generated seeds per decoder; `handWrittenSDF` is the SDF body of the frame tests
    /// (`ServiceDiscoveryFrameTests.body`), passed in so this file needs nothing but NANWire.
    static func seeds(handWrittenSDF: [UInt8]) throws -> [String: [[UInt8]]] {
        var g = ValueGenerator(seed: 2026)
        var sdf: [[UInt8]] = [try TypicalFrames.publishSDF.encoded(), handWrittenSDF]
        var naf: [[UInt8]] = [
            try TypicalFrames.ndpRequest.frame().encoded(),
            try ScheduleMessage(
                subtype: .scheduleRequest, ndl: NDLAttribute(dialogToken: 1, type: .request),
                availability: [.init(sequenceID: 1, control: 1, entries: [])]
            ).frame().encoded(),
        ]
        for _ in 0..<24 { sdf.append(try g.sdf().encoded()) }
        for _ in 0..<24 { naf.append(try g.naf().encoded()) }
        var management: [[UInt8]] = [
            try NANManagementFrame(
                header: TypicalFrames.header(source: TypicalFrames.publisher, destination: .broadcast),
                body: .serviceDiscovery(TypicalFrames.publishSDF)
            ).encoded(),
            try NANManagementFrame(
                header: TypicalFrames.header(source: TypicalFrames.subscriber, destination: TypicalFrames.publisher),
                body: .action(TypicalFrames.ndpRequest.frame())
            ).encoded(),
        ]
        for _ in 0..<24 { management.append(try g.managementFrame().encoded()) }
        var attributes: [[UInt8]] = []
        for _ in 0..<40 {
            var w = ByteWriter()
            try NANAttribute.encodeList(g.list(1...4) { $0.attribute() }, into: &w)
            attributes.append(w.bytes)
        }
        return [
            "sdf": sdf, "naf": naf, "frame": Array(sdf.prefix(12)) + Array(naf.prefix(12)), "management": management,
            "attributes": attributes,
        ]
    }

    /// Whether `bytes` decode with `decoder` and re-encode to themselves.
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
}

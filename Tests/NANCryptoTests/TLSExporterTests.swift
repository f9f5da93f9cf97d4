@testable import NANCrypto
import Testing

/// Keying material exported from a TLS 1.3 session (the datagram keys): both ends get the same bytes, a
/// label or context changes them, and nothing is exported before the handshake.
@Suite struct TLSExporterTests {
    @Test func bothEndsExportTheSameKeyingMaterial() throws {
        let (client, server) = try TLSSessionTests.pair()
        let outcome = TLSSessionTests.pump(client, server)
        #expect(outcome.clientError == nil && outcome.serverError == nil)
        let a = try client.exportKeyingMaterial(label: "EXPORTER-test", context: [1, 2, 3], count: 72)
        let b = try server.exportKeyingMaterial(label: "EXPORTER-test", context: [1, 2, 3], count: 72)
        #expect(a == b)
        #expect(a.count == 72)
        #expect(a != [UInt8](repeating: 0, count: 72))
        #expect(try client.exportKeyingMaterial(label: "EXPORTER-other", context: [1, 2, 3], count: 72) != a)
        #expect(try client.exportKeyingMaterial(label: "EXPORTER-test", context: [1, 2, 4], count: 72) != a)
    }

    @Test func anotherSessionExportsOtherMaterial() throws {
        let (c1, s1) = try TLSSessionTests.pair()
        TLSSessionTests.pump(c1, s1)
        let (c2, s2) = try TLSSessionTests.pair()
        TLSSessionTests.pump(c2, s2)
        #expect(
            try c1.exportKeyingMaterial(label: "EXPORTER-test", context: [], count: 32)
                != c2.exportKeyingMaterial(label: "EXPORTER-test", context: [], count: 32))
    }

    @Test func nothingIsExportedBeforeTheHandshake() throws {
        let (client, _) = try TLSSessionTests.pair()
        #expect(throws: TLSError.self) {
            try client.exportKeyingMaterial(label: "EXPORTER-test", context: [], count: 32)
        }
    }
}

import Foundation
import Testing
@testable import NANWire

/// Frames wpa_supplicant 2.12 sent to waware on the interop bench (Fixtures/wpa_supplicant-2.12-bench, see its
/// README): each decodes to what the peer meant.
@Suite struct WPASupplicantBenchFrameTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/wpa_supplicant-2.12-bench")

    static func frame(_ name: String) throws -> NANManagementFrame {
        try NANManagementFrame(bytes: hex(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)))
    }

    @Test func theSecureTerminationIsAProtectedNAFFromNDIToNDI() throws {
        let frame = try Self.frame("sk128-ndp-naf-data-path-termination-protected-01.hex")
        #expect(frame.header.source == MACAddress(0x52, 0, 0, 0, 1, 0))
        #expect(frame.header.destination == MACAddress(0x42, 0, 0, 0, 0, 0))
        guard case .action(let naf) = frame.body else { Issue.record("not a NAF"); return }
        #expect(naf.isProtected)
        #expect(naf.subtype == .dataPathTermination)
        let ndpe = naf.attributes.compactMap { if case .ndpExtension(let a) = $0 { a } else { nil } }.first
        #expect(ndpe?.ndpID == 1 && ndpe?.initiatorNDI == MACAddress(0x52, 0, 0, 0, 1, 0))
    }
}

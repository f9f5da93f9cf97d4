import Foundation
@testable import NANEngine
import NANCrypto
import NANSystem
import NANWire
import Testing

/// PASN, the NIK exchange and protected follow-ups against wpa_supplicant 2.12 as its source builds them
/// (issue 23; docs/interop-pairing-findings.md §2–§5). The peer's frames are fixtures laid out from hostap's
/// code (Fixtures/wpa_supplicant-2.12, README there).
@Suite struct WPASupplicantPairingTests {
    static let waware = WPASupplicantFixtures.waware, wpa = WPASupplicantFixtures.wpa, nik = WPASupplicantFixtures.nik
    let t0 = ContinuousClock.now

    static func frame(_ name: String) throws -> [UInt8] { try WPASupplicantFixtures.frame(name) }
    static func announcement(_ name: String) throws -> (IncomingDiscoveryFrame, ServiceAnnouncement) {
        try WPASupplicantFixtures.announcement(name)
    }
    static func bytes(_ attribute: PairingBootstrappingAttribute) throws -> String { hexText(try attribute.encoded()) }

    // MARK: NIK exchange

    @Test(arguments: [("nik-followup-protected-ccmp.hex", NDPCipherSuite.pk128, "101112131415161718191a1b1c1d1e1f"),
                      ("nik-followup-protected-gcmp256.hex", .pk256, "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f")])
    func wpaSupplicantsNIKFollowUpUnwrapsAndOursIsTheSameBytes(name: String, suite: NDPCipherSuite, kek: String) throws {
        let (_, item) = try Self.announcement(name)
        #expect(item.kind == .followUp)
        let descriptor = try #require(item.keyDescriptor)
        let (nik, lifetime) = try NIKKeyData.unwrap(try NIKKeyDescriptor.wrappedKeyData(of: descriptor), kek: hexBytes(kek))
        #expect(nik == Self.nik && lifetime == 43200)
        // Ours, for the same keys, is the same attribute byte for byte (key length by suite; AES key wrap
        // is deterministic), apart from the publish ID byte (wpa_supplicant puts its own handle there).
        let ours = NIKKeyDescriptor.attribute(publishID: descriptor.publishID,
                                              wrappedKeyData: try NIKKeyData.wrap(Self.nik, lifetime: 43200, kek: hexBytes(kek)),
                                              keyLength: UInt16(suite.tkLength))
        #expect(try ours.encoded() == descriptor.encoded())
    }
}

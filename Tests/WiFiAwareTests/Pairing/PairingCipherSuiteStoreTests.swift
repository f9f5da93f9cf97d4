import Foundation
import NANEngine
import NANWire
import Testing

@testable import WiFiAware

/// The pairing's cipher suite lives with its key in the paired-devices file ("pairingCipherSuite", absent
/// for NCS-PK-PASN-128 so older files read as before), and a paired data path asks for it.
@Suite struct PairingCipherSuiteStoreTests {
    static let key256 = try! WAPairedDevice.PairingKey(
        bytes: [UInt8](repeating: 0x5a, count: 32), method: .sae, cipherSuite: .ncsPKPASN256)
    static let key128 = try! WAPairedDevice.PairingKey(bytes: [UInt8](repeating: 0x5b, count: 32), method: .sae)

    @Test func aPairingOn256KeepsItsSuiteAcrossTheFile() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            let a = try store.recordPairing(
                name: "A", managementAddress: testAddress(1), identityKey: nil, pairingKey: Self.key256)
            let b = try store.recordPairing(
                name: "B", managementAddress: testAddress(2), identityKey: nil, pairingKey: Self.key128)
            let devices = try WADeviceStore(url: url).devices()
            #expect(devices[a.id]?.pairingKey?.cipherSuite == .ncsPKPASN256)
            #expect(devices[b.id]?.pairingKey?.cipherSuite == .ncsPKPASN128)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.components(separatedBy: "pairingCipherSuite").count == 2)  // written for the 256 one only
            #expect(!"\(Self.key256)".contains("5a5a") && "\(Self.key256)".contains("NCS-PK-PASN-256"))
        }
    }

    @Test func aStoreNamingAnotherSuiteIsCorrupt() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            _ = try store.recordPairing(
                name: "A", managementAddress: testAddress(1), identityKey: nil, pairingKey: Self.key256)
            let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
                of: "NCS-PK-PASN-256", with: "NCS-SK-256")
            try Data(text.utf8).writePrivate(to: url)
            #expect(throws: WAError.self) { _ = try WADeviceStore(url: url).devices() }
        }
    }

    @Test func aPairingKeyNeedsAPairingSuite() {
        #expect(throws: WAError.self) {
            _ = try WAPairedDevice.PairingKey(
                bytes: [UInt8](repeating: 1, count: 32), method: .sae, cipherSuite: .ncsSK256)
        }
    }

    @Test func theStoredSuiteReachesTheEngineAndThePairedDataPathAsksForIt() throws {
        let device = WAPairedDevice(
            id: WAPairedDevice.ID(UUID()), displayName: "A", pairingInfo: nil, managementAddresses: [testAddress(1)],
            identityKey: nil, dateAdded: Date(), pairingKey: Self.key256, certificateFingerprint: nil)
        #expect(WAPairing.pairedKeys(device)?.pairing.suite == .pk256)
        let keys = PairedDataPathKeys()
        keys.store([UInt8](repeating: 7, count: 32), suite: .pk256, for: testAddress(1))
        let policy = try #require(
            try WADataPathSecurity.pairing.policy(service: "_pdp._tcp", pairedKeys: keys, peer: testAddress(1)))
        #expect(policy.requestedSuite == .pk256)
        let publisher = try #require(try WADataPathSecurity.pairing.policy(service: "_pdp._tcp", pairedKeys: keys))
        #expect(Set(publisher.suites) == [.pk128, .pk256])
    }
}

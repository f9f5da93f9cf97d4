import Foundation
import NANWire
import Testing

@testable import WiFiAware

/// The paired-devices file keeps the keys NAN pairing leaves: the peer's NIK and the NPK per device, our
/// own NIK once; mode 0600; unpairing removes the keys with the entry.
@Suite struct PairingStoreTests {
    static let npk = try! WAPairedDevice.PairingKey(bytes: [UInt8](repeating: 0x5a, count: 32), method: .sae)
    static let nik = try! WAPairedDevice.IdentityKey(bytes: [UInt8](repeating: 0x11, count: 16))

    @Test func aPairingIsStoredWithItsKeysAndReadBack() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            let own = try store.ownIdentityKey()
            #expect(try store.ownIdentityKey() == own)   // made once
            let device = try store.recordPairing(name: "Phone", managementAddress: testAddress(1), identityKey: Self.nik, pairingKey: Self.npk)
            #expect(device.isVerified)
            let read = try #require(try WADeviceStore(url: url).devices()[device.id])
            #expect(read.pairingKey == Self.npk && read.identityKey == Self.nik && read.isVerified)
            #expect(try WADeviceStore(url: url).ownIdentityKey() == own)
            let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(!"\(read.pairingKey!)".contains("5a5a"))
        }
    }

    @Test func pairingAgainUnderANewAddressUpdatesTheSameDevice() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let first = try store.recordPairing(name: "Phone", managementAddress: testAddress(1), identityKey: Self.nik, pairingKey: Self.npk)
            let again = try store.recordPairing(name: "Phone 2", managementAddress: testAddress(2), identityKey: Self.nik, pairingKey: Self.npk)
            #expect(again.id == first.id && again.name == "Phone")
            #expect(again.managementAddresses == [testAddress(2), testAddress(1)])
            #expect(try store.devices().count == 1)
        }
    }

    @Test func aHandTypedEntryIsUnverifiedUntilPaired() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let typed = try store.add(name: "Speaker", managementAddresses: [testAddress(3)])
            #expect(!typed.isVerified)
            let paired = try store.recordPairing(name: "Other", managementAddress: testAddress(3), identityKey: nil, pairingKey: Self.npk)
            #expect(paired.id == typed.id && paired.isVerified)
            try store.remove(paired.id)
            #expect(try store.devices().isEmpty)
        }
    }

    @Test func aVersion1StoreIsStillRead() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let record = #"{"id": "6f1c2b4e-0d1a-4c6e-9b7a-2e5d3f4a1b2c", "name": "Old", "managementAddresses": ["02:00:00:00:00:09"], "dateAdded": "2026-11-30T07:00:00Z"}"#
            try Data(#"{"format": "waware-devices", "version": 1, "devices": [\#(record)]}"#.utf8).write(to: url)
            let devices = try WADeviceStore(url: url).devices()
            #expect(devices.count == 1 && devices.values.first?.isVerified == false)
        }
    }
}

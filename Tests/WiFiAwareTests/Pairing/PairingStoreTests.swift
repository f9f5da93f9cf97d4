import Foundation
import NANWire
import Testing

@testable import WiFiAware

/// The paired-devices file keeps the keys NAN pairing leaves: the peer's NIK and the NPK per device, our
/// own NIK once; mode 0600; unpairing removes the keys with the entry.
@Suite struct PairingStoreTests {
    static let npk = try! WAPairedDevice.PairingKey(bytes: [UInt8](repeating: 0x5a, count: 32), method: .sae)
    static let nik = try! WAPairedDevice.IdentityKey(bytes: [UInt8](repeating: 0x11, count: 16))

    @Test func theIdentityKeysLifetimeIsStoredAndEndsItsUse() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            let before = Date()
            let device = try store.recordPairing(
                name: "Phone", managementAddress: testAddress(1), identityKey: Self.nik, pairingKey: Self.npk,
                identityKeyLifetime: .seconds(30 * 86_400))
            let read = try #require(try WADeviceStore(url: url).devices()[device.id])
            let expiry = try #require(read.identityKeyExpiry)
            #expect(abs(expiry.timeIntervalSince(before) - 30 * 86_400) < 60)
            #expect(read.identityKey(validAt: Date()) == Self.nik)
            #expect(read.identityKey(validAt: expiry) == nil)
            // Paired again with no lifetime announced: the new key does not expire.
            let again = try store.recordPairing(
                name: "Phone", managementAddress: testAddress(1), identityKey: Self.nik, pairingKey: Self.npk)
            #expect(again.identityKeyExpiry == nil)
            #expect(try WADeviceStore(url: url).devices()[device.id]?.identityKeyExpiry == nil)
        }
    }

    @Test func aPairingIsStoredWithItsKeysAndReadBack() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            let own = try store.ownIdentityKey()
            #expect(try store.ownIdentityKey() == own)  // made once
            let device = try store.recordPairing(
                name: "Phone", managementAddress: testAddress(1), identityKey: Self.nik, pairingKey: Self.npk)
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
            let first = try store.recordPairing(
                name: "Phone", managementAddress: testAddress(1), identityKey: Self.nik, pairingKey: Self.npk)
            let again = try store.recordPairing(
                name: "Phone 2", managementAddress: testAddress(2), identityKey: Self.nik, pairingKey: Self.npk)
            #expect(again.id == first.id && again.displayName == "Phone")
            #expect(again.managementAddresses == [testAddress(2), testAddress(1)])
            #expect(try store.devices().count == 1)
        }
    }

    @Test func aHandTypedEntryIsUnverifiedUntilPaired() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let typed = try store.add(name: "Speaker", managementAddresses: [testAddress(3)])
            #expect(!typed.isVerified)
            let paired = try store.recordPairing(
                name: "Other", managementAddress: testAddress(3), identityKey: nil, pairingKey: Self.npk)
            #expect(paired.id == typed.id && paired.isVerified)
            try store.remove(paired.id)
            #expect(try store.devices().isEmpty)
        }
    }

    @Test func aNewIdentityAtAKeyedDevicesAddressMakesANewEntryAndLeavesTheKeyedOneWhole() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let kitchen = try store.recordPairing(
                name: "Kitchen", managementAddress: testAddress(1), identityKey: Self.nik, pairingKey: Self.npk)
            try store.noteAddress(testAddress(2), of: kitchen.id)  // Kitchen now at 2, its old address 1 still listed
            let pin = try #require(WACertificateFingerprint(bytes: [UInt8](repeating: 0xc3, count: 32)))
            try store.pinCertificate(pin, to: kitchen.id)
            let otherKey = try WAPairedDevice.PairingKey(bytes: [UInt8](repeating: 0x77, count: 32), method: .pasn)
            for identity in [nil, try WAPairedDevice.IdentityKey(bytes: [UInt8](repeating: 0x99, count: 16))] {
                try store.noteAddress(testAddress(1), of: kitchen.id)  // Kitchen holds 1 and 2
                let name = identity == nil ? "Newcomer" : "Stranger"
                let newcomer = try store.recordPairing(
                    name: name, managementAddress: testAddress(1), identityKey: identity, pairingKey: otherKey)
                #expect(
                    newcomer.id != kitchen.id && newcomer.displayName == name
                        && newcomer.managementAddresses == [testAddress(1)])
                let kept = try #require(try store.devices()[kitchen.id])
                #expect(kept.displayName == "Kitchen" && kept.pairingKey == Self.npk && kept.identityKey == Self.nik)
                #expect(kept.certificateFingerprint == pin && kept.managementAddresses == [testAddress(2)])
                try store.remove(newcomer.id)
            }
            // Kitchen's only address now: the pairing is refused and nothing changes.
            #expect(throws: WAError.self) {
                try store.recordPairing(
                    name: "Intruder", managementAddress: testAddress(2), identityKey: nil, pairingKey: otherKey)
            }
            #expect(try store.devices().count == 1 && store.devices()[kitchen.id]?.certificateFingerprint == pin)
        }
    }

    @Test func aVersion1StoreIsStillRead() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let record =
                #"{"id": "6f1c2b4e-0d1a-4c6e-9b7a-2e5d3f4a1b2c", "name": "Old", "managementAddresses": ["02:00:00:00:00:09"], "dateAdded": "2026-11-30T07:00:00Z"}"#
            try Data(#"{"format": "waware-devices", "version": 1, "devices": [\#(record)]}"#.utf8).writePrivate(to: url)
            let devices = try WADeviceStore(url: url).devices()
            #expect(devices.count == 1 && devices.values.first?.isVerified == false)
        }
    }
}

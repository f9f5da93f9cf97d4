import Foundation
import NANWire
import Testing

@testable import WiFiAware

/// A publisher accepting data paths only from paired devices reads the store at each request: a device
/// paired (or verified at a new address) after it started is admitted, one unpaired since is refused.
@Suite struct PairedDataPathAdmissionTests {
    static let npk = try! WAPairedDevice.PairingKey(bytes: [UInt8](repeating: 0x5a, count: 32), method: .sae)
    static let nik = try! WAPairedDevice.IdentityKey(bytes: [UInt8](repeating: 0x11, count: 16))

    @Test func aDevicePairedAfterTheStartIsAdmittedAndAnUnpairedOneIsNot() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let first = try store.recordPairing(
                name: "A", managementAddress: testAddress(1), identityKey: nil, pairingKey: Self.npk)
            let admission = PairedDataPathAdmission(store: store, selection: .allPairedDevices)
            #expect(admission.admits(testAddress(1)))
            #expect(!admission.admits(testAddress(2)))
            // Paired while the publisher runs.
            let later = try store.recordPairing(
                name: "B", managementAddress: testAddress(2), identityKey: Self.nik, pairingKey: Self.npk)
            #expect(admission.admits(testAddress(2)))
            // Met again under a new random NMI and verified: the store notes the address.
            try store.noteAddress(testAddress(3), of: later.id)
            #expect(admission.admits(testAddress(3)))
            // Unpaired: refused from then on.
            try store.remove(first.id)
            #expect(!admission.admits(testAddress(1)))
            #expect(!admission.admits(testAddress(9)))
        }
    }

    @Test func aSelectionIsResolvedAgainAndABrokenStoreKeepsTheLastAnswer() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            let kitchen = try store.recordPairing(
                name: "Kitchen", managementAddress: testAddress(1), identityKey: nil, pairingKey: Self.npk)
            let admission = PairedDataPathAdmission(store: store, selection: .selected([kitchen]))
            _ = try store.recordPairing(
                name: "Hall", managementAddress: testAddress(2), identityKey: nil, pairingKey: Self.npk)
            #expect(admission.admits(testAddress(1)))
            #expect(!admission.admits(testAddress(2)))  // paired, but not selected
            try Data("not json".utf8).writePrivate(to: url)
            #expect(admission.admits(testAddress(1)))  // a store briefly unreadable keeps the last good answer
            try FileManager.default.removeItem(at: url)
            #expect(!admission.admits(testAddress(1)))  // no store: no paired device
        }
    }
}

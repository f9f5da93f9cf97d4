import Foundation
import NANWire
import Testing

@testable import WiFiAware

@Suite struct DeviceSelectionTests {
    private func device(_ name: String, _ n: Int) -> WAPairedDevice {
        WAPairedDevice(
            id: WAPairedDevice.ID(UUID()), displayName: name, pairingInfo: nil, managementAddresses: [testAddress(n)],
            identityKey: nil, dateAdded: Date())
    }

    private func devices(_ list: [WAPairedDevice]) -> WAPairedDevice.Devices {
        Dictionary(uniqueKeysWithValues: list.map { ($0.id, $0) })
    }

    @Test func allPairedDevicesIsEveryDeviceAndFailsWhenThereAreNone() throws {
        let all = devices([device("Desk", 1), device("Lamp", 2)])
        #expect(try WADeviceSelection.allPairedDevices.resolve(in: all) == all)
        #expect {
            try WADeviceSelection.allPairedDevices.resolve(in: [:])
        } throws: { error in
            guard let error = error as? WAError else { return false }
            return error.code == .noPairedDevices && error.message.contains("waware devices add")
        }
    }

    @Test func selectedUsesTheStoresCurrentRecordsAndNoticesRemovals() throws {
        var desk = device("Desk", 1)
        let lamp = device("Lamp", 2)
        let stale = desk
        desk.displayName = "Desk (renamed)"
        let store = devices([desk, lamp])
        let chosen = try WADeviceSelection.selected([stale]).resolve(in: store)
        #expect(chosen?[desk.id]?.displayName == "Desk (renamed)")
        #expect(chosen?.count == 1)
        let gone = device("Gone", 3)
        #expect {
            try WADeviceSelection.selected([desk, gone]).resolve(in: store)
        } throws: { error in
            guard let error = error as? WAError else { return false }
            return error.code == .deviceInvalid && error.message.contains(gone.id.description)
        }
    }

    @Test func matchingByNamePrefix() throws {
        let all = devices([device("Kitchen speaker", 1), device("Kitchen lamp", 2), device("Hall lamp", 3)])
        let kitchen = WADeviceSelection.matching(#Predicate { $0.displayName.starts(with: "Kitchen") })
        let chosen = try #require(try kitchen.resolve(in: all))
        #expect(chosen.values.map(\.displayName).sorted() == ["Kitchen lamp", "Kitchen speaker"])
        let none = WADeviceSelection.matching(#Predicate { $0.displayName.starts(with: "Garage") })
        #expect(try none.resolve(in: all) == [:])
    }

    @Test func matchingOnPairingInfo() throws {
        var acme = device("Speaker", 1)
        acme.pairingInfo = try WAPairedDevice.PairingInfo(vendorName: "Acme")
        let all = devices([acme, device("Lamp", 2)])
        let byVendor = WADeviceSelection.matching(#Predicate { $0.pairingInfo?.vendorName == "Acme" })
        #expect(try byVendor.resolve(in: all)?.keys.sorted() == [acme.id])
    }

    @Test func anyDeviceIsUnrestrictedEvenWithNoPairedDevices() throws {
        #expect(try WADeviceSelection.anyDevice.resolve(in: [:]) == nil)
        #expect(WADeviceSelection.anyDevice.includesUnpairedDevices)
        #expect(!WADeviceSelection.allPairedDevices.includesUnpairedDevices)
    }

    @Test func pairingInfoAndIdentityKeyLimits() throws {
        #expect(throws: WAError.self) { try WAPairedDevice.PairingInfo(vendorName: String(repeating: "v", count: 64)) }
        #expect(throws: WAError.self) { try WAPairedDevice.PairingInfo(modelName: "") }
        #expect(throws: WAError.self) { try WAPairedDevice.IdentityKey(bytes: [1, 2, 3]) }
        let key = try WAPairedDevice.IdentityKey(bytes: Array(repeating: 0xab, count: 16))
        #expect(!key.description.contains("ab"))
    }
}

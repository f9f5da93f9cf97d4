import Foundation
import NANWire
import Testing

@testable import WiFiAware

@Suite struct PeerFilterTests {
    private func devices(_ list: [(String, Int)]) -> WAPairedDevice.Devices {
        var all: WAPairedDevice.Devices = [:]
        for (name, n) in list {
            let device = WAPairedDevice(
                id: WAPairedDevice.ID(UUID()), name: name, pairingInfo: nil, managementAddresses: [testAddress(n)],
                identityKey: nil, dateAdded: Date())
            all[device.id] = device
        }
        return all
    }

    @Test func aSelectionAdmitsOnlyTheAddressesOfItsDevices() throws {
        let all = devices([("A", 1), ("B", 2)])
        let a = try #require(all.values.first { $0.name == "A" })
        let filter = try PeerFilter(selection: .selected([a]), devices: all)
        #expect(filter.admits(testAddress(1)))
        #expect(!filter.admits(testAddress(2)))
        #expect(!filter.admits(testAddress(3)))
        #expect(filter.device(at: testAddress(1))?.name == "A")
    }

    @Test func anyDeviceAdmitsEveryoneAndStillNamesPairedPeers() throws {
        let filter = try PeerFilter(selection: .anyDevice, devices: devices([("A", 1)]))
        #expect(filter.admits(testAddress(9)))
        #expect(filter.device(at: testAddress(1))?.name == "A")
        #expect(filter.device(at: testAddress(9)) == nil)
    }

    @Test func aSelectionThatNoLongerResolvesAdmitsNobodyRatherThanEveryone() throws {
        let all = devices([("A", 1)])
        var filter = try PeerFilter(selection: .allPairedDevices, devices: all)
        #expect(filter.admits(testAddress(1)))
        filter.update(devices: [:])
        #expect(!filter.admits(testAddress(1)))
        filter.update(devices: devices([("C", 3)]))
        #expect(filter.admits(testAddress(3)))
    }
}

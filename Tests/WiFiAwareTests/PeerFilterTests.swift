import Foundation
import NANEngine
import NANWire
import Testing

@testable import WiFiAware

@Suite struct PeerFilterTests {
    private func devices(_ list: [(String, Int)]) -> WAPairedDevice.Devices {
        var all: WAPairedDevice.Devices = [:]
        for (name, n) in list {
            let device = WAPairedDevice(
                id: WAPairedDevice.ID(UUID()), displayName: name, pairingInfo: nil,
                managementAddresses: [testAddress(n)],
                identityKey: nil, dateAdded: Date())
            all[device.id] = device
        }
        return all
    }

    @Test func aSelectionAdmitsOnlyTheAddressesOfItsDevices() throws {
        let all = devices([("A", 1), ("B", 2)])
        let a = try #require(all.values.first { $0.displayName == "A" })
        let filter = try PeerFilter(selection: .selected([a]), devices: all)
        #expect(filter.admits(testAddress(1)))
        #expect(!filter.admits(testAddress(2)))
        #expect(!filter.admits(testAddress(3)))
        #expect(filter.device(at: testAddress(1))?.displayName == "A")
    }

    @Test func anyDeviceAdmitsEveryoneAndStillNamesPairedPeers() throws {
        let filter = try PeerFilter(selection: .anyDevice, devices: devices([("A", 1)]))
        #expect(filter.admits(testAddress(9)))
        #expect(filter.device(at: testAddress(1))?.displayName == "A")
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

    /// A device paired by NAN pairing (holding `nik`), first met at address `n`.
    private func paired(_ name: String, _ n: Int, nik: NANIdentityKey) throws -> WAPairedDevice {
        WAPairedDevice(
            id: WAPairedDevice.ID(UUID()), displayName: name, pairingInfo: nil, managementAddresses: [testAddress(n)],
            identityKey: try WAPairedDevice.IdentityKey(bytes: nik.bytes), dateAdded: Date())
    }

    @Test func aPairedDeviceIsRecognisedByItsNIRAUnderANewAddress() throws {
        let nikA = try NANIdentityKey.random(), nikC = try NANIdentityKey.random()
        let a = try paired("A", 1, nik: nikA)
        let filter = try PeerFilter(selection: .allPairedDevices, devices: [a.id: a])
        // A restarted NAN with a random NMI (address 7): its NIRA, made over address 7, names it.
        let nira = try nikA.identityResolution(nmi: testAddress(7))
        #expect(!filter.admits(testAddress(7)))
        #expect(filter.admits(testAddress(7), nira: nira))
        #expect(filter.device(at: testAddress(7), nira: nira)?.displayName == "A")
        // The same NIRA replayed from another address, and an unpaired device's NIRA, are not A.
        #expect(!filter.admits(testAddress(8), nira: nira))
        #expect(!filter.admits(testAddress(9), nira: try nikC.identityResolution(nmi: testAddress(9))))
    }

    @Test func aDeviceLeftOutOfTheSelectionIsNotAdmittedByItsNIRA() throws {
        let nikA = try NANIdentityKey.random(), nikB = try NANIdentityKey.random()
        let a = try paired("A", 1, nik: nikA), b = try paired("B", 2, nik: nikB)
        let filter = try PeerFilter(selection: .selected([a]), devices: [a.id: a, b.id: b])
        #expect(filter.admits(testAddress(5), nira: try nikA.identityResolution(nmi: testAddress(5))))
        #expect(!filter.admits(testAddress(6), nira: try nikB.identityResolution(nmi: testAddress(6))))
        let any = try PeerFilter(selection: .anyDevice, devices: [a.id: a, b.id: b])
        #expect(
            any.device(at: testAddress(6), nira: try nikB.identityResolution(nmi: testAddress(6)))?.displayName == "B")
    }

    @Test func anExpiredIdentityKeyNoLongerRecognisesTheDevice() throws {
        let nikA = try NANIdentityKey.random()
        var a = try paired("A", 1, nik: nikA)
        let nira = try nikA.identityResolution(nmi: testAddress(7))
        a.identityKeyExpiry = Date().addingTimeInterval(3600)
        #expect(try PeerFilter(selection: .allPairedDevices, devices: [a.id: a]).admits(testAddress(7), nira: nira))
        a.identityKeyExpiry = Date().addingTimeInterval(-1)
        let expired = try PeerFilter(selection: .allPairedDevices, devices: [a.id: a])
        #expect(!expired.admits(testAddress(7), nira: nira))
        #expect(expired.admits(testAddress(1)))  // its address still names it
        #expect(a.identityKey(validAt: Date()) == nil && a.identityKey != nil)
    }
}

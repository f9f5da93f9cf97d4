import Foundation
import NANWire
import Testing

@testable import WiFiAware

/// When a paired device was last recognised is kept in the store, written at most once a minute per device
/// by a running system, and read back (older stores without it read as never seen).
@Suite struct LastSeenTests {
    static let npk = try! WAPairedDevice.PairingKey(bytes: [UInt8](repeating: 0x5a, count: 32), method: .sae)

    @Test func aSightingIsWrittenAtMostOnceAMinutePerDevice() {
        let recorder = LastSeenRecorder(interval: .seconds(60), capacity: 4)
        let a = WAPairedDevice.ID(UUID()), b = WAPairedDevice.ID(UUID())
        let start = ContinuousClock.now
        #expect(recorder.shouldWrite(a, now: start))
        #expect(!recorder.shouldWrite(a, now: start + .seconds(1)))
        #expect(!recorder.shouldWrite(a, now: start + .seconds(59)))
        #expect(recorder.shouldWrite(b, now: start + .seconds(1)))  // another device has its own minute
        #expect(recorder.shouldWrite(a, now: start + .seconds(60)))
    }

    @Test func theTableOfWritesIsBoundedAndForgetsTheOldestFirst() {
        let recorder = LastSeenRecorder(interval: .seconds(60), capacity: 2)
        let ids = (0..<3).map { _ in WAPairedDevice.ID(UUID()) }
        let start = ContinuousClock.now
        for (i, id) in ids.enumerated() { #expect(recorder.shouldWrite(id, now: start + .seconds(i))) }
        // The first was forgotten to make room for the third, so it may be written again; the others not.
        #expect(recorder.shouldWrite(ids[0], now: start + .seconds(3)))
        #expect(!recorder.shouldWrite(ids[2], now: start + .seconds(3)))
    }

    @Test func lastSeenIsStoredReadBackAndSetByAVerifiedAddress() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            let device = try store.recordPairing(
                name: "Phone", managementAddress: testAddress(1), identityKey: nil, pairingKey: Self.npk)
            #expect(device.dateLastSeen == nil)
            let when = Date(timeIntervalSince1970: 1_796_000_000)
            try store.noteSeen(device.id, at: when)
            #expect(try WADeviceStore(url: url).devices()[device.id]?.dateLastSeen == when)
            #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self).contains("\"lastSeen\""))
            let before = Date()
            let moved = try store.noteAddress(testAddress(2), of: device.id)
            #expect((moved.dateLastSeen ?? .distantPast) >= before.addingTimeInterval(-1))
            try store.noteSeen(WAPairedDevice.ID(UUID()))  // unpaired meanwhile: skipped, no error
            #expect(try store.devices().count == 1)
        }
    }
}

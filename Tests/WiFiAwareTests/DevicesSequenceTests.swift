import Foundation
import Testing

@testable import WiFiAware

/// Runs `body`, failing the test if it takes longer than `seconds`.
func withTimeout<T: Sendable>(
    seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw TimedOut()
        }
        return value
    }
}

struct TimedOut: Error {}

@Suite struct DevicesSequenceTests {
    @Test func firstElementIsTheCurrentSnapshot() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let desk = try store.add(name: "Desk", managementAddresses: [testAddress(1)])
            let first = try await withTimeout(seconds: 10) {
                var iterator = store.allDevices.makeAsyncIterator()
                return try await iterator.next()
            }
            #expect(first.map { Array($0.keys) } == [desk.id])
        }
    }

    @Test func emptyStoreGivesAnEmptySnapshot() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let first = try await withTimeout(seconds: 10) {
                var iterator = store.allDevices.makeAsyncIterator()
                return try await iterator.next()
            }
            #expect(first == [:])
        }
    }

    @Test func changesInThisProcessArriveWithoutWaitingForAPoll() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            // Polling once a minute: only the in-process signal can deliver within the timeout.
            let sequence = WAPairedDevice.DevicesSequence(store: store, predicate: nil, pollInterval: .seconds(60))
            let names = try await withTimeout(seconds: 20) {
                var seen: [[String]] = []
                for try await devices in sequence {
                    seen.append(devices.values.map(\.displayName).sorted())
                    if seen.count == 1 {
                        try WADeviceStore(url: store.url).add(name: "Desk", managementAddresses: [testAddress(1)])
                    } else {
                        break
                    }
                }
                return seen
            }
            #expect(names == [[], ["Desk"]])
        }
    }

    @Test func changesByAnotherWriterArriveByPolling() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            try store.add(name: "Desk", managementAddresses: [testAddress(1)])
            let sequence = WAPairedDevice.DevicesSequence(store: store, predicate: nil, pollInterval: .milliseconds(50))
            let names = try await withTimeout(seconds: 20) {
                var seen: [[String]] = []
                for try await devices in sequence {
                    seen.append(devices.values.map(\.displayName).sorted())
                    if seen.count == 1 {
                        // Another process would replace the file without signalling this one.
                        let text = try String(contentsOf: url, encoding: .utf8)
                        try Data(text.replacingOccurrences(of: "\"Desk\"", with: "\"Sofa\"").utf8)
                            .writePrivate(to: url, options: .atomic)
                    } else {
                        break
                    }
                }
                return seen
            }
            #expect(names == [["Desk"], ["Sofa"]])
        }
    }

    @Test func predicateFiltersSnapshotsAndHidesUnrelatedChanges() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            try store.add(name: "Kitchen speaker", managementAddresses: [testAddress(1)])
            let sequence = store.allDevices(matching: #Predicate { $0.displayName.starts(with: "Kitchen") })
            let names = try await withTimeout(seconds: 20) {
                var seen: [[String]] = []
                for try await devices in sequence {
                    seen.append(devices.values.map(\.displayName).sorted())
                    if seen.count == 1 {
                        // Not matching: must not produce a snapshot.
                        try store.add(name: "Hall lamp", managementAddresses: [testAddress(2)])
                        try store.add(name: "Kitchen lamp", managementAddresses: [testAddress(3)])
                    } else {
                        break
                    }
                }
                return seen
            }
            #expect(names == [["Kitchen speaker"], ["Kitchen lamp", "Kitchen speaker"]])
        }
    }

    @Test func endsWhenTheConsumingTaskIsCancelled() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let consumer = Task {
                var count = 0
                for try await _ in store.allDevices { count += 1 }
                return count
            }
            try await Task.sleep(for: .milliseconds(200))
            consumer.cancel()
            let count = try await withTimeout(seconds: 10) { try await consumer.value }
            #expect(count == 1)
        }
    }

    @Test func corruptStoreEndsTheSequenceWithAnError() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            let sequence = WAPairedDevice.DevicesSequence(store: store, predicate: nil, pollInterval: .milliseconds(50))
            let error = try await withTimeout(seconds: 20) { () async throws -> WAError? in
                do throws(WAError) {
                    var iterator = sequence.makeAsyncIterator()
                    _ = try await iterator.next()
                    try? Data("garbage".utf8).writePrivate(to: url)
                    _ = try await iterator.next()
                    return nil
                } catch {
                    return error
                }
            }
            #expect(error?.code == .deviceStoreCorrupt)
        }
    }

    @Test func zeroByteFileIsCorruptForWatchersAsForReaders() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            try Data().writePrivate(to: url)
            let store = WADeviceStore(url: url)
            #expect { try store.devices() } throws: { ($0 as? WAError)?.code == .deviceStoreCorrupt }
            let error = try await withTimeout(seconds: 10) { () async throws -> WAError? in
                do throws(WAError) {
                    var iterator = store.allDevices.makeAsyncIterator()
                    _ = try await iterator.next()
                    return nil
                } catch {
                    return error
                }
            }
            #expect(error?.code == .deviceStoreCorrupt)
        }
    }
}

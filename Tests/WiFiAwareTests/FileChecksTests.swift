import Foundation
import Glibc
import NANWire
import Testing

@testable import WiFiAware

/// The store's and the services file's checks on hand-edited or odd files: each defect is refused with a
/// message that says what is wrong, and nothing traps.
@Suite struct FileChecksTests {
    private func storeJSON(_ devices: String, version: String = "1") -> String {
        """
        {"format": "waware-devices", "version": \(version), "devices": [\(devices)]}
        """
    }

    private func device(_ id: String, _ name: String, _ address: String) -> String {
        """
        {"id": "\(id)", "name": "\(name)", "managementAddresses": ["\(address)"], "dateAdded": "2026-11-30T07:00:00Z"}
        """
    }

    private func expectCorrupt(_ json: String, saying text: String) {
        #expect {
            try DeviceStoreFile.decode(Data(json.utf8))
        } throws: { error in
            guard case DeviceStoreFile.Problem.corrupt(let reason) = error else { return false }
            return reason.contains(text)
        }
    }

    @Test func aStoreWithTwoDevicesOfOneNameIsRefused() {
        expectCorrupt(
            storeJSON(
                device("6f1c2b4e-0000-4000-8000-000000000001", "Kitchen", "02:00:00:00:01:00") + ","
                    + device("6f1c2b4e-0000-4000-8000-000000000002", "Kitchen", "02:00:00:00:02:00")),
            saying: "both named 'Kitchen'")
    }

    @Test func aStoreWithOneAddressOnTwoDevicesIsRefused() {
        expectCorrupt(
            storeJSON(
                device("6f1c2b4e-0000-4000-8000-000000000001", "Kitchen", "02:00:00:00:01:00") + ","
                    + device("6f1c2b4e-0000-4000-8000-000000000002", "Hall", "02:00:00:00:01:00")),
            saying: "both have the address 02:00:00:00:01:00")
    }

    @Test(arguments: ["-5", "0"])
    func aStoreWithAVersionBelowOneIsRefused(version: String) {
        expectCorrupt(storeJSON("", version: version), saying: "format version \(version)")
    }

    @Test func aServicesFileWithADuplicatedKeyIsRefused() {
        let json = """
            {"WiFiAwareServices": {"_chat._tcp": {"Publishable": {"serviceInfo": "a", "serviceInfo": "b"}}}}
            """
        #expect {
            try WAServiceRegistry(jsonData: Data(json.utf8))
        } throws: { error in
            (error as? WAError)?.message.contains("the key 'serviceInfo' appears twice") == true
        }
    }

    @Test func duplicateKeysAreFoundOnlyWithinOneObject() {
        #expect(JSONDuplicateKeys.first(in: Array(#"{"a": {"b": 1}, "c": {"b": 2}}"#.utf8)) == nil)
        #expect(JSONDuplicateKeys.first(in: Array(#"{"a": ["a", "a"], "b": "a"}"#.utf8)) == nil)
        #expect(JSONDuplicateKeys.first(in: Array(#"{"a": 1, "x\"y": 2, "x\"y": 3}"#.utf8)) == #"x\"y"#)
    }

    @Test func nullAsServicesFileSaysAnObjectIsNeeded() {
        #expect {
            try WAServiceRegistry(jsonData: Data("null".utf8))
        } throws: { error in
            guard let message = (error as? WAError)?.message else { return false }
            return message.contains("one JSON object") && message.contains("not null") && !message.contains("at :")
        }
    }

    @Test(arguments: ["/dev/zero", "fifo"])
    func aSpecialFileAsServicesFileIsNotARegularFile(path: String) async throws {
        try await withTemporaryDirectory { folder in
            var file = path
            if path == "fifo" {
                file = folder.appendingPathComponent("services.json").path
                #expect(mkfifo(file, 0o600) == 0)
            }
            #expect {
                try WAServiceRegistry.load(from: URL(fileURLWithPath: file))
            } throws: { error in
                guard let error = error as? WAError else { return false }
                return error.code != .permissionDenied && error.message.contains("not a regular file")
            }
        }
    }

    @Test func aSymlinkedStoreIsRefusedNotReplaced() async throws {
        try await withTemporaryDirectory { folder in
            let real = folder.appendingPathComponent("real.json")
            try WADeviceStore(url: real).add(name: "Desk", managementAddresses: [testAddress(1)])
            let link = folder.appendingPathComponent("devices.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
            let store = WADeviceStore(url: link)
            #expect(throws: WAError.self) { try store.devices() }
            #expect(throws: WAError.self) { try store.add(name: "Hall", managementAddresses: [testAddress(2)]) }
            // The link is still a link, and the file it points to is unchanged.
            let attributes = try FileManager.default.attributesOfItem(atPath: link.path)
            #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
            #expect(try WADeviceStore(url: real).devices().count == 1)
        }
    }

    @Test func aChangeWaitingForTheLockSaysSoAndGivesUp() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let lockPath = url.path + ".lock"
            let holder = open(lockPath, O_RDWR | O_CREAT, 0o600)
            #expect(holder >= 0)
            defer { close(holder) }
            #expect(flock(holder, LOCK_EX) == 0)
            let noticed = LockNotice()
            var store = WADeviceStore(url: url)
            store.lockTimeout = .milliseconds(200)
            store.lockWaitNotice = { path in noticed.record(path) }
            #expect {
                try store.add(name: "Desk", managementAddresses: [testAddress(1)])
            } throws: { error in
                (error as? WAError)?.message.contains("another process has held the lock") == true
            }
            #expect(noticed.paths == [lockPath])
        }
    }
}

/// Collects the lock-wait notices a store gave.
private final class LockNotice: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    func record(_ path: String) { lock.withLock { seen.append(path) } }
    var paths: [String] { lock.withLock { seen } }
}

import Foundation
import NANWire
import Testing

@testable import WiFiAware

/// A management address for test device number `n`.
func testAddress(_ n: Int) -> MACAddress {
    let text = String(format: "02:00:00:00:%02x:%02x", (n >> 8) & 0xff, n & 0xff)
    guard let address = MACAddress(text) else {
        preconditionFailure("test address \(text) does not parse")
    }
    return address
}

@Suite struct DeviceStoreTests {
    @Test func startsEmptyWithoutCreatingAnything() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("state/devices.json"))
            let devices = try store.devices()
            #expect(devices.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("state").path))
        }
    }

    @Test func addRenameRemoveRoundTripThroughTheFile() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let info = try WAPairedDevice.PairingInfo(vendorName: "Acme", modelName: "Speaker 2")
            let added = try store.add(
                name: "Kitchen speaker", managementAddresses: [testAddress(1), testAddress(1)], pairingInfo: info)
            #expect(added.managementAddresses == [testAddress(1)])

            // A second store on the same file sees what the first wrote.
            let reopened = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let read = try #require(try reopened.devices()[added.id])
            #expect(read.displayName == "Kitchen speaker")
            #expect(read.pairingInfo == info)
            #expect(read.managementAddresses == [testAddress(1)])
            #expect(abs(read.dateAdded.timeIntervalSince(added.dateAdded)) < 1)

            let renamed = try reopened.rename(added.id, to: "Hall speaker")
            #expect(renamed.id == added.id && renamed.displayName == "Hall speaker")
            #expect(try store.device(identifiedBy: "Hall speaker").id == added.id)

            #expect(try store.remove(added.id).displayName == "Hall speaker")
            #expect(try store.devices().isEmpty)
        }
    }

    @Test func findsDevicesByIdPrefixOrName() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let device = try store.add(name: "Desk", managementAddresses: [testAddress(7)])
            #expect(try store.device(identifiedBy: device.id.description).id == device.id)
            #expect(try store.device(identifiedBy: device.id.description.uppercased()).id == device.id)
            #expect(try store.device(identifiedBy: String(device.id.description.prefix(8))).id == device.id)
            #expect(try store.device(identifiedBy: "Desk").id == device.id)
            #expect {
                try store.device(identifiedBy: "Sofa")
            } throws: { ($0 as? WAError)?.code == .deviceInvalid }
        }
    }

    @Test func rejectsBadNamesAddressesAndDuplicates() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            try store.add(name: "Desk", managementAddresses: [testAddress(1)])
            let broadcast = try #require(MACAddress("ff:ff:ff:ff:ff:ff"))
            let cases: [(String, [MACAddress], String)] = [
                ("", [testAddress(2)], "must not be empty"),
                (" Desk", [testAddress(2)], "begin or end with a space"),
                ("Tab\there", [testAddress(2)], "control, line-break, bidi or zero-width characters"),
                ("Desk\u{202E}", [testAddress(2)], "control, line-break, bidi or zero-width characters"),
                ("De\u{200B}sk", [testAddress(2)], "control, line-break, bidi or zero-width characters"),
                ("Line\u{2028}break", [testAddress(2)], "control, line-break, bidi or zero-width characters"),
                ("Shelf\u{85}", [testAddress(2)], "control, line-break, bidi or zero-width characters"),
                (String(repeating: "n", count: 65), [testAddress(2)], "at most 64"),
                ("Lamp", [], "at least one management address"),
                ("Lamp", [broadcast], "multicast or broadcast"),
                ("Desk", [testAddress(2)], "already named 'Desk'"),
                ("Lamp", [testAddress(1)], "already belongs to paired device 'Desk'"),
            ]
            for (name, addresses, reason) in cases {
                #expect {
                    try store.add(name: name, managementAddresses: addresses)
                } throws: { error in
                    guard let error = error as? WAError else { return false }
                    return error.code == .invalidArgument && error.message.contains(reason)
                }
            }
            #expect(try store.devices().count == 1)
        }
    }

    @Test func aNameThatLooksLikeAnotherIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            try store.add(name: "Kitchen Speaker", managementAddresses: [testAddress(1)])
            for lookalike in ["Kitchen\u{00A0}Speaker", "Kitchen  Speaker", "Kitchen\u{3000}Speaker"] {
                #expect {
                    try store.add(name: lookalike, managementAddresses: [testAddress(2)])
                } throws: { ($0 as? WAError)?.message.contains("looks the same") == true }
            }
            let other = try store.add(name: "Kitchen Lamp", managementAddresses: [testAddress(3)])
            #expect {
                try store.rename(other.id, to: "Kitchen\u{2003}Speaker")
            } throws: { ($0 as? WAError)?.code == .invalidArgument }
        }
    }

    @Test func removingOrRenamingAnUnknownDeviceIsDeviceInvalid() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let ghost = WAPairedDevice.ID(UUID())
            #expect { try store.remove(ghost) } throws: { ($0 as? WAError)?.code == .deviceInvalid }
            #expect { try store.rename(ghost, to: "x") } throws: { ($0 as? WAError)?.code == .deviceInvalid }
        }
    }

    @Test func fileIsOwnerOnlyAndFolderPrivate() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("new/devices.json")
            let store = WADeviceStore(url: url)
            try store.add(name: "Desk", managementAddresses: [testAddress(1)])
            #expect(try permissions(of: url) == 0o600)
            #expect(try permissions(of: url.appendingPathExtension("lock")) == 0o600)
            #expect(try permissions(of: url.deletingLastPathComponent()) == 0o700)

            // A store someone loosened holds keys others may have read: it is refused, saying what to do,
            // and left as it is until its owner tightens it.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
            #expect { try store.add(name: "Lamp", managementAddresses: [testAddress(2)]) } throws: {
                ($0 as? WAError)?.message.contains("chmod 600") == true
            }
            #expect { try store.devices() } throws: { ($0 as? WAError)?.message.contains("mode 644") == true }
            #expect(try permissions(of: url) == 0o644)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            try store.add(name: "Lamp", managementAddresses: [testAddress(2)])
            #expect(try store.devices().count == 2)
            // No temporary files are left behind.
            let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            #expect(names.sorted() == ["devices.json", "devices.json.lock"])
        }
    }

    @Test func corruptFileIsReportedAndKeptAsideNeverOverwritten() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let garbage = Data("{ this is not json".utf8)
            try garbage.writePrivate(to: url)
            let store = WADeviceStore(url: url)

            // Reading reports it and leaves it alone.
            #expect {
                try store.devices()
            } throws: { error in
                guard let error = error as? WAError else { return false }
                return error.code == .deviceStoreCorrupt && error.message.contains("not valid JSON")
                    && error.message.contains("left untouched")
            }
            #expect(try Data(contentsOf: url) == garbage)

            // The next change moves it aside, says where, and changes nothing else.
            var message = ""
            do throws(WAError) {
                try store.add(name: "Desk", managementAddresses: [testAddress(1)])
            } catch {
                #expect(error.code == .deviceStoreCorrupt)
                message = error.message
            }
            let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasPrefix("devices.json.corrupt-") }
            #expect(aside.count == 1)
            let asideName = try #require(aside.first)
            #expect(message.contains(asideName))
            #expect(try Data(contentsOf: folder.appendingPathComponent(asideName)) == garbage)
            #expect(!FileManager.default.fileExists(atPath: url.path))

            // After that the store works again.
            try store.add(name: "Desk", managementAddresses: [testAddress(1)])
            #expect(try store.devices().count == 1)
        }
    }

    @Test func foreignJSONIsTreatedAsCorrupt() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            try Data(#"{"format": "someone-else", "version": 1, "devices": []}"#.utf8).writePrivate(to: url)
            #expect {
                try WADeviceStore(url: url).devices()
            } throws: { ($0 as? WAError)?.message.contains("not a waware device store") == true }

            try Data(#"[1, 2, 3]"#.utf8).writePrivate(to: url)
            #expect {
                try WADeviceStore(url: url).devices()
            } throws: { ($0 as? WAError)?.code == .deviceStoreCorrupt }
        }
    }

    @Test func storeFromANewerVersionIsNeverTouched() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let newer = Data(#"{"format": "waware-devices", "version": 3, "devices": [], "groups": []}"#.utf8)
            try newer.writePrivate(to: url)
            let store = WADeviceStore(url: url)
            #expect {
                try store.add(name: "Desk", managementAddresses: [testAddress(1)])
            } throws: { error in
                guard let error = error as? WAError else { return false }
                return error.code == .deviceStoreCorrupt && error.message.contains("newer waware (format version 3")
            }
            #expect(try Data(contentsOf: url) == newer)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                    == ["devices.json", "devices.json.lock"])
        }
    }

    @Test func invalidRecordsAreCorrupt() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let id = UUID().uuidString
            let records = [
                (
                    #"{"id": "nope", "name": "a", "managementAddresses": ["02:00:00:00:00:01"], "dateAdded": "2026-11-30T07:00:00Z"}"#,
                    "invalid id"
                ),
                (
                    #"{"id": "\#(id)", "name": "a", "managementAddresses": ["ff:00:00:00:00:01"], "dateAdded": "2026-11-30T07:00:00Z"}"#,
                    "invalid management address"
                ),
                (
                    #"{"id": "\#(id)", "name": "a", "managementAddresses": [], "dateAdded": "2026-11-30T07:00:00Z"}"#,
                    "no management address"
                ),
                (
                    #"{"id": "\#(id)", "name": "", "managementAddresses": ["02:00:00:00:00:01"], "dateAdded": "2026-11-30T07:00:00Z"}"#,
                    "must not be empty"
                ),
                (
                    #"{"id": "\#(id)", "name": "a", "managementAddresses": ["02:00:00:00:00:01"], "identityKey": "00", "dateAdded": "2026-11-30T07:00:00Z"}"#,
                    "invalid identity key"
                ),
            ]
            for (record, reason) in records {
                try Data(#"{"format": "waware-devices", "version": 1, "devices": [\#(record)]}"#.utf8).writePrivate(
                    to: url)
                #expect {
                    try WADeviceStore(url: url).devices()
                } throws: { ($0 as? WAError)?.message.contains(reason) == true }
            }
        }
    }

    @Test func concurrentWritersOnManyThreadsLoseNothing() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let threads = 8
            let perThread = 5
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                // Each thread uses its own store value, as independent parts of a program would.
                let store = WADeviceStore(url: url)
                for index in 0..<perThread {
                    let n = thread * 100 + index
                    do {
                        try store.add(name: "device \(n)", managementAddresses: [testAddress(n)])
                    } catch {
                        Issue.record("add failed: \(error)")
                    }
                }
            }
            let devices = try WADeviceStore(url: url).devices()
            #expect(devices.count == threads * perThread)
        }
    }

    @Test func concurrentWritersInSeveralProcessesLoseNothing() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let processes = 4
            var children: [Process] = []
            for child in 0..<processes {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
                process.arguments = ["--testing-library", "swift-testing", "--filter", "deviceStoreWriterChild"]
                process.environment = ProcessInfo.processInfo.environment.merging([
                    "WAWARE_TEST_WRITER_STORE": url.path, "WAWARE_TEST_WRITER_BASE": String(child * 100),
                ]) { $1 }
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                children.append(process)
            }
            // Write from this process at the same time.
            let store = WADeviceStore(url: url)
            for n in 1000..<1005 {
                try store.add(name: "device \(n)", managementAddresses: [testAddress(n)])
            }
            for child in children {
                child.waitUntilExit()
                #expect(child.terminationStatus == 0)
            }
            #expect(try store.devices().count == processes * DeviceStoreWriterChild.count + 5)
        }
    }

    @Test func defaultLocations() {
        #expect(
            WADeviceStore.defaultURL(environment: ["WAWARE_STATE_DIR": "/srv/w", "HOME": "/h"], isRoot: true).path
                == "/srv/w/devices.json")
        #expect(
            WADeviceStore.defaultURL(environment: ["HOME": "/h"], isRoot: true).path
                == "/var/lib/waware/devices.json")
        #expect(
            WADeviceStore.defaultURL(environment: ["XDG_STATE_HOME": "/st", "HOME": "/h"], isRoot: false).path
                == "/st/waware/devices.json")
        #expect(
            WADeviceStore.defaultURL(environment: ["HOME": "/h"], isRoot: false).path
                == "/h/.local/state/waware/devices.json")
    }
}

/// Run only as a child of `concurrentWritersInSeveralProcessesLoseNothing`: adds devices to the store it is given.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["WAWARE_TEST_WRITER_STORE"] != nil))
struct DeviceStoreWriterChild {
    static let count = 5

    @Test func deviceStoreWriterChild() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment["WAWARE_TEST_WRITER_STORE"])
        let base = try #require(Int(environment["WAWARE_TEST_WRITER_BASE"] ?? ""))
        let store = WADeviceStore(url: URL(fileURLWithPath: path))
        for n in base..<base + Self.count {
            try store.add(name: "device \(n)", managementAddresses: [testAddress(n)])
        }
    }
}

import Foundation
import Glibc
import NANWire
import Testing
import WiFiAware

/// A store the process may not read or write must say "permission denied", not "corrupt" or "empty".
/// As root (which ignores file modes) the check runs in a child process demoted to `nobody` with setpriv.
@Suite struct PermissionTests {
    static let marker = "PERMISSION-CHILD-CHECKED"

    @Test(.enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func storeWithoutAccessIsPermissionDenied() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            try WADeviceStore(url: url).add(name: "Desk", managementAddresses: [testAddress(1)])
            if geteuid() != 0 {
                try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: url.path)
                defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path) }
                try PermissionChild.check(url)
                return
            }
            // The folder must be reachable by nobody; the file itself stays 0600 and root's.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid=65534", "--regid=65534", "--clear-groups", CommandLine.arguments[0],
                "--testing-library", "swift-testing", "--filter", "permissionChild",
            ]
            process.environment = ProcessInfo.processInfo.environment.merging(["WAWARE_TEST_PERMISSION_STORE": url.path]
            ) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(text.contains(Self.marker))
        }
    }
}

/// Run only as the demoted child of `storeWithoutAccessIsPermissionDenied`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["WAWARE_TEST_PERMISSION_STORE"] != nil))
struct PermissionChild {
    static func check(_ url: URL) throws {
        let store = WADeviceStore(url: url)
        #expect {
            try store.devices()
        } throws: { error in
            guard let error = error as? WAError else { return false }
            return error.code == .permissionDenied && error.message.contains(url.path)
        }
        #expect {
            try store.add(name: "Lamp", managementAddresses: [testAddress(2)])
        } throws: { ($0 as? WAError)?.code == .permissionDenied }
    }

    @Test func permissionChild() throws {
        let path = try #require(ProcessInfo.processInfo.environment["WAWARE_TEST_PERMISSION_STORE"])
        try Self.check(URL(fileURLWithPath: path))
        print(PermissionTests.marker)
    }
}

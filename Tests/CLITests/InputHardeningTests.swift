import Foundation
import Glibc
import Testing

@testable import waware

/// Hostile or odd input to the tool: special files, huge input, bad names, out-of-range values. Each
/// case fails with one line and a documented exit code.
@Suite struct InputHardeningTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("waware-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func fifo(_ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    @Test func decodeOfAFIFOSaysItIsNotARegularFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try BinaryRunner.run(["decode", "--file", try fifo("frame.hex")])
        #expect(result.status == ExitCode.failure.rawValue)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not a regular file"))
    }

    @Test func decodeOfStandardInputIsBounded() throws {
        // /dev/zero never ends: before, decode read it into memory without limit.
        let result = try BinaryRunner.run(["decode", "-"], standardInput: "/dev/zero")
        #expect(result.status == ExitCode.failure.rawValue)
        #expect(result.stderr.contains("more than 16777216 bytes"))
    }

    @Test func decodeOfAHexFileWithAnOddDigitCountIsAUsageError() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("frame.hex")
        try Data("04 09 50 6f 9\n".utf8).write(to: file)
        let result = try BinaryRunner.run(["decode", "--file", file.path])
        #expect(result.status == ExitCode.usage.rawValue)
        #expect(result.stderr.contains("not hex"))
    }

    @Test(arguments: ["/dev/zero", "fifo"])
    func aSpecialFileAsStoreIsNotARegularFile(path: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = path == "fifo" ? try fifo("devices.json") : path
        let result = try BinaryRunner.run(["devices", "list", "--store", store])
        #expect(result.status == ExitCode.failure.rawValue)
        #expect(result.stderr.contains("not a regular file"))
        #expect(!result.stderr.contains("ermission denied"))
    }

    @Test func anEmptyStoreOptionIsRefused() throws {
        let result = try BinaryRunner.run(["devices", "list", "--store="])
        #expect(result.status == ExitCode.usage.rawValue)
        #expect(result.stderr.contains("--store needs"))
    }

    @Test func aBadDeviceNameIsAUsageErrorLikeABadAddress() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("devices.json").path
        let badName = try BinaryRunner.run(["devices", "add", "02:00:00:00:01:00", " Kitchen", "--store", store])
        let badAddress = try BinaryRunner.run(["devices", "add", "02:00:00:00:01:0g", "Kitchen", "--store", store])
        #expect(badAddress.status == ExitCode.usage.rawValue)
        #expect(badName.status == badAddress.status)
    }

    @Test func aMACWithASignIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("devices.json").path
        let result = try BinaryRunner.run(["devices", "add", "+2:00:00:00:01:00", "Kitchen", "--store", store])
        #expect(result.status == ExitCode.usage.rawValue)
        #expect(ArgumentValues.macBytes("+2:+0") == nil)
    }

    @Test func rangeErrorsStateTheMaximum() throws {
        let result = try BinaryRunner.run(["subscribe", "_chat._tcp", "--count", "0"])
        #expect(result.status == ExitCode.usage.rawValue)
        #expect(result.stderr.contains("100000"))
        let ttl = try BinaryRunner.run(["publish", "_chat._tcp", "--ttl", "1e300"])
        #expect(ttl.status == ExitCode.usage.rawValue)
        #expect(ttl.stderr.contains("10000000"))
    }

    @Test func aMatchFilterOver255BytesSaysSo() throws {
        let long = String(repeating: "a", count: 300)
        let result = try BinaryRunner.run(["publish", "_chat._tcp", "--match-filter", long])
        #expect(result.status == ExitCode.usage.rawValue)
        #expect(result.stderr.contains("at most 255"))
        #expect(!result.stderr.contains("expected elements"))
    }

    @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anUnreadableStoreFolderIsPermissionDeniedNotEmpty() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // The folder is root's, mode 0700: user nobody cannot look inside.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let hidden = folder.appendingPathComponent("private")
        try FileManager.default.createDirectory(
            at: hidden, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let result = try BinaryRunner.run(
            ["devices", "list", "--store", hidden.appendingPathComponent("devices.json").path], standardInput: nil,
            launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(result.status == ExitCode.permissionDenied.rawValue)
        #expect(result.stderr.contains("permission denied"))
    }
}

/// The example program on the public API refuses timeouts that are not a Duration.
@Suite struct ExampleProgramTests {
    static var example: String {
        BinaryRunner.binaryURL.deletingLastPathComponent().appendingPathComponent("aware-example").path
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: example)), arguments: ["inf", "1e300", "nan"])
    func anInfiniteTimeoutIsRefusedNotATrap(value: String) throws {
        let result = try BinaryRunner.run(
            ["subscribe", "_chat._tcp", "--timeout", value], standardInput: nil,
            executable: URL(fileURLWithPath: Self.example))
        #expect(result.status == 1)
        #expect(result.stderr.contains("--timeout needs a number of seconds from 0 to 31536000"))
    }
}

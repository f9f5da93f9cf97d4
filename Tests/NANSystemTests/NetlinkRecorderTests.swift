import Foundation
import Glibc
import Testing

@testable import NANSystem

/// `WAWARE_NL_RECORD` files: created exclusively, mode 0600, never through a link, never over an
/// earlier run's file; a folder other users may write is refused.
@Suite struct NetlinkRecorderTests {
    let folder: String
    let message = NetlinkMessage(type: 16, flags: 0, sequence: 1, portID: 0, payload: [1, 2, 3, 4])

    init() throws {
        folder = NSTemporaryDirectory() + "waware-rec-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func aSecondRunDoesNotOverwriteTheFirst() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // An earlier run left files under every name the process counter may produce next.
        var earlier: [String] = []
        for index in 1...50 {
            let name = String(repeating: "0", count: max(0, 4 - String(index).count)) + "\(index)-test.nlmsg"
            try Data("earlier run".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            earlier.append(name)
        }
        NetlinkRecorder(directory: folder).record(message, label: "test")
        for name in earlier {
            #expect(try String(contentsOfFile: folder + "/" + name, encoding: .utf8) == "earlier run")
        }
        #expect(try files().count == earlier.count + 1)
    }

    @Test func aPlantedLinkIsNotWrittenThrough() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let victim = folder + "/victim"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
        // Links under the next names the recorder would use.
        for index in 1...50 {
            let name = String(repeating: "0", count: max(0, 4 - String(index).count)) + "\(index)-link.nlmsg"
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: victim)
        }
        NetlinkRecorder(directory: folder).record(message, label: "link")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
    }

    @Test func recordedFilesAreOwnerOnly() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        NetlinkRecorder(directory: folder).record(message, label: "mode")
        let name = try #require(try files().first { $0.hasSuffix("-mode.nlmsg") })
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) == Data(message.encoded))
    }

    @Test func aFolderOthersMayWriteIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(NetlinkRecorder.refusal(of: folder) == nil)
        #expect(chmod(folder, 0o777) == 0)
        #expect(NetlinkRecorder.refusal(of: folder)?.contains("writable by other users") == true)
        #expect(NetlinkRecorder.refusal(of: folder + "/missing") != nil)
    }
}

import Foundation
import Testing

@testable import waware

/// `waware devices` against a store in a fresh temporary folder.
@Suite struct DevicesCommandTests {
    let folder: URL
    let store: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("waware-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = folder.appendingPathComponent("devices.json").path
    }

    private func devices(_ arguments: String...) throws -> BinaryRunner.Result {
        try BinaryRunner.run(["devices"] + arguments + ["--store", store])
    }

    private func listing() throws -> [DeviceRecord] {
        let result = try devices("list", "--json")
        #expect(result.status == 0)
        return try JSONDecoder().decode(DevicesListCommand.Listing.self, from: Data(result.stdout.utf8)).devices
    }

    @Test func addThenListShowsTheDeviceWithItsAddress() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let added = try devices("add", "02:00:00:00:01:00", "Kitchen", "--vendor", "Acme")
        #expect(added.status == 0)
        #expect(added.stdout.hasPrefix("added Kitchen  "))
        let list = try listing()
        #expect(list.map(\.name) == ["Kitchen"])
        #expect(list.first?.addresses == ["02:00:00:00:01:00"])
        #expect(list.first?.vendor == "Acme")
        let text = try devices("list")
        #expect(text.stdout.hasPrefix("Kitchen  \(list.first?.id ?? "?")  02:00:00:00:01:00"))
    }

    @Test func anEmptyStoreSaysHowToAddADevice() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try devices("list")
        #expect(result.status == 0)
        #expect(result.stdout.contains("waware devices add <address> <name>"))
        #expect(try listing().isEmpty)
    }

    @Test func renameAndRemoveFindTheDeviceByNameOrIdPrefix() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try devices("add", "02:00:00:00:01:00", "Kitchen")
        #expect(try devices("rename", "Kitchen", "Hall").status == 0)
        let id = try #require(try listing().first?.id)
        #expect(try listing().map(\.name) == ["Hall"])
        let removed = try devices("remove", String(id.prefix(8)))
        #expect(removed.status == 0)
        #expect(removed.stdout.hasPrefix("removed Hall"))
        #expect(try listing().isEmpty)
    }

    @Test func aBadAddressIsAUsageErrorOnOneLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try devices("add", "02:00:00:00:01", "Kitchen")
        #expect(result.status == ExitCode.usage.rawValue)
        #expect(result.stderrLines == ["waware: '02:00:00:00:01' is not a MAC address; write it as 02:00:00:00:01:00"])
    }

    @Test func removingAnUnknownDeviceFailsOnOneLineNamingIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try devices("remove", "Nowhere")
        #expect(result.status == ExitCode.failure.rawValue)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("'Nowhere'"))
        #expect(result.stderr.contains("waware devices list"))
    }

    @Test func aTakenNameOrAddressIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try devices("add", "02:00:00:00:01:00", "Kitchen")
        let sameAddress = try devices("add", "02:00:00:00:01:00", "Other")
        #expect(sameAddress.status == ExitCode.failure.rawValue)
        #expect(sameAddress.stderr.contains("already belongs to paired device 'Kitchen'"))
        let sameName = try devices("add", "02:00:00:00:02:00", "Kitchen")
        #expect(sameName.status == ExitCode.failure.rawValue)
        #expect(sameName.stderr.contains("already named 'Kitchen'"))
        #expect(try listing().count == 1)
    }
}

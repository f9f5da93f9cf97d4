import Foundation
import Testing

@testable import waware

/// The repository root, found from this file's path (Tests/CLITests/<file>).
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

@Test(arguments: ["docs/cli.md", "README.md"])
func exitCodeTableListsEveryNamedCode(document: String) throws {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent(document), encoding: .utf8)
    for entry in ExitCode.documented {
        #expect(
            text.contains("| \(entry.code.rawValue) | \(entry.name) | \(entry.meaning) |"), "\(document): \(entry.name)"
        )
    }
}

@Test func exitCodesAreDistinct() {
    let numbers = ExitCode.documented.map(\.code.rawValue)
    #expect(Set(numbers).count == numbers.count)
    #expect(ExitCode.usage.rawValue == 64)
    #expect(ExitCode.nl80211Unavailable.rawValue == 69)
    #expect(ExitCode.permissionDenied.rawValue == 77)
}

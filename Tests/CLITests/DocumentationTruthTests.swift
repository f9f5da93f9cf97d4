import Foundation
import Testing
import WiFiAware

/// Sentences that were once true and are now false ("not built", "next", "until ... exists") must not come
/// back into the docs, the help texts or the doc comments. Each entry says what made it false; when a
/// capability is removed again, remove its entry with it.
@Suite struct DocumentationTruthTests {
    /// A phrase (matched without case) and why it is false today.
    static let retired: [(phrase: String, because: String)] = [
        ("until NAN pairing", "NAN pairing is built (`waware pair`, WAPairing)"),
        ("until pairing exists", "NAN pairing is built (`waware pair`, WAPairing)"),
        ("pairing is not built", "NAN pairing is built (`waware pair`, WAPairing)"),
        ("data paths are not built", "data paths are built (`subscribe --data-path`, WASystem.withDataPath)"),
        ("no data path yet", "data paths are built (`subscribe --data-path`, WASystem.withDataPath)"),
        ("the data path next", "data paths are built (NANEngine/DataPath)"),
        ("link reports | `NANEngine/` (next)", "link reports are built (WiFiAware/Performance)"),
        ("connections are not built", "connections are built (`listen`, `connect`, WAConnection)"),
    ]

    /// The files whose prose users and newcomers read: docs, README, help texts and doc comments.
    static func proseFiles() -> [URL] {
        let root = LayerRuleTests.packageRoot
        var files = [root.appendingPathComponent("README.md")]
        for folder in ["docs", "Sources"] {
            let found =
                FileManager.default.enumerator(
                    at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? []
            files += found.filter { ["md", "swift"].contains($0.pathExtension) }
        }
        return files
    }

    /// The `retired` phrases found in `text`, one line each: `<name>:<line>: "<phrase>": <because>`.
    static func findings(in text: String, named name: String) -> [String] {
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lowered = line.lowercased()
            for entry in retired where lowered.contains(entry.phrase.lowercased()) {
                found.append("\(name):\(number + 1): \"\(entry.phrase)\": \(entry.because)")
            }
        }
        return found
    }

    @Test func noDocOrHelpTextClaimsABuiltCapabilityIsMissing() throws {
        let root = LayerRuleTests.packageRoot.standardizedFileURL.path
        var found: [String] = []
        for file in Self.proseFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            found += Self.findings(in: text, named: String(file.standardizedFileURL.path.dropFirst(root.count + 1)))
        }
        #expect(found.isEmpty, Comment(rawValue: "false sentences:\n" + found.joined(separator: "\n")))
    }

    @Test func aRetiredPhraseIsFoundWhateverItsCase() {
        let lines = Self.findings(in: "fine\nDevices are added by hand Until NAN Pairing exists.\n", named: "x.md")
        #expect(lines == ["x.md:2: \"until NAN pairing\": NAN pairing is built (`waware pair`, WAPairing)"])
    }
}

/// The CLI's manual names every reason a data path can end with.
@Suite struct DataPathEndReasonDocumentationTests {
    @Test func cliManualListsEveryDataPathEndReason() throws {
        let manual = try String(
            contentsOf: LayerRuleTests.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let missing = WADataPathEndReason.Kind.allCases.map(\.rawValue).filter { !manual.contains("| `\($0)` |") }
        #expect(missing.isEmpty, "docs/cli.md has no row for \(missing)")
    }
}

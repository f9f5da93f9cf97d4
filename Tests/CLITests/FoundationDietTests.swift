import Foundation
import Testing

/// Full Foundation (FoundationInternationalization and its ICU data, about 30 MB and 7 MiB resident) stays
/// out of the library and the tool: they use FoundationEssentials or nothing.
@Suite struct FoundationDietTests {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Modules that pull in FoundationInternationalization and ICU.
    static let fullFoundationModules = [
        "Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
    ]

    @Test func noSourceOrExampleImportsFullFoundation() throws {
        var offenders: [String] = []
        for folder in ["Sources", "Examples", "tools/bench"] {
            let root = Self.packageRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root.appendingPathComponent(relative).path, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ").map(String.init)
                    guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
                    // `import X`, `internal import X`, `@preconcurrency import X`, ...
                    guard words[..<at].allSatisfy({ !$0.hasPrefix("//") && !$0.hasPrefix("///") }) else { continue }
                    if Self.fullFoundationModules.contains(words[at + 1]) {
                        offenders.append("\(folder)/\(relative): \(line)")
                    }
                }
            }
        }
        #expect(offenders.isEmpty, "use FoundationEssentials (or nothing) instead: \(offenders)")
    }

    @Test func wawareBinaryDoesNotLinkFullFoundationOrICU() throws {
        let binary = BinaryRunner.binaryURL
        let bytes = try Data(contentsOf: binary)
        // The dynamic section names each needed library as a string (DT_NEEDED).
        for needle in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(binary.path) links \(needle)")
        }
    }
}

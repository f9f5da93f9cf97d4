import Foundation
import Testing

/// The layer rule of docs/architecture.md, checked: every Swift file under `Sources/` imports only the
/// layers below its own, and only the system layer (NANSystem, and NANCrypto for libcrypto/libssl)
/// imports a C module (a C target of this package, or the C library: Glibc, Musl, …).
@Suite struct LayerRuleTests {
    /// What each Swift module of `Sources/` may import of this package: Package.swift's `layerRule`, the one
    /// source (the targets take their dependencies from it). A new module must be added there, which is
    /// where its layer is decided.
    static let allowed: [String: Set<String>] = {
        let manifest = packageRoot.appendingPathComponent("Package.swift")
        return (try? String(contentsOf: manifest, encoding: .utf8)).map(layerRule(in:)) ?? [:]
    }()

    /// The `layerRule` table of a manifest's text: one `"Module": ["Below", ...],` line per module.
    static func layerRule(in manifest: String) -> [String: Set<String>] {
        guard let start = manifest.range(of: "let layerRule: [String: [String]] = [") else { return [:] }
        var rule: [String: Set<String>] = [:]
        for line in manifest[start.upperBound...].split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("]") { break }
            let names = text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            guard let module = names.first else { continue }
            rule[module] = Set(names.dropFirst())
        }
        return rule
    }

    /// The modules that may import C modules.
    static let systemLayer: Set<String> = ["NANSystem", "NANCrypto"]

    /// The C library's module names (the platform's libc overlays).
    static let cLibraries: Set<String> = [
        "Glibc", "Musl", "SwiftGlibc", "Darwin", "Android", "Bionic", "ucrt", "WinSDK", "CRT",
    ]

    /// Files that break a rule today and whose owner is fixing it; remove an entry as soon as it is fixed.
    static let knownExceptions: Set<String> = []

    @Test func everyModuleImportsOnlyTheLayersBelowIt() throws {
        let sources = Self.packageRoot.appendingPathComponent("Sources")
        let violations = try Self.violations(in: sources)
        let unexpected = violations.filter { !Self.knownExceptions.contains($0) }
        #expect(
            unexpected.isEmpty,
            Comment(rawValue: "layer rule broken (docs/architecture.md):\n" + unexpected.joined(separator: "\n")))
        let stale = Self.knownExceptions.subtracting(violations)
        #expect(
            stale.isEmpty, Comment(rawValue: "fixed, so remove from LayerRuleTests.knownExceptions: \(stale.sorted())"))
    }

    @Test func theRuleIsPackageSwiftsLayerRule() {
        #expect(Self.allowed["NANWire"] == [])
        #expect(Self.allowed["NANEngine"] == ["NANLogging", "NANWire", "NANCrypto", "NANSystem"])
        // The tool goes through the API: its hardware commands use WiFiAware's `@_spi(Tools)` surface, never
        // NANSystem or NANEngine. NANWire it may import, for the values the API speaks in (MACAddress,
        // ServiceID) and for `decode`, which prints the codec's own frame and attribute types.
        #expect(Self.allowed["waware"] == ["WiFiAware", "NANWire"])
        // The Network-framework-shaped layer stands on the public API only.
        #expect(Self.allowed["WiFiAwareNetwork"] == ["WiFiAware"])
        // The daemon's module stands on the engine; the daemon itself never goes through the public API.
        #expect(Self.allowed["NANDaemon"] == ["NANLogging", "NANWire", "NANSystem", "NANEngine"])
        #expect(Self.allowed["wawared"] == ["NANDaemon", "NANEngine", "NANSystem", "NANLogging"])
        #expect(
            Self.allowed.keys.sorted() == [
                "NANCrypto", "NANDaemon", "NANEngine", "NANLogging", "NANSystem", "NANWire", "WiFiAware",
                "WiFiAwareNetwork", "waware", "wawared",
            ])
        let parsed = Self.layerRule(
            in: "x\nlet layerRule: [String: [String]] = [\n    \"A\": [],\n    \"B\": [\"A\"],\n]\n\"C\": []\n")
        #expect(parsed == ["A": [], "B": ["A"]])
    }

    @Test func aForbiddenImportIsFound() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "layer-rule-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write("@_spi(X) public import WiFiAware\nimport Synchronization\n", to: root, "NANEngine/A.swift")
        try Self.write(
            "#if canImport(Glibc)\nimport Glibc\n#endif\nimport struct NANSystem.MACAddress\n", to: root,
            "waware/Sub/B.swift")
        try Self.write("internal import CNetlink\n", to: root, "NANCrypto/C.swift")
        try Self.write("// header\n", to: root, "CNetlink/module.modulemap")
        try Self.write("import NANLogging\n", to: root, "NANNew/D.swift")
        #expect(
            try Self.violations(in: root).sorted() == [
                "NANEngine/A.swift imports WiFiAware",
                "NANNew/D.swift: module NANNew is not in Package.swift's layerRule",
                "waware/Sub/B.swift imports Glibc",
                "waware/Sub/B.swift imports NANSystem",
            ])
    }

    // MARK: Reading the sources

    /// The rule breaks under `sources`, one line each: `<module>/<path> imports <module>`.
    static func violations(in sources: URL) throws -> [String] {
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: sources.path))
        // A C target is a folder of Sources/ without Swift files.
        let swiftModules = Set(files.filter { $0.pathExtension == "swift" }.compactMap { module(of: $0, in: sources) })
        let cModules = modules.subtracting(swiftModules).union(cLibraries)
        var found: [String] = []
        for file in files where file.pathExtension == "swift" {
            guard let module = module(of: file, in: sources) else { continue }
            let path = String(file.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            guard let mayImport = allowed[module] else {
                let line = "\(path): module \(module) is not in Package.swift's layerRule"
                if !found.contains(line) { found.append(line) }
                continue
            }
            for imported in imports(in: try String(contentsOf: file, encoding: .utf8)) where imported != module {
                if cModules.contains(imported) {
                    if !systemLayer.contains(module) { found.append("\(path) imports \(imported)") }
                } else if allowed[imported] != nil || modules.contains(imported), !mayImport.contains(imported) {
                    found.append("\(path) imports \(imported)")
                }
            }
        }
        return found
    }

    /// The module a file belongs to: its first folder under `sources`.
    static func module(of file: URL, in sources: URL) -> String? {
        let base = sources.standardizedFileURL.pathComponents
        let parts = file.standardizedFileURL.pathComponents
        guard parts.count > base.count + 1, Array(parts.prefix(base.count)) == base else { return nil }
        return parts[base.count]
    }

    /// The modules a Swift file imports: `import X`, `public import X`, `@_spi(S) import X`,
    /// `import struct X.Y`, inside `#if` or not.
    static func imports(in text: String) -> [String] {
        var modules: [String] = []
        for line in text.split(separator: "\n") {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            while let first = words.first,
                first.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains(first)
            {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            let kinds: Set<String> = [
                "struct", "class", "enum", "protocol", "typealias", "func", "var", "let", "actor",
            ]
            let name = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            if let module = name.split(separator: ".").first { modules.append(String(module)) }
        }
        return modules
    }

    /// The package's root folder, from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func write(_ text: String, to root: URL, _ path: String) throws {
        let file = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
}

import Foundation
import NANSystem

/// A fresh folder under the system's temporary directory, removed when the test ends.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("waware-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// The POSIX permission bits of a file.
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

extension Data {
    /// Writes a hand-made store or key file as waware itself would: owner only (0600), since such files are
    /// refused when others may use them. `.atomic` replaces the file by rename, with the mode already set.
    func writePrivate(to url: URL, options: Data.WritingOptions = []) throws {
        if options.contains(.atomic) {
            try PrivateFile.replace(at: url.path, with: [UInt8](self))
        } else {
            try write(to: url, options: options)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        }
    }
}

internal import Glibc

/// Small read-only look-ups in sysfs: a folder's entries, a link's target, a short attribute file.
enum SysfsDirectory {
    /// The names in the folder at `path` (without `.` and `..`), sorted; empty if it cannot be read.
    static func entries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The target of the symbolic link at `path`, if it is one.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return -1 }
            return readlink(path, base, pointer.count - 1)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The text of a short attribute file, trimmed; `nil` if it is missing, unreadable or empty.
    static func attribute(_ path: String) -> String? {
        guard
            let bytes = try? FileContents.readRegularFile(
                at: path, limit: 4096, what: "the sysfs attribute",
                followingSymbolicLinks: true)
        else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        return text.isEmpty ? nil : text
    }
}

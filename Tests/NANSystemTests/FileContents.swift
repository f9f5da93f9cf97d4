import Glibc

/// The whole content of the file at `path`, or nil when it cannot be opened. Shared by the tests that
/// read fixtures, the kernel header and the files `PrivateFile` writes.
func fileContents(atPath path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}

internal import Glibc

/// Standard output and standard error as plain file descriptors: each write goes straight to the
/// descriptor (no buffering, so streaming output shows each line as it happens), every byte is written
/// or the errno is thrown, never a trap.
public struct StandardStream: Sendable {
    /// The file descriptor.
    public let descriptor: Int32

    /// Standard input (descriptor 0).
    public static let standardInput = StandardStream(descriptor: 0)
    /// Standard output (descriptor 1).
    public static let standardOutput = StandardStream(descriptor: 1)
    /// Standard error (descriptor 2).
    public static let standardError = StandardStream(descriptor: 2)

    /// Writes all of `bytes`, retrying after interruptions and partial writes.
    ///
    /// - Throws: ``Errno`` of `write(2)`: ``Errno/brokenPipe`` when the reader went away (with SIGPIPE
    ///   ignored), ``Errno/noSpace`` on a full device, ...
    public func write(_ bytes: [UInt8]) throws(Errno) {
        var written = 0
        while written < bytes.count {
            let count = try SystemCall.retrying {
                bytes.withUnsafeBytes { buffer in
                    Glibc.write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                }
            }
            guard count > 0 else { throw Errno.ioError }
            written += count
        }
    }

    /// Writes the UTF-8 bytes of `text`.
    ///
    /// - Throws: ``Errno`` of `write(2)`.
    public func write(_ text: String) throws(Errno) {
        try write(Array(text.utf8))
    }

    /// Reads everything until the end, at most `limit` bytes.
    ///
    /// - Throws: ``FileError`` with the errno of `read(2)`, or when more than `limit` bytes arrive.
    public func readAll(limit: Int, name: String = "standard input") throws(FileError) -> [UInt8] {
        try FileContents.readAll(descriptor, limit: limit, operation: "read \(name)", path: name)
    }
}

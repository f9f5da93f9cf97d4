#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Writes every received netlink message to a folder, one file per message, when the program asked for it
/// with ``NetlinkDiagnostics/record(into:)`` (the CLI does for `WAWARE_NL_RECORD`). This is how the byte fixtures in
/// `Tests/NANSystemTests/Fixtures` are captured from a real kernel.
///
/// Files are named `<counter>-<label>.nlmsg` and hold the whole message, `nlmsghdr` included.
final class NetlinkRecorder: Sendable {
    private let directory: String
    /// Process-wide, so several sessions recording into one folder never overwrite each other.
    private static let counter = Mutex(0)

    init(directory: String) {
        self.directory = directory
    }

    /// Stores one message. Failures to write are ignored: recording must never break the session.
    func record(_ message: NetlinkMessage, label: String) {
        let index = Self.counter.withLock { value -> Int in
            value += 1
            return value
        }
        let number = String(index)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        let path = "\(directory)/\(padded)-\(label).nlmsg"
        guard let file = fopen(path, "wb") else { return }
        let bytes = message.encoded
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }
}

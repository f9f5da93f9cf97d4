internal import Glibc
import Synchronization

/// Writes every received netlink message to a folder, one file per message, when the program asked for it
/// with ``NetlinkDiagnostics/record(into:)`` (the CLI does for `WAWARE_NL_RECORD`). This is how the byte
/// fixtures in `Tests/NANSystemTests/Fixtures` are captured from a real kernel.
///
/// Files are named `<counter>-<label>.nlmsg` and hold the whole message, `nlmsghdr` included. Each is
/// created with `O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0600: an existing file (an earlier run's, or a
/// symbolic link planted by another user) is never truncated or written through; the counter moves
/// on to the next free number instead. A folder that other users may write to is refused (nothing is
/// recorded; ``NetlinkDiagnostics/refusal(ofRecordingDirectory:)`` says why).
final class NetlinkRecorder: Sendable {
    private let directory: String
    /// Process-wide, so several sessions recording into one folder never overwrite each other.
    private static let counter = Mutex(0)
    /// How many taken names one message skips at most before it is dropped.
    private static let maximumSkips = 100_000

    /// Why `directory` must not be recorded into, or nil if it is fine: it must be a folder that no other
    /// user may write to (else another user could plant links or files under our names).
    static func refusal(of directory: String) -> String? {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            return "WAWARE_NL_RECORD folder \(directory): \(Errno.current)"
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "WAWARE_NL_RECORD \(directory) is not a folder" }
        if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            return "WAWARE_NL_RECORD folder \(directory) is writable by other users; use a folder only you can write"
        }
        return nil
    }

    init(directory: String) {
        self.directory = directory
    }

    /// Stores one message. Failures to write are ignored: recording must never break the session.
    func record(_ message: NetlinkMessage, label: String) {
        let bytes = message.encoded
        for _ in 0..<Self.maximumSkips {
            let index = Self.counter.withLock { value -> Int in
                value += 1
                return value
            }
            let number = String(index)
            let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
            let path = "\(directory)/\(padded)-\(label).nlmsg"
            let descriptor: Int32
            do throws(Errno) {
                descriptor = try SystemCall.retrying {
                    open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
                }
            } catch  where error == .fileExists {
                continue  // an earlier run's file (or anything else) holds this name: take the next number
            } catch {
                return
            }
            defer { _ = close(descriptor) }
            try? StandardStream(descriptor: descriptor).write(bytes)
            return
        }
    }
}

import Synchronization

/// Diagnostics of this process's netlink sessions, set by the program: the library never reads the
/// environment for them. The CLI turns `WAWARE_NL_RECORD=<dir>` into ``record(into:)`` at start-up.
public enum NetlinkDiagnostics {
    private static let directory = Mutex<String?>(nil)

    /// Records every netlink message received by sessions opened from now on into `directory`, one file
    /// per message (`<counter>-<label>.nlmsg`, header included): how the byte fixtures are captured. nil
    /// or empty stops recording for new sessions.
    public static func record(into directory: String?) {
        let chosen = directory.flatMap { $0.isEmpty ? nil : $0 }
        Self.directory.withLock { $0 = chosen }
    }

    /// The folder messages are recorded into, if any.
    public static var recordingDirectory: String? { directory.withLock { $0 } }

    /// Why messages are not recorded into `directory`, or nil if they can be: it must be a folder no other
    /// user may write to.
    public static func refusal(ofRecordingDirectory directory: String) -> String? {
        NetlinkRecorder.refusal(of: directory)
    }

    /// A recorder for a new connection, or nil when not recording (or the folder is refused).
    static func recorder() -> NetlinkRecorder? {
        guard let directory = recordingDirectory, NetlinkRecorder.refusal(of: directory) == nil else { return nil }
        return NetlinkRecorder(directory: directory)
    }
}

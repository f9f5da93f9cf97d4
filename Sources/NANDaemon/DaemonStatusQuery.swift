public import NANSystem

/// Asks the daemon for its `status` without saying hello (no adapter is started, no session opened): what
/// `waware diagnose` reports about wawared. One connection, one request, one answer.
public enum DaemonStatusQuery {
    /// The daemon's `status` reply from the socket at `path`.
    ///
    /// - Throws: `DaemonError` `noDaemon` when nothing is at `path`; `permissionDenied` when the socket's mode
    ///   or the daemon (`SO_PEERCRED`) refuses this user; `unavailable` when a socket is there but no daemon
    ///   answers within `timeout` (a stale socket, a daemon that hangs); the daemon's own error otherwise.
    public static func ask(path: String, timeout: Duration = .seconds(5)) async throws(DaemonError) -> DaemonReply {
        let socket: LocalSocket
        do {
            socket = try await LocalSocket.connect(to: path, timeout: timeout)
        } catch  where error.errno == .noSuchFile {
            throw DaemonError("noDaemon", "no socket at \(path)")
        } catch  where error.errno == .accessDenied || error.errno == .notPermitted {
            throw .permissionDenied(
                "the socket \(path) refuses this user: only root and members of group '\(DaemonProtocol.group)' may use it"
            )
        } catch  where error.errno == .connectionRefused {
            throw DaemonError("unavailable", "the socket \(path) is there but no daemon listens on it (stale)")
        } catch {
            throw DaemonError("unavailable", "cannot connect to \(path): \(error)")
        }
        defer { socket.cancel() }
        let request = DaemonRequest(id: 1, method: .status)
        var codec = LineCodec()
        do {
            try await socket.send(LineCodec.encode(request), timeout: timeout)
            let deadline = ContinuousClock.now + timeout
            while true {
                let bytes = try await socket.receive(
                    maximum: DaemonProtocol.maximumLineLength, timeout: deadline - .now)
                guard !bytes.isEmpty else { break }
                for case .line(let line) in codec.feed(bytes) {
                    guard let message = LineCodec.decodeMessage(line), message.event == nil else { continue }
                    if let error = message.error { throw error }
                    if message.id == request.id { return message.reply ?? DaemonReply() }
                }
            }
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError("unavailable", "the daemon at \(path) does not answer: \(error)")
        }
        throw DaemonError("unavailable", "the daemon at \(path) closed the connection without an answer")
    }
}

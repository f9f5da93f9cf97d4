import NANDaemon

/// What `waware diagnose` found about wawared at its socket. The field names are the JSON schema (docs/cli.md).
@_spi(Tools) public struct DaemonReport: Codable, Equatable, Sendable {
    /// How the daemon's socket answered.
    public enum State: String, Codable, Sendable {
        /// The daemon answered `status`.
        case answering
        /// Nothing is at the socket's path: no daemon runs (programs own their radio themselves).
        case absent
        /// The socket or the daemon refuses this user (not root, not in group `wawared`).
        case permissionDenied
        /// A socket is there but no daemon answers on it (stale socket, hung daemon).
        case notAnswering
    }

    /// The socket asked (`WAWARED_SOCKET` or `/run/waware/wawared.socket`).
    public var socket: String
    /// How it answered.
    public var state: State
    /// The daemon's release, when it answered and said.
    public var version: String?
    /// The protocol version it speaks, when it answered.
    public var protocolVersion: Int?
    /// The adapters whose radio it holds, when it answered.
    public var adapters: [String]?
    /// How many programs are connected to it (this diagnose included), when it answered and said.
    public var clients: Int?
    /// Why it did not answer, in one line.
    public var error: String?
}

/// Asks wawared for its status and turns the answer into the report's `daemon` section and its check.
@_spi(Tools) public enum DaemonDiagnosis {
    /// Asks the daemon at `socket`; never throws: a failure is the outcome.
    public static func probe(socket: String, timeout: Duration = .seconds(5)) async -> DaemonReport {
        var report = DaemonReport(socket: socket, state: .answering)
        do {
            let reply = try await DaemonStatusQuery.ask(path: socket, timeout: timeout)
            report.version = reply.software
            report.protocolVersion = DaemonProtocol.version
            report.adapters = reply.adapters ?? []
            report.clients = reply.clients
        } catch {
            switch error.code {
            case "noDaemon": report.state = .absent
            case "permissionDenied": report.state = .permissionDenied
            default: report.state = .notAnswering
            }
            report.error = error.message
        }
        return report
    }

    /// The group a user joins to use the daemon, and how.
    static let joinGroup =
        "add yourself to group '\(DaemonProtocol.group)' (sudo usermod -aG \(DaemonProtocol.group) $USER) and log in again"

    /// The `wawared` check: ok when it answers or when none runs (the daemon is optional), a warning when it
    /// refuses this user or does not answer.
    static func check(_ daemon: DaemonReport) -> DiagnosisCheck {
        switch daemon.state {
        case .answering:
            let version = daemon.version.map { " \($0)" } ?? ""
            let adapters = daemon.adapters ?? []
            let serves = adapters.isEmpty ? "no adapter yet" : adapters.joined(separator: ", ")
            let clients = daemon.clients.map { ", \($0) \($0 == 1 ? "client" : "clients")" } ?? ""
            return DiagnosisCheck(
                name: "wawared", verdict: .ok,
                detail:
                    "wawared\(version) (protocol \(daemon.protocolVersion ?? DaemonProtocol.version)) answers at "
                    + "\(daemon.socket): serves \(serves)\(clients)")
        case .absent:
            return DiagnosisCheck(
                name: "wawared", verdict: .ok,
                detail: "not running (no socket at \(daemon.socket)): programs own the radio themselves")
        case .permissionDenied:
            return DiagnosisCheck(
                name: "wawared", verdict: .warning,
                detail: "\(daemon.socket) refuses this user: not root and not in group '\(DaemonProtocol.group)'",
                remedy: joinGroup)
        case .notAnswering:
            return DiagnosisCheck(
                name: "wawared", verdict: .warning,
                detail: "not answering at \(daemon.socket): \(daemon.error ?? "no answer")",
                remedy: "restart it ('sudo systemctl restart wawared.socket wawared.service'), or remove a stale socket"
            )
        }
    }
}

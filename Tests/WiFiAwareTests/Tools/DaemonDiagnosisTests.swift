import Foundation
import Testing

@_spi(Tools) @testable import WiFiAware

/// The `wawared` check of `waware diagnose`: one line per way the daemon's socket answers.
@Suite struct DaemonDiagnosisTests {
    static let socket = "/run/waware/wawared.socket"

    @Test func anAnsweringDaemonNamesItsVersionProtocolAdaptersAndClients() {
        let report = DaemonReport(
            socket: Self.socket, state: .answering, version: "0.1.0", protocolVersion: 1, adapters: ["phy0", "phy2"],
            clients: 3)
        let check = DaemonDiagnosis.check(report)
        #expect(check.verdict == .ok)
        #expect(
            check.detail
                == "wawared 0.1.0 (protocol 1) answers at /run/waware/wawared.socket: serves phy0, phy2, 3 clients")
        #expect(check.remedy == nil)
    }

    @Test func aDaemonHoldingNoAdapterYetSaysSo() {
        let report = DaemonReport(
            socket: Self.socket, state: .answering, version: "0.1.0", protocolVersion: 1, adapters: [], clients: 1)
        #expect(DaemonDiagnosis.check(report).detail.hasSuffix(": serves no adapter yet, 1 client"))
    }

    @Test func noDaemonIsFineProgramsOwnTheRadio() async {
        let path = "/tmp/wawared-none-\(UInt32.random(in: 0...UInt32.max)).sock"
        let report = await DaemonDiagnosis.probe(socket: path, timeout: .seconds(2))
        #expect(report.state == .absent)
        let check = DaemonDiagnosis.check(report)
        #expect(check.verdict == .ok)
        #expect(check.detail == "not running (no socket at \(path)): programs own the radio themselves")
    }

    @Test func aRefusedUserIsToldToJoinTheGroup() {
        let check = DaemonDiagnosis.check(
            DaemonReport(socket: Self.socket, state: .permissionDenied, error: "wawared refuses uid 1000"))
        #expect(check.verdict == .warning)
        #expect(check.detail == "/run/waware/wawared.socket refuses this user: not root and not in group 'wawared'")
        #expect(check.remedy?.contains("sudo usermod -aG wawared $USER") == true)
    }

    @Test func aSilentSocketIsAWarningWithHowToRestart() {
        let check = DaemonDiagnosis.check(
            DaemonReport(
                socket: Self.socket, state: .notAnswering,
                error: "the socket /run/waware/wawared.socket is there but no daemon listens on it (stale)"))
        #expect(check.verdict == .warning)
        #expect(check.detail.hasPrefix("not answering at /run/waware/wawared.socket: the socket"))
        #expect(check.remedy?.contains("systemctl restart wawared.socket") == true)
    }

    @Test func theReportCountsTheDaemonAmongTheMachineChecks() {
        let report = Diagnosis.report(
            kernel: nil, regulatory: nil, adapters: [], daemon: DaemonReport(socket: Self.socket, state: .absent))
        #expect(report.checks.last?.name == "wawared")
        #expect(report.daemon?.state == .absent)
        #expect(report.summary.ok + report.summary.warnings + report.summary.failures == report.checks.count)
    }

    @Test func theDaemonSectionIsInTheJSON() throws {
        let report = Diagnosis.report(
            kernel: nil, regulatory: nil, adapters: [],
            daemon: DaemonReport(
                socket: Self.socket, state: .answering, version: "0.1.0", protocolVersion: 1, adapters: ["phy0"],
                clients: 2))
        let json = try #require(String(data: try JSONEncoder().encode(report), encoding: .utf8))
        #expect(json.contains(#""state":"answering""#))
        #expect(json.contains(#""protocolVersion":1"#))
        #expect(json.contains(#""clients":2"#))
    }
}

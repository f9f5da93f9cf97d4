import FoundationEssentials
@_spi(Tools) import WiFiAware

/// The CLI's diagnostics, wired explicitly here (the libraries read no environment for them):
/// `WAWARE_NL_RECORD=<dir>` records every netlink message received, and `WAWARE_TRACE=1` writes the
/// discovery engine's timing trace to standard error.
enum Diagnostics {
    /// Applies the process-wide settings; `main` calls it once, before any command runs.
    static func configure(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let refusal = ToolProcess.recordNetlinkMessages(into: environment["WAWARE_NL_RECORD"]) {
            try? ToolStream.standardError.write("waware: not recording netlink messages: \(refusal)\n")
        }
    }

    /// `WAWARE_DAEMON=on|off|auto` (default auto): use wawared only, own the radio only, or wawared when it
    /// answers (docs/daemon.md); nil for a value that is none of these.
    static func daemonBackend(environment: [String: String] = ProcessInfo.processInfo.environment) -> WASystemBackend? {
        switch environment["WAWARE_DAEMON"] ?? "auto" {
        case "auto", "": .automatic
        case "on", "1": .daemon
        case "off", "0": .inProcess
        default: nil
        }
    }

    /// `WAWARED_SOCKET=PATH`: where wawared listens, when not at its usual place.
    static func daemonSocket(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        environment["WAWARED_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `WAWARE_DP_SCHEDULE=swapped`: a test knob (docs/data-path.md) that lays our data-path schedule out so
    /// that peers must take our counter-proposal.
    static func swapsDataPathSchedule(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["WAWARE_DP_SCHEDULE"] == "swapped"
    }

    /// `WAWARE_DP_SCHEDULE=channel6`: a test knob (docs/data-path.md) that commits our data-path schedule on
    /// channel 6 only, as a 2.4 GHz-only device, so a dual-band peer commits channels we lack.
    static func limitsDataPathScheduleToChannel6(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        environment["WAWARE_DP_SCHEDULE"] == "channel6"
    }

    /// `WAWARE_DP_NDL_TX=1`: an experiment (docs/benchmarks.md) that sends the frame completing a data-path
    /// setup (open confirm, key install) on the data link's channel once the peer's schedule is in.
    static func transmitsDataPathSetupOnDataLink(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        environment["WAWARE_DP_NDL_TX"] == "1"
    }

    /// `WAWARE_DP_EVACUATE=FREQUENCY:SECONDS`: a test knob (docs/data-path.md) for channel evacuation: that
    /// many seconds after a publisher's first data path is up, the channel on FREQUENCY (MHz) is evacuated
    /// as if the kernel had reported `NAN_CHANNEL_EVAC`. Nil when unset or malformed.
    static func dataPathEvacuation(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (frequency: Int, after: Duration)? {
        guard let text = environment["WAWARE_DP_EVACUATE"] else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let frequency = Int(parts[0]), let seconds = Int(parts[1]), frequency > 0, seconds >= 0
        else { return nil }
        return (frequency, .seconds(seconds))
    }

    /// The logger handed to the libraries: trace lines on standard error with `WAWARE_TRACE=1`, else none.
    static func logger(environment: [String: String] = ProcessInfo.processInfo.environment) -> Logger {
        guard environment["WAWARE_TRACE"] == "1" else { return .disabled }
        return Logger(label: "waware", level: .trace, handler: StandardErrorTrace())
    }
}

/// Writes each message as `trace <unix seconds> <message>` on standard error, with the wall clock so two
/// processes' traces line up.
struct StandardErrorTrace: LogHandler {
    func log(level: LogLevel, label: String, message: String) {
        Output.emit("trace \(String(format3: Date().timeIntervalSince1970)) \(message)\n", to: .standardError)
    }
}

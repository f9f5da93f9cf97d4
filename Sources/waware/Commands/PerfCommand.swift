import NANWire
@_spi(Tools) import WiFiAware

/// `waware perf <service>`: link performance of a data path to a peer (Apple's WAPerformanceReport, measured).
struct PerfCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "perf",
        abstract: "Measure the link to a peer over a NAN data path: rates, schedule, throughput capacity, latency.",
        discussion: [
            "Without --serve: subscribes to the service, sets up a data path to the first publisher found, and prints "
                + "a performance report: the kernel's station statistics (signal, TX/RX rate with MCS, streams and "
                + "width, retries, bytes, per-TID counters), the schedule (committed slots per channel, the airtime "
                + "share both sides have in common), the throughput ceiling (PHY rate x airtime share), the throughput "
                + "capacity (a TCP bulk transfer each way, at most --duration seconds and --max-bytes MiB each) and its "
                + "ratio to the ceiling, and the one-way transmit latency per access category (UDP echoes sent with "
                + "each category's DSCP: average, p50, p95).",
            "With --serve: publishes the service, accepts data paths, and answers the probes on port --port of its "
                + "data interface's link-local address until Ctrl-C or --timeout. The measuring side needs a peer "
                + "running 'waware perf --serve' (or a program using WAPerformanceResponder).",
            "--count N makes N reports (default 1), --interval S apart; --watch refreshes a live view (bars, "
                + "sparklines, a progress line while probing) until Ctrl-C; --json prints one JSON object per report; "
                + "--svg FILE writes a plot of throughput and latency over time after each report. --passive skips "
                + "the probes (no traffic: statistics and schedule only). docs/performance.md says what each number "
                + "means, how it is measured and what it costs on the air.",
            "The peer is the first publisher of the service found; --peer ADDRESS takes only the one with that NAN "
                + "address (the peer keeps it with --fixed-address; otherwise 'waware subscribe' shows the address it "
                + "has now), --device NAMES only these paired devices, --paired any paired device. With --serve, "
                + "--device and --paired choose who may set up a data path.",
            "A peer that disappears during the report ends the command with one line and exit status 17 "
                + "(peerLost); a publisher not found within --timeout with status 1.",
        ],
        examples: [
            Example(
                "waware perf _perf._tcp --serve --open", "Publish _perf._tcp, accept open data paths, answer probes."),
            Example("waware perf _perf._tcp --open", "Set up a data path to the publisher and print one report."),
            Example(
                "waware perf _perf._tcp --open --watch", "A live view, refreshed after every report, until Ctrl-C."),
            Example(
                "waware perf _perf._tcp --passphrase-file nan.pass --count 5 --json --svg perf.svg",
                "Five reports over NCS-SK as JSON lines, plotted into perf.svg."),
            Example(
                "waware perf _perf._tcp --open --passive --count 10 --interval 1",
                "Kernel statistics only, every second."),
            Example(
                "waware perf _perf._tcp --open --peer 42:00:00:00:01:00",
                "Measure the link to the publisher with this NAN address."),
            Example(
                "waware perf _perf._tcp --passphrase-file nan.pass --device kitchen",
                "Measure the link to the paired device 'kitchen'."),
            Example(
                "waware perf _perf._tcp --open --access-category vo,be --duration 1",
                "Latency in voice and best effort only, 1-second transfers."),
        ]
    )

    static let servicePositional = PositionalKey("service", help: "The service, e.g. _perf._tcp.")
    static let serveFlag = FlagKey(
        "serve", help: "Publish the service, accept data paths and answer probes (the peer side).")
    static let countOption = OptionKey(
        "count", short: "n", value: "count", help: "Make this many reports (default 1; with --watch, until Ctrl-C).")
    static let intervalOption = OptionKey(
        "interval", value: "seconds", help: "Start a report at most this often (default 1).")
    static let durationOption = OptionKey(
        "duration", value: "seconds", help: "Longest capacity transfer each way (default 2, at most 10).")
    static let maxBytesOption = OptionKey(
        "max-bytes", value: "MiB", help: "Most bytes each capacity transfer moves (default 64).")
    static let latencyProbesOption = OptionKey(
        "latency-probes", value: "count", help: "Latency probes per access category (default 20, 0 none).")
    static let categoriesOption = OptionKey(
        "access-category", value: "list", help: "Access categories to probe: be,bk,vi,vo (default all).")
    static let passiveFlag = FlagKey("passive", help: "No probes: kernel statistics and schedule only (no traffic).")
    static let portOption = OptionKey("port", value: "port", help: "The probe port, TCP and UDP (default 5301).")
    static let modeOption = OptionKey(
        "mode", value: "bulk|realtime",
        help:
            "bulk: one block of 15 slots; realtime: 30 slots spread over the period (default: neither, every slot but the DWs; both sides should use the same)."
    )
    static let timeoutOption = OptionKey(
        "timeout", value: "seconds",
        help:
            "Give up finding the publisher after this long (default 120; the data-path set-up has its own 120 s); with --serve, stop after this long."
    )
    static let watchFlag = FlagKey("watch", short: "w", help: "A live view refreshed after every report, until Ctrl-C.")
    static let svgOption = OptionKey(
        "svg", value: "file", help: "Write a plot of throughput and latency over time (SVG) after each report.")
    static let peerOption = OptionKey(
        "peer", value: "address", help: "Only the publisher with this NAN address, e.g. 42:00:00:00:01:00.")

    static let arguments: [ArgumentSpec] =
        [
            servicePositional.spec, OptionKey.adapter.spec, serveFlag.spec, countOption.spec,
            intervalOption.spec,
            durationOption.spec, maxBytesOption.spec, latencyProbesOption.spec, categoriesOption.spec, passiveFlag.spec,
            portOption.spec, modeOption.spec, timeoutOption.spec, watchFlag.spec, svgOption.spec, peerOption.spec,
            DiscoveryArguments.pairedFlag.spec, DiscoveryArguments.deviceOption.spec,
            DiscoveryArguments.fixedAddressFlag.spec, .json,
        ] + DataPathArguments.security

    var serviceName: WAServiceName
    var adapter: String?
    var serve: Bool
    var security: WADataPathSecurity
    var count: Int?
    var interval: Duration
    var probes: WAPerformanceProbes?
    /// `--mode`; nil: none asked, the default schedule.
    var mode: WAPerformanceMode?
    var timeout: Double
    var watch: Bool
    var svg: String?
    var json: Bool
    /// `--peer`: only the publisher with this NMI address.
    var peer: MACAddress?
    /// `--paired`, `--device NAMES`, or any device.
    var devices: DiscoveryArguments.DeviceChoice
    /// `--fixed-address`: keep the adapter's NMI address (so a peer can name it with `--peer`).
    var fixedAddress: Bool

    init(from parsed: ParsedValues) throws {
        guard let name = parsed.positional(Self.servicePositional), !name.isEmpty else {
            throw ValidationError("a service name is required, e.g. 'waware perf _perf._tcp --open'")
        }
        do { serviceName = try WAServiceName(name) } catch { throw ValidationError(error.message) }
        adapter = parsed.option(OptionKey.adapter)
        serve = parsed.flag(Self.serveFlag)
        guard DataPathArguments.givesCredential(parsed) else {
            throw ValidationError(
                "perf needs a passphrase or PMK (--passphrase-file, --pmk-file, WAWARE_PASSPHRASE or WAWARE_PMK) or, for an unencrypted data path, --open (as on the peer)"
            )
        }
        guard let chosen = try DataPathArguments.security(from: parsed, required: true, flag: serve ? "serve" : "perf")
        else {
            throw ValidationError("choose --open, --passphrase or --pmk")
        }
        security = chosen
        json = parsed.flag(.json)
        watch = parsed.flag(Self.watchFlag)
        svg = parsed.option(Self.svgOption)
        if watch && json { throw ValidationError("give --watch or --json, not both") }
        count = try parsed.option(
            Self.countOption, expected: "a number of reports from 1 to 1000000",
            ArgumentValues.integer(in: 1...1_000_000))
        interval = .milliseconds(
            Int64(
                (try parsed.option(
                    Self.intervalOption, expected: "seconds from 0.1 to 3600", ArgumentValues.seconds(in: 0.1...3600))
                    ?? 1) * 1000))
        timeout =
            try parsed.option(
                Self.timeoutOption, expected: "seconds from 1 to 86400", ArgumentValues.seconds(in: 1...86400))
            ?? (serve ? 0 : 120)
        mode = try parsed.option(Self.modeOption, expected: "bulk or realtime") {
            WAPerformanceMode(rawValue: $0.lowercased())
        }
        var p = WAPerformanceProbes()
        if let duration = try parsed.option(
            Self.durationOption, expected: "seconds from 0.1 to 10", ArgumentValues.seconds(in: 0.1...10))
        {
            p.capacityDuration = .milliseconds(Int64(duration * 1000))
        }
        if let mebibytes = try parsed.option(
            Self.maxBytesOption, expected: "MiB from 1 to 256", ArgumentValues.integer(in: 1...256))
        {
            p.capacityBytes = UInt64(mebibytes) << 20
        }
        if let probes = try parsed.option(
            Self.latencyProbesOption, expected: "a count from 0 to 1000", ArgumentValues.integer(in: 0...1000))
        {
            p.latencyProbes = probes
        }
        if let list = parsed.option(Self.categoriesOption) {
            var categories: [WAAccessCategory] = []
            for part in list.split(separator: ",") {
                guard let category = WAAccessCategory(name: String(part)) else {
                    throw ValidationError("--access-category takes be, bk, vi and vo (comma-separated), not '\(part)'")
                }
                if !categories.contains(category) { categories.append(category) }
            }
            guard !categories.isEmpty else {
                throw ValidationError("--access-category needs at least one of be, bk, vi, vo")
            }
            p.accessCategories = categories
        }
        if let port = try parsed.option(
            Self.portOption, expected: "a port from 1 to 65535", ArgumentValues.integer(in: 1...65535))
        {
            p.port = UInt16(port)
        }
        probes = parsed.flag(Self.passiveFlag) ? nil : p
        peer = try parsed.option(Self.peerOption, expected: "a NAN address such as 42:00:00:00:01:00") { text in
            ArgumentValues.macBytes(text).flatMap { $0.count == 6 ? MACAddress(bytes: $0) : nil }
        }
        devices = try DiscoveryArguments.deviceChoice(from: parsed)
        fixedAddress = parsed.flag(DiscoveryArguments.fixedAddressFlag)
        if serve {
            let measuring: [(Bool, String)] = [
                (count != nil, "--count"), (watch, "--watch"), (svg != nil, "--svg"),
                (parsed.flag(Self.passiveFlag), "--passive"),
                (peer != nil, "--peer"),
            ]
            if let (_, flag) = measuring.first(where: { $0.0 }) {
                throw ValidationError("\(flag) goes with the measuring side, not --serve")
            }
        }
    }

    /// The port the probes use.
    var port: UInt16 { probes?.port ?? WAPerformanceProbes().port }

    func run(_ output: Output) async throws {
        try await SignalCancellation.run {
            try await DiscoveryRun.withSystem(
                adapter: adapter, masterPreference: 2, performanceMode: mode, fixedAddress: fixedAddress
            ) { system, phy in
                // Mapped here, inside the run, so that a teardown cut short by its bound exits with the same code.
                do {
                    if serve {
                        try await PerfServer(command: self, output: output).run(system, phy: phy)
                    } else {
                        try await PerfClient(command: self, output: output).run(system)
                    }
                } catch let error as WAError where error.code == .connectionTerminated {
                    throw CommandFailure(error.message, code: .peerLost)
                }
            }
        }
    }
}

import NANEngine
import NANSystem
import NANWire

/// The work behind `waware cluster start` and `waware cluster stop`.
@_spi(Tools) public enum ClusterSession {
    /// Creates a NAN interface owned by the session on the adapter `reference` names, starts NAN with the
    /// settings (``startOptions(masterPreference:bands:clusterID:notifyDW:adapter:)``), prints events until the
    /// task is cancelled (SIGINT/SIGTERM), then stops NAN and deletes the interface. `verbose` adds the
    /// discovery windows; `json` prints one JSON object per line.
    /// - Throws: ``WAError`` `deviceRemoved` when the adapter or the interface disappears while running,
    ///   `alreadyRunning` or `wifiAwareUnsupported` when NAN cannot start there; library errors for refused
    ///   requests.
    public static func run(
        adapter reference: String?, masterPreference: UInt8, bands: Set<ClusterBand>?, clusterID: [UInt8]?,
        notifyDW: Bool, verbose: Bool, json: Bool, output: some ToolOutput
    ) async throws {
        let adapters = try await NL80211.withSession { session in try await session.adapters() }
        let adapter = try AdapterSelection.select(reference, from: adapters)
        try AdapterSelection.requireNAN(adapter)
        let report = AdapterReport(adapter)
        if let inUse = report.nanInterfaceInUse { throw WAError(.alreadyRunning, message: inUse) }
        let options = try startOptions(
            masterPreference: masterPreference, bands: bands, clusterID: clusterID, notifyDW: notifyDW, adapter: report)
        try await NANRuntime.run(on: adapter) { runtime in
            let nan = runtime.managementInterface
            // Registered before NAN starts, so the join is not missed.
            let events = try await runtime.events(
                for: NANEventInterest(kinds: [.cluster, .discoveryWindow, .schedule, .offloadedDiscovery, .undecoded]))
            let clock = ContinuousClock()
            let start = clock.now
            let configuration: NANConfiguration
            do {
                configuration = try await runtime.start(options)
            } catch let error as NetlinkError {
                try? await runtime.stop(deleteInterface: true)
                throw startFailure(error, report: report)
            }
            var started = EventRecord("started")
            started.phy = report.phy
            started.wiphy = report.wiphy
            started.interface = nan.name
            started.wdev = nan.wdev.description
            started.address = nan.address.description
            started.masterPreference = Int(configuration.masterPreference)
            started.bands = configuration.bands.map { $0.bands.map(NANReport.bandName) } ?? []
            try write(started, json: json, output: output)

            let ending = try await watch(
                events, nan: nan, phy: report.phy, verbose: verbose, json: json, output: output,
                elapsed: { clock.now - start })

            var stopped = EventRecord("stopped")
            stopped.phy = report.phy
            stopped.interface = nan.name
            stopped.wdev = nan.wdev.description
            switch ending {
            case .removed(let failure):
                throw failure
            case .interrupted:
                // The runtime's stop runs in its own task, so it still happens from this cancelled one.
                // Closing the session would remove the interface anyway (it owns it).
                do {
                    try await runtime.stop(deleteInterface: true)
                    stopped.detail = "interface \(nan.name) deleted"
                } catch {
                    stopped.detail =
                        "teardown: \(WAError.tool(error).message); "
                        + "the kernel removes the interface as waware exits"
                }
                try write(stopped, json: json, output: output)
            }
        }
    }

    /// How the event loop ended.
    private enum Ending {
        /// SIGINT/SIGTERM (task cancellation).
        case interrupted
        /// The adapter or the interface disappeared.
        case removed(WAError)
    }

    /// Prints this interface's events until cancellation or removal.
    private static func watch(
        _ events: AsyncThrowingStream<NL80211Event, any Error>, nan: NANInterface, phy: String,
        verbose: Bool, json: Bool, output: some ToolOutput, elapsed: () -> Duration
    ) async throws -> Ending {
        for try await event in events {
            switch event {
            case .wiphyRemoved(let wiphy) where wiphy == nan.wiphy:
                return .removed(radioRemoved(phy))
            case .interfaceRemoved(_, let wdev, _) where wdev == nan.wdev:
                // A removed radio takes its interfaces first; tell that apart from someone deleting ours.
                let stillThere = try? await stillPresent(nan.wiphy)
                if stillThere == false {
                    return .removed(radioRemoved(phy))
                }
                return .removed(
                    WAError(
                        .deviceRemoved,
                        message:
                            "the NAN interface \(nan.name) (wdev \(nan.wdev)) on \(phy) was deleted while NAN was running"
                    ))
            case .clusterJoined(let wdev, _, _) where wdev == nan.wdev,
                .scheduleUpdateDone(let wdev, _) where wdev == nan.wdev:
                try write(record(event, nan: nan, phy: phy, elapsed: elapsed()), json: json, output: output)
            case .nextDiscoveryWindow(let wdev, _) where wdev == nan.wdev && verbose:
                try write(record(event, nan: nan, phy: phy, elapsed: elapsed()), json: json, output: output)
            case .nanMatch(let match) where match.wdev == nan.wdev:
                try write(record(event, nan: nan, phy: phy, elapsed: elapsed()), json: json, output: output)
            case .overrun, .malformed:
                try write(record(event, nan: nan, phy: phy, elapsed: elapsed()), json: json, output: output)
            default:
                continue
            }
        }
        guard Task.isCancelled else {
            throw WAError(.kernel, message: "the kernel connection closed while NAN was running on \(phy)")
        }
        return .interrupted
    }

    private static func radioRemoved(_ phy: String) -> WAError {
        WAError(
            .deviceRemoved,
            message: "\(phy) was removed while NAN was running (unplugged, driver unloaded or radio deleted)")
    }

    /// Whether the radio still exists, asked on a fresh session (the running one is busy with events).
    private static func stillPresent(_ wiphy: WiphyIndex) async throws -> Bool {
        try await NL80211.withSession { session in
            try await session.adapters().contains { $0.wiphy == wiphy }
        }
    }

    private static func record(_ event: NL80211Event, nan: NANInterface, phy: String, elapsed: Duration) -> EventRecord
    {
        var record = EventRecord(event, phyNames: [nan.wiphy.rawValue: phy])
        record.interface = record.wdev == nan.wdev.description ? nan.name : record.interface
        record.elapsedSeconds = seconds(elapsed)
        return record
    }

    /// `duration` in seconds, to the millisecond.
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.inWholeMilliseconds) / 1000
    }

    /// The runtime's start options for the command's options, checked against what the adapter supports:
    /// the kernel's bands unless `--bands` names some, and a random valid cluster ID unless `--cluster-id`
    /// names one (mac80211_hwsim otherwise announces cluster 00:00:00:00:00:00).
    static func startOptions(
        masterPreference: UInt8, bands: Set<ClusterBand>?, clusterID: [UInt8]?, notifyDW: Bool, adapter: AdapterReport
    ) throws(WAError) -> NANStartOptions {
        var options = NANStartOptions()
        options.masterPreference = masterPreference
        options.notifyDiscoveryWindows = notifyDW
        options.bands = .kernelDefault
        if let requested = bands {
            var set = NANBands()
            for band in requested {
                switch band {
                case .ghz2_4: set.insert(.band2GHz)
                case .ghz5: set.insert(.band5GHz)
                case .ghz6: set.insert(.band6GHz)
                }
            }
            let missing = requested.sorted().map(\.rawValue).filter { !adapter.nan.bands.contains($0) }
            if !missing.isEmpty, !adapter.nan.bands.isEmpty {
                throw WAError(
                    .wifiAwareUnsupported,
                    message: "\(adapter.phy) cannot do NAN on \(missing.joined(separator: ", ")) "
                        + "(its NAN bands: \(adapter.nan.bands.joined(separator: ", ")))")
            }
            options.bands = .exactly(set)
        }
        let clusterID = clusterID.flatMap { MACAddress(bytes: $0) }
        options.clusterID = clusterID.map { .fixed($0) } ?? .randomIfConfigurable
        if (clusterID != nil || notifyDW) && !adapter.nan.configurableSync {
            throw WAError(
                .wifiAwareUnsupported,
                message: "\(adapter.phy) does not accept a NAN configuration (no CONFIGURABLE_SYNC): "
                    + "--cluster-id and --notify-dw cannot be used on it")
        }
        return options
    }

    /// Explains a refused `START_NAN`.
    private static func startFailure(_ error: NetlinkError, report: AdapterReport) -> any Error {
        if error.code == .alreadyRunning {
            return WAError(.alreadyRunning, message: "NAN is already running on \(report.phy)")
        }
        if error.code == .notSupported {
            return WAError(
                .wifiAwareUnsupported,
                message: "\(report.phy) refused to start NAN with these settings (\(error.description))")
        }
        if error.code == .noSuchDevice {
            return WAError(.deviceRemoved, message: "\(report.phy) disappeared while NAN was starting")
        }
        return error
    }

    private static func write(_ record: EventRecord, json: Bool, output: some ToolOutput) throws {
        if json { try output.writeJSON(record) } else { output.write(record.line) }
    }

    /// Stops NAN on every NAN interface of the adapter `reference` names and, with `delete`, deletes them.
    public static func stop(adapter reference: String?, delete: Bool, json: Bool, output: some ToolOutput) async throws
    {
        try await NL80211.withSession { session in
            let report = AdapterReport(try AdapterSelection.select(reference, from: try await session.adapters()))
            let nanInterfaces = report.interfaces.filter { $0.type == InterfaceType.nan.description }
            if nanInterfaces.isEmpty {
                var record = EventRecord("nothingToStop")
                record.phy = report.phy
                record.detail = "\(report.phy) has no NAN interface, so NAN is not running there"
                if json { try output.writeJSON(record) } else { output.write(record.detail ?? "") }
                return
            }
            for interface in nanInterfaces {
                guard let wdev = WirelessDeviceID(interface.wdev) else { continue }
                try await session.stopNAN(on: wdev)
                var record = EventRecord("stopped")
                record.phy = report.phy
                record.interface = interface.name
                record.wdev = interface.wdev
                if delete {
                    try await session.deleteInterface(wdev)
                    record.detail = "interface \(interface.label) deleted"
                }
                if json { try output.writeJSON(record) } else { output.write(record.text) }
            }
        }
    }
}

/// A NAN band `waware cluster start --bands` may name; the raw value is the report's band name
/// (``NANReport/bands``).
@_spi(Tools) public enum ClusterBand: String, CaseIterable, Sendable, Comparable {
    /// The 2.4 GHz band (NAN channel 6, 2437 MHz).
    case ghz2_4 = "2.4GHz"
    /// The 5 GHz band (NAN channel 149 or 44).
    case ghz5 = "5GHz"
    /// The 6 GHz band.
    case ghz6 = "6GHz"

    /// In the order above.
    public static func < (a: ClusterBand, b: ClusterBand) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }
}

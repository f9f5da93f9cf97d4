import NANWire
@_spi(Tools) import WiFiAware

/// The measuring side of `waware perf`: finds the publisher, sets up the data path, prints reports.
struct PerfClient {
    let command: PerfCommand
    let output: Output

    func run(_ system: WASystem) async throws {
        let name = command.serviceName.rawValue
        let start = ContinuousClock.now
        let endpoint = try await findPublisher(system, name: name)
        // The engine gives the set-up 120 s (NAFs wait for DWs); a refusal or timeout throws connectionFailed.
        try await system.withDataPath(to: endpoint, security: command.security) { connection, events in
            let up = DataPathRecord.from(.connected(connection), service: name, since: start)
            if command.json {
                try up.write(json: true, to: output)
            } else if !command.watch {
                try up.write(json: false, to: output)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in events {
                        if case .terminated(let peer, _, let reason) = event {
                            throw CommandFailure(
                                "the data path to \(peer) ended during the report: \(reason)", code: .peerLost)
                        }
                    }
                    if Task.isCancelled { return }
                    throw CommandFailure("the data path to \(connection.peer) ended during the report", code: .peerLost)
                }
                group.addTask { try await report(system, connection, name: name, since: start) }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    /// The first publisher of the service, or a failure after --timeout.
    private func findPublisher(_ system: WASystem, name: String) async throws -> WAEndpoint {
        var parameters = WASubscriberParameters()
        parameters.active = true
        let subscriber = system.subscribe(
            to: try WASubscribableService(name: command.serviceName, serviceInfo: []),
            from: try command.devices.selection(in: system.store), parameters: parameters)
        let wanted = Self.describe(peer: command.peer, devices: command.devices)
        if command.watch { output.write("looking for a publisher of \(name)\(wanted) ...") }
        let found = try await SubscriptionTimeout.run(subscriber, timeout: command.timeout) {
            [peer = command.peer] _ -> WAEndpoint? in
            for try await event in subscriber {
                if case .discovered(let endpoint) = event, peer.map({ $0 == endpoint.address }) ?? true {
                    await subscriber.stop()
                    return endpoint
                }
            }
            return nil
        }
        guard let found else {
            throw CommandFailure(
                "no publisher of \(name)\(wanted) found within \(PerformanceRecord.number(command.timeout, 0)) s "
                    + "(is 'waware perf \(name) --serve' running on the peer?)")
        }
        return found
    }

    /// ` at 42:00:00:00:01:00`, ` among the paired devices kitchen`, ` among the paired devices`, or nothing.
    static func describe(peer: MACAddress?, devices: DiscoveryArguments.DeviceChoice) -> String {
        var text = peer.map { " at \($0)" } ?? ""
        switch devices {
        case .anyDevice: break
        case .allPaired: text += " among the paired devices"
        case .named(let names): text += " among the paired devices \(names.joined(separator: ", "))"
        }
        return text
    }

    private func report(
        _ system: WASystem, _ connection: WADataPathConnection, name: String, since start: ContinuousClock.Instant
    ) async throws {
        let view = command.watch ? PerformanceView() : nil
        let progress: (@Sendable (WAPerformanceProgress) -> Void)? = view.map { view in
            { @Sendable (p: WAPerformanceProgress) in view.progress(p) }
        }
        var history: [PerformanceRecord] = []
        var index = 0
        let limit = command.count ?? (command.watch ? Int.max : 1)
        while index < limit {
            let started = ContinuousClock.now
            let report = try await system.performanceReport(
                for: connection, probes: command.probes, mode: command.mode, progress: progress)
            index += 1
            let record = PerformanceRecord(
                report, index: index, service: name, peer: connection.peer.description, since: start)
            history.append(record)
            if history.count > PerformancePlot.maximumPoints { history.removeFirst() }
            if let view {
                view.show(record, history: history)
            } else {
                try output.write(record, json: command.json, lines: record.lines)
            }
            if let svg = command.svg {
                try PerformancePlot.write(history, service: name, peer: connection.peer.description, to: svg)
            }
            guard index < limit else { break }
            let next = started + command.interval
            if next > .now { try await Task.sleep(until: next) }
        }
    }
}

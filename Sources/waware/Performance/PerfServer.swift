import NANWire
import WiFiAware

/// `waware perf --serve`: publishes the service, accepts data paths and answers the performance probes on
/// each data interface until Ctrl-C or --timeout.
struct PerfServer {
    let command: PerfCommand
    let output: Output

    func run(_ system: WASystem, phy: String) async throws {
        let name = command.serviceName.rawValue
        let service = try WAPublishableService(name: command.serviceName, serviceInfo: [], wantsDataPath: true)
        let publisher = system.publish(
            service, to: try command.devices.selection(in: system.store), parameters: WAPublisherParameters())
        let start = ContinuousClock.now
        var records = SessionRecords(service: name, start: start)
        let timer: Task<Void, Never>? =
            command.timeout > 0
            ? Task { [timeout = command.timeout] in
                try? await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                if !Task.isCancelled { await publisher.stop() }
            } : nil
        defer { timer?.cancel() }
        var accepting: Task<Void, any Error>?
        defer { accepting?.cancel() }
        for try await event in publisher {
            switch event {
            case .started(let id):
                try records.started(id, phy: phy, address: system.localAddress).write(json: command.json, to: output)
                let (json, security, port, output) = (command.json, command.security, command.port, output)
                accepting = Task {
                    var responders: [String: WAPerformanceResponder] = [:]
                    defer { for responder in responders.values { responder.stop() } }
                    do {
                        for try await event in system.acceptDataPaths(for: publisher, security: security) {
                            try DataPathRecord.from(event, service: name, since: start).write(json: json, to: output)
                            guard case .connected(let connection) = event else { continue }
                            let key = "\(connection.interfaceName) \(connection.localAddress)"
                            guard responders[key] == nil else { continue }
                            let responder = try await WAPerformanceResponder.start(on: connection, port: port)
                            responders[key] = responder
                            var r = DataPathRecord("perf-serving", service: name, since: start)
                            r.interface = connection.interfaceName
                            r.localAddress = connection.localAddress.description
                            r.detail = "answering performance probes on \(responder.endpoint)"
                            try r.write(json: json, to: output)
                        }
                    } catch {
                        // The publish ends with it, so the command fails with this error.
                        await publisher.stop()
                        throw error
                    }
                }
            case .eventsLost(let dropped):
                output.fail(records.eventsLostNotice(droppedEvents: dropped))
            case .terminated(let reason):
                try records.terminated(reason.description).write(json: command.json, to: output)
            case .discovered, .updated, .lost, .messageReceived:
                break
            }
        }
        if let accepting {
            accepting.cancel()
            try await accepting.value
        }
    }
}

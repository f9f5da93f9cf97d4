// aware-example: publish or subscribe to a declared Wi-Fi Aware service with the public WiFiAware API only.
//
//   aware-example publish <service> [--adapter phy0] [--paired]
//   aware-example subscribe <service> [--adapter phy0] [--paired | --device NAME] [--active] [--timeout SECONDS]
//
// The service must be declared in the services file ($WAWARE_SERVICES, ~/.config/waware/services.json or
// /etc/waware/services.json); paired devices come from the store ($WAWARE_STATE_DIR/devices.json, ...).
// Each event is printed as one line. Ctrl-C (or the timeout) cancels the session, which stops it on the radio.
// The C library only for write(2) and exit: no Foundation (see docs/benchmarks.md, memory).
import Glibc
import WiFiAware
#if canImport(Glibc)
    import Glibc
#endif

/// Writes `text` straight to a file descriptor (unbuffered, so logs of background runs are complete).
/// A write error (a closed pipe, a full disk) drops the rest of the text; it never traps.
func emit(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        bytes = bytes.dropFirst(count)
    }
}

/// Writes a line to standard output.
func say(_ line: String) {
    emit(line + "\n", to: 1)
}

/// A one-line description of an endpoint.
func describe(_ endpoint: WAEndpoint) -> String {
    var line = "peer \(endpoint.address) instance \(endpoint.instanceID)"
    if let info = String(validating: endpoint.serviceInfo, as: UTF8.self), !info.isEmpty { line += " info \"\(info)\"" }
    line += " device " + (endpoint.device?.displayName ?? "(unpaired)")
    if let signal = endpoint.performance.signalStrength { line += " signal \(signal) dBm" }
    return line
}

/// Prints one session event; returns false after the last one.
func show(_ event: WASessionEvent, service: String) -> Bool {
    switch event {
    case .started(let instance): say("started \(service) instance \(instance)")
    case .discovered(let endpoint): say("discovered " + describe(endpoint))
    case .updated(let endpoint): say("updated " + describe(endpoint))
    case .lost(let endpoint): say("lost " + describe(endpoint))
    case .messageReceived(let message):
        say("message \"\(String(decoding: message.payload, as: UTF8.self))\" from " + describe(message.endpoint))
    case .eventsLost(let dropped):
        say("radio events lost (\(dropped.map { "\($0)" } ?? "an unknown number")); resynchronised")
    case .terminated(let reason):
        say("terminated \(reason)")
        return false
    }
    return true
}

struct Arguments {
    var command = ""
    var service = ""
    var adapter: String?
    var paired = false
    var device: String?
    var active = false
    var timeout: Double?

    init(_ words: [String]) throws {
        var rest = words[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw WAError(.invalidArgument, message: "\(flag) needs a value") }
            return next
        }
        var positionals: [String] = []
        while let word = rest.popFirst() {
            switch word {
            case "--adapter": adapter = try value(word)
            case "--paired": paired = true
            case "--device": device = try value(word)
            case "--active": active = true
            case "--timeout":
                // Finite and at most a year: `inf` or 1e300 seconds is not a Duration (it would trap).
                guard let seconds = Double(try value(word)), seconds.isFinite, seconds > 0, seconds <= 31_536_000 else {
                    throw WAError(
                        .invalidArgument, message: "--timeout needs a number of seconds from 0 to 31536000 (a year)")
                }
                timeout = seconds
            default: positionals.append(word)
            }
        }
        guard positionals.count == 2, ["publish", "subscribe"].contains(positionals[0]) else {
            throw WAError(
                .invalidArgument,
                message: "usage: aware-example publish|subscribe <service> [--adapter A] [--paired | --device NAME] "
                    + "[--active] [--timeout SECONDS]")
        }
        command = positionals[0]
        service = positionals[1]
    }

    /// Which peers to deal with.
    func selection(in store: WADeviceStore) throws -> WADeviceSelection {
        if let device { return .selected([try store.device(identifiedBy: device)]) }
        return paired ? .allPairedDevices : .anyDevice
    }
}

/// Runs the session until it ends, or until the timeout cancels it.
func run(
    _ events: some AsyncSequence<WASessionEvent, any Error> & Sendable, service: String, timeout: Double?
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            for try await event in events {
                if !show(event, service: service) { break }
            }
        }
        if let timeout {
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                say("timeout after \(timeout) s")
            }
        }
        // The first to finish (the session, or the timer) cancels the other: cancelling stops the session.
        try await group.next()
        group.cancelAll()
    }
}

do {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    let options = WASystemOptions()
    let devices = try arguments.selection(in: options.store)
    if arguments.command == "publish" {
        let service = try WAPublishableService.named(arguments.service)
        try await WASystem.run(adapter: arguments.adapter, options: options) { system in
            say("system \(system.adapterName) nmi \(system.localAddress)")
            try await run(system.publish(service, to: devices), service: arguments.service, timeout: arguments.timeout)
        }
    } else {
        let service = try WASubscribableService.named(arguments.service)
        var parameters = WASubscriberParameters()
        parameters.active = arguments.active
        try await WASystem.run(adapter: arguments.adapter, options: options) { system in
            say("system \(system.adapterName) nmi \(system.localAddress)")
            let subscriber = system.subscribe(to: service, from: devices, parameters: parameters)
            try await run(subscriber, service: arguments.service, timeout: arguments.timeout)
        }
    }
} catch {
    emit("aware-example: \(error)\n", to: 2)
    exit(1)
}

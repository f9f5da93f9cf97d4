// seed-connection: the first seed's listener / browser / connection code, with the WiFiAware API only.
//
//   seed-connection listen <service> [--adapter phy0] [--count N]
//       a publisher accepting connections from paired devices: prints each connection's state, answers
//       each message with "hello from the listener", until N connections have ended (default 1)
//   seed-connection browse <service> [--adapter phy0]
//       a browser finding a paired listener, a connection to it (TLS unless the build's default is plain),
//       a message each way, then the performance report of the connection's data path
//
// As in Apple's sample, the service is declared in the services file ($WAWARE_SERVICES, ...) and the devices
// are the paired ones ($WAWARE_STATE_DIR/devices.json: pair first with `waware pair`). The data path under a
// connection between paired devices is keyed by the pairing (NCS-PK-PASN). Every event is one line.
import Glibc
import WiFiAware

func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
        let count = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        bytes = bytes.dropFirst(count)
    }
}

/// The connection parameters both sides use: the data path keyed by the pairing, the connection under the
/// package's default transport (mutual TLS once it is the default; the line `connection ... ready` says which).
func parameters() -> WAConnectionParameters {
    WAConnectionParameters(dataPathSecurity: .pairing)
}

/// Publisher: `NetworkListener(for: .wifiAware(.connecting(to: service, from: .allPairedDevices)))` and
/// `listener.run { connection in ... }`.
func listen(_ name: String, adapter: String?, count: Int) async throws {
    let service = try WAPublishableService.named(name)
    try await WASystem.run(adapter: adapter) { system in
        // Apple's seed says `from: .allPairedDevices`. Here a publisher cannot yet recognise a paired device by
        // its random NAN address (publisher-side verification, issue 9), so its data paths would be refused
        // (NAN reason 10): the radio admits any device and the TLS trust (`.pairedDevices`, the default) admits
        // only connections from paired devices, whose certificates are learned over their pairing.
        let listener = system.listener(for: service, from: .anyDevice, parameters: parameters())
        let (ended, connectionEnded) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await event in listener {
                    switch event {
                    case .ready(let port): say("listener ready on port \(port)")
                    case .dataPathUp(let path): say("listener data path up \(path)")
                    case .dataPathDown(let peer, let reason): say("listener data path down \(peer) \(reason)")
                    case .refused(let error): say("listener refused: \(error)")
                    case .connection(let connection):
                        say("connection \(connection): \(connection.currentState)")
                        Task {
                            await serve(connection)
                            connectionEnded.yield()
                        }
                    }
                }
            }
            group.addTask {
                var n = 0
                for await _ in ended {
                    n += 1
                    if n >= count { return }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// Answers each message of one connection until the peer closes it.
func serve(_ connection: WAConnection) async {
    do {
        while let content = try await connection.receive() {
            guard case .message(let bytes) = content else { continue }
            say(
                "listener received \"\(String(decoding: bytes, as: UTF8.self))\" from \(connection.device?.displayName ?? "(unpaired)")"
            )
            try await connection.send(Array("hello from the listener".utf8))
        }
    } catch {
        say("connection \(connection.remotePeer) failed: \(error)")
    }
    connection.cancel()
    say("connection \(connection.remotePeer): \(connection.currentState)")
}

/// Subscriber: `NetworkBrowser(for: .wifiAware(.connecting(to: .allPairedDevices, from: service)))`, then
/// `NetworkConnection(to: endpoint) { TLS() }` and `connection.currentPath?.wifiAware?.performance`.
func browse(_ name: String, adapter: String?) async throws {
    let service = try WASubscribableService.named(name)
    try await WASystem.run(adapter: adapter) { system in
        var found: WAEndpoint?
        for try await event in system.browser(for: service, from: .allPairedDevices) {
            if case .found(let endpoint) = event {
                found = endpoint
                break
            }
        }
        guard let endpoint = found else {
            throw WAError(.connectionFailed, message: "the browser ended without a listener")
        }
        say("browser found \(endpoint.address) device \(endpoint.device?.displayName ?? "(unpaired)")")
        try await system.withConnection(
            to: endpoint, parameters: parameters(),
            onStateUpdate: { state in
                say("connection state \(state)")
            }
        ) { connection in
            say("connection \(connection) ready")
            try await connection.send(Array("hello from the browser".utf8))
            guard case .message(let reply) = try await connection.receive() else {
                throw WAError(.connectionTerminated, message: "the listener closed without answering")
            }
            say("browser received \"\(String(decoding: reply, as: UTF8.self))\"")
            let report = try await system.performanceReport(for: connection.dataPath, probes: nil)
            say(
                "performance signal \(report.signalStrength.map { "\($0) dBm" } ?? "unknown")"
                    + " ceiling \(report.throughputCeiling.map { "\(Int($0)) Mbit/s" } ?? "unknown")"
                    + " sent \(report.link?.transmittedBytes.map { "\($0)" } ?? "?") bytes"
                    + " received \(report.link?.receivedBytes.map { "\($0)" } ?? "?") bytes")
            await connection.finishSending()
        }
    }
}

var words = Array(CommandLine.arguments.dropFirst())[...]
var positionals: [String] = []
var adapter: String?
var count = 1
while let word = words.popFirst() {
    switch word {
    case "--adapter": adapter = words.popFirst()
    case "--count": count = words.popFirst().flatMap { Int($0) } ?? 1
    default: positionals.append(word)
    }
}
do {
    switch (positionals.first ?? "", positionals.count) {
    case ("listen", 2): try await listen(positionals[1], adapter: adapter, count: count)
    case ("browse", 2): try await browse(positionals[1], adapter: adapter)
    default:
        say("usage: seed-connection listen|browse <service> [--adapter A] [--count N]")
        exit(2)
    }
} catch {
    let text = "seed-connection: \(error)\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(1)
}

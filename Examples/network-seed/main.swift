// network-seed: issue 27's first seed (Apple's "Connecting devices for peer-to-peer Wi-Fi") as written, over
// the Network-framework-shaped layer. Only the import line differs (Apple's code imports Network and
// WiFiAware), and the closure bodies the seed leaves to the reader are filled in: one message each way, then
// the connection's performance report.
//
//   network-seed listen [--adapter phy0]    the listener: answers the first connection's message, then exits
//   network-seed browse [--adapter phy0]    the browser and the connection: a message each way, the report
//
// The service `_example-service._tcp` is declared in the services file ($WAWARE_SERVICES, ...), publishable
// and subscribable; the devices are the paired ones whose name starts with "My Device" (pair first with
// `waware pair`, naming the peer so). The data path under the connection is keyed by the pairing.
import Glibc
import WiFiAwareNetwork

// --- the seed ---------------------------------------------------------------------------------------------

extension WAPublishableService {
    public static var exampleService: WAPublishableService { allServices["_example-service._tcp"]! }
}
// The subscribing side's twin of the line above (Apple's sample declares both; the seed shows one).
extension WASubscribableService {
    public static var exampleService: WASubscribableService { allServices["_example-service._tcp"]! }
}
let devices = #Predicate<WAPairedDevice> { $0.name?.starts(with: "My Device") ?? false }

func listen() async throws {
    try await NetworkListener(
        for: .wifiAware(.connecting(to: .exampleService, from: .matching(devices))),
        using: { TLS() }
    )
    .onStateUpdate { listener, state in
        say("listener \(state)")
    }
    .run { connection in
        let message = try await connection.receive(atMost: 1024)
        say("listener received \"\(String(decoding: message, as: UTF8.self))\"")
        try await connection.send(Data("hello from the listener".utf8))
        // Until the browser closes: then this example is done.
        _ = try? await connection.receive(atMost: 1)
        say("listener done")
        exit(0)
    }
}

func browse() async throws {
    let endpoint = try await NetworkBrowser(for: .wifiAware(.connecting(to: .matching(devices), from: .exampleService)))
        .onStateUpdate { browser, state in
            say("browser \(state)")
        }
        .run { waEndpoints in .finish(waEndpoints.first!) }  // or .continue
    say("browser found \(endpoint) device \(endpoint.device?.name ?? "(unpaired)")")
    let connection = NetworkConnection(to: endpoint, using: { TLS() }).onStateUpdate { connection, state in
        switch state {
        case .failed(let error):
            let wifiAwareError = error.wifiAware
            say("connection failed: \(error) (Wi-Fi Aware: \(wifiAwareError.map { "\($0.code)" } ?? "-"))")
        default:
            say("connection \(state)")
        }
    }
    try await connection.send(Data("hello from the browser".utf8))
    let reply = try await connection.receive(atMost: 1024)
    say("browser received \"\(String(decoding: reply, as: UTF8.self))\"")
    if let wifiAwarePath = try await connection.currentPath?.wifiAware {
        let report = wifiAwarePath.performance
        say(
            "performance signal \(report.signalStrength.map { "\($0) dBm" } ?? "unknown")"
                + " ceiling \(report.throughputCeiling.map { "\(Int($0)) Mbit/s" } ?? "unknown")"
                + " sent \(report.link?.transmittedBytes.map { "\($0)" } ?? "?") bytes"
                + " received \(report.link?.receivedBytes.map { "\($0)" } ?? "?") bytes")
    }
    connection.cancel()
}

// --- the program around it -------------------------------------------------------------------------------

/// One line to standard output, at once (a pipe would otherwise hold it).
func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
        let count = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        bytes = bytes.dropFirst(count)
    }
}

var words = Array(CommandLine.arguments.dropFirst())[...]
var command = ""
while let word = words.popFirst() {
    switch word {
    case "--adapter": NetworkWiFiAware.configuration.adapter = words.popFirst()
    default: command = word
    }
}
do {
    switch command {
    case "listen": try await listen()
    case "browse":
        try await browse()
        await NetworkWiFiAware.stop()  // NAN down before the process ends (the kernel would do it anyway)
    default:
        say("usage: network-seed listen|browse [--adapter A]")
        exit(2)
    }
} catch {
    let text = "network-seed: \(error)\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(1)
}

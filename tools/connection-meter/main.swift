// connection-meter: the connection figures of issue 10's benchmark, measured with the public WiFiAware API
// against a `waware listen --echo --datagrams` on another device (tools/connection-bench runs it in the VM).
//
//   connection-meter <service> [--plain] [--pings N] [--connections N] [--hold-until FILE] [--hold-seconds S]
//
// Prints `figure NAME VALUE UNIT` lines:
// - browse-to-ready: from starting the browser (the radio already in a cluster) to the first connection
//   ready, with found-to-ready (data path, TCP, TLS, preface) beside it; seconds and DW periods (0.524 s);
// - message round trip: N messages of 64 bytes, one at a time, echoed by the listener: p50 and p95;
// - datagram round trip: N datagrams, one at a time (1 s each at most), p50 and how many were lost;
// - client memory per open connection: VmRSS with 1 connection and with N (over the one shared data path).
// Then it holds the data path (printing its interface and addresses) until FILE exists or S seconds pass, so
// the script can run tls-throughput-meter over the same NDP and read the listener's memory.
import Glibc
import NANSystem
import NANWire
import Synchronization
import WiFiAware

struct Failure: Error, CustomStringConvertible { let description: String }

/// One line on standard output, unbuffered (the script waits for lines while this runs).
func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
        let count = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        bytes = bytes.dropFirst(count)
    }
}

func fixed(_ v: Double, _ places: Int = 3) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let n = Int((v * scale).rounded())
    let whole = n / Int(scale), fraction = String(abs(n) % Int(scale))
    return "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
}

/// Nearest-rank percentile.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = max(1, Int((p / 100 * Double(sorted.count)).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
}

/// This process's resident memory in KiB (VmRSS in /proc/self/status).
func residentKiB() -> Int {
    guard
        let bytes = try? FileContents.readRegularFile(
            at: "/proc/self/status", limit: 1 << 16, what: "status",
            followingSymbolicLinks: true)
    else { return -1 }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
    return -1
}

func fileExists(_ path: String) -> Bool {
    (try? FileContents.readRegularFile(at: path, limit: 16, what: "flag", followingSymbolicLinks: true)) != nil
}

/// One message to the echoing listener and its echo.
func roundTrip(_ connection: WAConnection, _ payload: [UInt8]) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try await connection.send(payload)
    guard case .message(let echo) = try await connection.receive(), echo == payload else {
        throw Failure(description: "the listener did not echo the message")
    }
    return (clock.now - start).inSeconds
}

/// When each echoed datagram came back, recorded by one task reading the connection's datagrams.
final class Arrivals: Sendable {
    let times = Mutex<[[UInt8]: ContinuousClock.Instant]>([:])

    func record(_ datagrams: AsyncStream<[UInt8]>) async {
        for await datagram in datagrams { times.withLock { $0[datagram] = ContinuousClock.now } }
    }

    /// One datagram and its echo, nil when none came within a second.
    func roundTrip(_ connection: WAConnection, _ n: Int) async throws -> Double? {
        let payload = Array("dgram \(n)".utf8)
        let start = ContinuousClock.now
        try connection.send(datagram: payload)
        while ContinuousClock.now < start + .seconds(1) {
            if let arrived = times.withLock({ $0[payload] }) { return (arrived - start).inSeconds }
            try await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }
}

/// Opens `count` more connections to `endpoint` (nested: each stays open), proving each ready with one
/// round trip, then runs `body` with all of them open.
func holding(
    _ count: Int, to endpoint: WAEndpoint, system: WASystem, parameters: WAConnectionParameters,
    _ body: () async throws -> Void
) async throws {
    guard count > 0 else { return try await body() }
    try await system.withConnection(to: endpoint, parameters: parameters) { connection in
        _ = try await roundTrip(connection, Array("open".utf8))
        try await holding(count - 1, to: endpoint, system: system, parameters: parameters, body)
    }
}

/// The whole run: browse, connect, measure, hold.
func bench(name: String, plain: Bool, pings: Int, connections: Int, holdSeconds: Int, holdFile: String?) async throws {
    let service = try WASubscribableService(name: WAServiceName(name), wantsDataPath: true)
    var parameters = WAConnectionParameters(dataPathSecurity: .open)
    // unpaired bench devices
    if plain { parameters.transport = .plain } else { parameters.trust = .pairedDevicesOrFirstUse }
    parameters.datagrams = WADatagramOptions()
    let dw = WADiscoveryWindow.periodSeconds
    try await WASystem.run { system in
        let clock = ContinuousClock()
        let start = clock.now
        var found: WAEndpoint?
        for try await case .found(let endpoint) in system.browser(for: service, from: .anyDevice) {
            found = endpoint
            break
        }
        guard let endpoint = found else { throw Failure(description: "the browser ended without a listener") }
        let foundAt = (clock.now - start).inSeconds
        try await system.withConnection(to: endpoint, parameters: parameters) { first in
            let readyAt = (clock.now - start).inSeconds
            say("connected \(first)")
            say("figure browse-to-ready \(fixed(readyAt)) s \(fixed(readyAt / dw, 1)) DW")
            say("figure browse-to-found \(fixed(foundAt)) s \(fixed(foundAt / dw, 1)) DW")
            say("figure found-to-ready \(fixed(readyAt - foundAt)) s \(fixed((readyAt - foundAt) / dw, 1)) DW")
            var rtts: [Double] = []
            let payload = [UInt8](repeating: 0x61, count: 64)
            for _ in 0..<pings { rtts.append(try await roundTrip(first, payload)) }
            say(
                "figure message-rtt-p50 \(fixed(percentile(rtts, 50) * 1000, 1)) ms \(fixed(percentile(rtts, 50) / dw, 2)) DW n \(pings)"
            )
            say("figure message-rtt-p95 \(fixed(percentile(rtts, 95) * 1000, 1)) ms")
            if first.hasDatagrams {
                let arrivals = Arrivals()
                let reader = Task { await arrivals.record(first.receivedDatagrams) }
                var drtts: [Double] = []
                for n in 0..<pings {
                    if let rtt = try await arrivals.roundTrip(first, n) { drtts.append(rtt) }
                }
                reader.cancel()
                say(
                    "figure datagram-rtt-p50 \(fixed(percentile(drtts, 50) * 1000, 1)) ms lost \(pings - drtts.count) of \(pings)"
                )
            }
            let one = residentKiB()
            say("holding 1 connection rss \(one) KiB")
            try await Task.sleep(for: .seconds(3))
            try await holding(connections - 1, to: endpoint, system: system, parameters: parameters) {
                let all = residentKiB()
                say("holding \(connections) connections rss \(all) KiB")
                say("figure client-memory-per-connection \((all - one) / (connections - 1)) KiB of \(one) KiB with one")
                say(
                    "data path \(first.dataPath.interfaceName) \(first.dataPath.localAddress) -> \(first.dataPath.peerAddress)"
                )
                let deadline = clock.now + .seconds(holdSeconds)
                while clock.now < deadline {
                    if let holdFile, fileExists(holdFile) { break }
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            await first.finishSending()
        }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
func value(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
guard let name = arguments.first, !name.hasPrefix("-") else {
    say(
        "usage: connection-meter <service> [--plain] [--pings N] [--connections N] [--hold-until FILE] [--hold-seconds S]"
    )
    ProcessControl.exit(64)
}
do {
    try await bench(
        name: name, plain: arguments.contains("--plain"), pings: value("--pings").flatMap { Int($0) } ?? 30,
        connections: max(2, value("--connections").flatMap { Int($0) } ?? 8),
        holdSeconds: value("--hold-seconds").flatMap { Int($0) } ?? 0, holdFile: value("--hold-until"))
    say("connection-meter: done")
} catch {
    say("connection-meter: \(error)")
    ProcessControl.exit(1)
}

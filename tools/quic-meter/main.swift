// quic-meter: QUIC against TLS 1.3 over TCP over the same NAN data path, with the public WiFiAware API (issue
// 27's benchmark; tools/quic-bench runs it in the VM).
//
//   quic-meter serve <service>      a listener taking QUIC (ALPN waware-bench) and TLS over TCP on one port,
//                                   trusting on first use; each connection's first byte says what it wants:
//                                   `E` echo everything, `S` count everything until the end, then answer the
//                                   count (8 bytes)
//   quic-meter measure <service> [--rounds R] [--pings N] [--megabytes M]
//                                   finds the listener, holds one TLS connection (so one data path serves every
//                                   measurement), then R times, TLS then QUIC: a connection's setup (call to
//                                   ready: handshake and preface; the data path is up already), N message round
//                                   trips of 64 bytes on it, and a second connection's throughput (M MiB written,
//                                   until the listener's count comes back)
//
// Prints `sample TRANSPORT KIND VALUE` lines (the raw samples) and `figure …` lines with QUIC's figures as
// ratios of TLS's: setup p50, round trip p50 and p95, throughput median.
import Glibc
import NANSystem
import NANWire
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
    guard v.isFinite else { return "nan" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let n = Int((v * scale).rounded())
    let whole = n / Int(scale), fraction = String(abs(n) % Int(scale))
    return (n < 0 && whole == 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: places - fraction.count)
        + fraction
}

/// Nearest-rank percentile.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = max(1, Int((p / 100 * Double(sorted.count)).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
}

let alpn = ["waware-bench"]

/// The parameters of both sides: an open data path between unpaired bench devices, trust on first use,
/// a byte stream.
func parameters(_ transport: WAConnectionTransport) -> WAConnectionParameters {
    var parameters = WAConnectionParameters(dataPathSecurity: .open)
    parameters.transport = transport
    parameters.trust = .pairedDevicesOrFirstUse
    parameters.mode = .byteStream
    return parameters
}

/// Reads exactly `count` bytes.
func readExactly(_ count: Int, from connection: WAConnection) async throws -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count < count {
        let more = try await connection.read(maximum: count - bytes.count)
        guard !more.isEmpty else { throw Failure(description: "the peer ended after \(bytes.count) of \(count) bytes") }
        bytes += more
    }
    return bytes
}

/// The listener's side of one connection.
func handle(_ connection: WAConnection) async {
    do {
        let what = try await readExactly(1, from: connection)
        if what == Array("E".utf8) {
            while true {
                let bytes = try await connection.read()
                if bytes.isEmpty { break }
                try await connection.write(bytes)
            }
        } else {
            var total: UInt64 = 0
            while true {
                let bytes = try await connection.read()
                if bytes.isEmpty { break }
                total += UInt64(bytes.count)
            }
            try await connection.write((0..<8).map { UInt8(truncatingIfNeeded: total >> (56 - 8 * $0)) })
        }
        await connection.finishSending()
    } catch {
        say("connection \(connection.transportDescription): \(error)")
    }
}

func serve(_ name: String) async throws {
    let service = try WAPublishableService(name: WAServiceName(name), wantsDataPath: true)
    try await WASystem.run { system in
        for try await event in system.listener(
            for: service, from: .anyDevice, parameters: parameters(.quic(alpn: alpn)))
        {
            switch event {
            case .ready(let port): say("listening on port \(port) (QUIC and TLS over TCP)")
            case .connection(let connection): Task { await handle(connection) }
            case .refused(let error): say("refused: \(error)")
            default: break
            }
        }
    }
}

/// One transport's samples.
struct Samples {
    var setup: [Double] = []
    var rtt: [Double] = []
    var throughput: [Double] = []
}

func measure(_ name: String, rounds: Int, pings: Int, megabytes: Int) async throws {
    let service = try WASubscribableService(name: WAServiceName(name), wantsDataPath: true)
    let transports: [(String, WAConnectionTransport)] = [("tls", .tls), ("quic", .quic(alpn: alpn))]
    var samples: [String: Samples] = [:]
    try await WASystem.run { system in
        var found: WAEndpoint?
        for try await case .found(let endpoint) in system.browser(for: service, from: .anyDevice) {
            found = endpoint
            break
        }
        guard let endpoint = found else { throw Failure(description: "the browser ended without a listener") }
        let clock = ContinuousClock()
        try await system.withConnection(to: endpoint, parameters: parameters(.tls)) { holder in
            try await holder.write(Array("E".utf8))
            say("holding \(holder)")
            let chunk = [UInt8](repeating: 0x5a, count: 65536)
            let payload = [UInt8](repeating: 0x61, count: 64)
            for round in 1...rounds {
                for (label, transport) in transports {
                    var s = samples[label] ?? Samples()
                    let start = clock.now
                    try await system.withConnection(to: endpoint, parameters: parameters(transport)) { connection in
                        let setup = (clock.now - start).inSeconds
                        s.setup.append(setup)
                        say(
                            "sample \(label) setup \(fixed(setup * 1000, 2)) ms (round \(round), \(connection.transportDescription))"
                        )
                        try await connection.write(Array("E".utf8))
                        for _ in 0..<pings {
                            let t = clock.now
                            try await connection.write(payload)
                            guard try await readExactly(payload.count, from: connection) == payload else {
                                throw Failure(description: "the echo differs")
                            }
                            let rtt = (clock.now - t).inSeconds
                            s.rtt.append(rtt)
                            say("sample \(label) rtt \(fixed(rtt * 1000, 3)) ms")
                        }
                        await connection.finishSending()
                    }
                    try await system.withConnection(to: endpoint, parameters: parameters(transport)) { connection in
                        try await connection.write(Array("S".utf8))
                        let t = clock.now
                        for _ in 0..<(megabytes * 16) { try await connection.write(chunk) }
                        await connection.finishSending()
                        let count = try await readExactly(8, from: connection).reduce(UInt64(0)) {
                            $0 << 8 | UInt64($1)
                        }
                        let seconds = (clock.now - t).inSeconds
                        guard count == UInt64(megabytes * 16 * chunk.count) else {
                            throw Failure(description: "the listener counted \(count) bytes")
                        }
                        let mbps = Double(count) * 8 / seconds / 1e6
                        s.throughput.append(mbps)
                        say(
                            "sample \(label) throughput \(fixed(mbps, 2)) Mbit/s (\(megabytes) MiB in \(fixed(seconds, 3)) s)"
                        )
                    }
                    samples[label] = s
                }
            }
            await holder.finishSending()
        }
    }
    let tls = samples["tls"] ?? Samples(), quic = samples["quic"] ?? Samples()
    func line(_ name: String, _ a: Double, _ b: Double, _ unit: String, scale: Double, places: Int) {
        say(
            "figure \(name) tls \(fixed(a * scale, places)) \(unit) quic \(fixed(b * scale, places)) \(unit) quic/tls \(fixed(b / a, 2))"
        )
    }
    line("setup-p50", percentile(tls.setup, 50), percentile(quic.setup, 50), "ms", scale: 1000, places: 1)
    line("rtt-p50", percentile(tls.rtt, 50), percentile(quic.rtt, 50), "ms", scale: 1000, places: 2)
    line("rtt-p95", percentile(tls.rtt, 95), percentile(quic.rtt, 95), "ms", scale: 1000, places: 2)
    line(
        "throughput-median", percentile(tls.throughput, 50), percentile(quic.throughput, 50), "Mbit/s", scale: 1,
        places: 1)
    say("figure samples rounds \(rounds) pings \(pings) per connection, \(megabytes) MiB per throughput connection")
}

let arguments = Array(CommandLine.arguments.dropFirst())
func value(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
guard arguments.count >= 2, ["serve", "measure"].contains(arguments[0]) else {
    say("usage: quic-meter serve <service> | measure <service> [--rounds R] [--pings N] [--megabytes M]")
    ProcessControl.exit(64)
}
do {
    if arguments[0] == "serve" {
        try await serve(arguments[1])
    } else {
        try await measure(
            arguments[1], rounds: max(1, value("--rounds").flatMap { Int($0) } ?? 5),
            pings: max(1, value("--pings").flatMap { Int($0) } ?? 20),
            megabytes: max(1, value("--megabytes").flatMap { Int($0) } ?? 4))
        say("quic-meter: done")
    }
} catch {
    say("quic-meter: \(error)")
    ProcessControl.exit(1)
}

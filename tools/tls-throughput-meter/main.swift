// tls-throughput-meter: TLS 1.3 throughput as a ratio of plain TCP, over the same path (issue 10's benchmark).
//
//   swift build -c release --product tls-throughput-meter
//   tls-throughput-meter [--megabytes N]                            # both ends in this process, over [::1] (lo)
//   tls-throughput-meter --serve --interface nan0data [--port 5310] # one end of a NAN data path (in its netns)
//   tls-throughput-meter --connect fe80::…%nan0data:5310 [--megabytes N]   # the other end: prints the figures
//
// The sender pushes N MiB (default 64) over plain TCP, then over TLSStream (mutual TLS 1.3, fresh identities
// trusted on first use), each on its own connection. Before the data it sends the byte count (8 bytes, big
// endian); the receiver answers one byte once it has read them all, so a time covers delivery, not only
// handing bytes to the kernel. Prints MB/s for each and the ratio TLS/plain (issue 10's target: >= 0.90).
import NANCrypto
import NANSystem
import NANWire

struct Failure: Error, CustomStringConvertible {
    let description: String
}

func usage() -> Never {
    print(
        "usage: tls-throughput-meter [--megabytes N] | --serve --interface IF [--port P] | --connect ADDR%IF:PORT [--megabytes N]"
    )
    ProcessControl.exit(64)
}

/// A byte stream the bench can push through: plain TCP or TLS.
protocol Channel: Sendable {
    func send(_ bytes: [UInt8]) async throws
    func receive() async throws -> [UInt8]
}

struct PlainChannel: Channel {
    let socket: StreamSocket
    func send(_ bytes: [UInt8]) async throws { try await socket.send(bytes, timeout: .seconds(60)) }
    func receive() async throws -> [UInt8] { try await socket.receive(maximum: 64 * 1024, timeout: .seconds(60)) }
}

struct TLSChannel: Channel {
    let stream: TLSStream
    func send(_ bytes: [UInt8]) async throws { try await stream.write(bytes, timeout: .seconds(60)) }
    func receive() async throws -> [UInt8] { try await stream.read(maximum: 64 * 1024, timeout: .seconds(60)) }
}

func lengthPrefix(_ count: Int) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: UInt64(count) >> (56 - 8 * $0)) } }

/// Sends `total` bytes after their count, waits for the receiver's one-byte answer; seconds taken.
func push(_ total: Int, over channel: some Channel) async throws -> Double {
    let block = [UInt8](repeating: 0x5a, count: 256 * 1024)
    let clock = ContinuousClock()
    let start = clock.now
    try await channel.send(lengthPrefix(total))
    var sent = 0
    while sent < total {
        let count = min(block.count, total - sent)
        try await channel.send(count == block.count ? block : Array(block.prefix(count)))
        sent += count
    }
    guard try await !channel.receive().isEmpty else {
        throw Failure(description: "the receiver closed before answering")
    }
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Reads the count and that many bytes, then answers one byte.
func sink(_ channel: some Channel) async throws {
    var header: [UInt8] = []
    var received = 0
    var total = -1
    while total < 0 || received < total {
        let chunk = try await channel.receive()
        guard !chunk.isEmpty else { throw Failure(description: "the sender closed after \(received) bytes") }
        if total < 0 {
            header += chunk
            guard header.count >= 8 else { continue }
            total = header.prefix(8).reduce(0) { $0 << 8 | Int($1) }
            received = header.count - 8
        } else {
            received += chunk.count
        }
    }
    try await channel.send([1])
}

func identity(_ name: String) throws -> TLSIdentity { try TLSIdentity.generate(commonName: name) }

func report(megabytes: Int, plain: Double, tls: Double) {
    let mb = Double(megabytes) * 1_048_576 / 1_000_000
    func f(_ v: Double) -> String { String(Int((v * 10).rounded()) / 10) + "." + String(Int((v * 10).rounded()) % 10) }
    print("plain TCP: \(megabytes) MiB in \(f(plain * 1000)) ms, \(f(mb / plain)) MB/s")
    print("TLS 1.3:   \(megabytes) MiB in \(f(tls * 1000)) ms, \(f(mb / tls)) MB/s")
    print("ratio TLS/plain: \(f(plain / tls * 100)) %")
}

func parseEndpoint(_ text: String) -> LinkLocalEndpoint? {
    guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
    var host = String(text[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    let parts = host.split(separator: "%", maxSplits: 1)
    guard parts.count == 2, let address = IPv6Address(parts[0]) else { return nil }
    return LinkLocalEndpoint(address: address, interface: String(parts[1]), port: port)
}

func linkLocalAddress(of interface: String) -> String? {
    // /proc/net/if_inet6: address (32 hex digits), index, prefix length, scope (20 = link), flags, name.
    guard
        let bytes = try? FileContents.readRegularFile(
            at: "/proc/net/if_inet6", limit: 1 << 20, what: "addresses",
            followingSymbolicLinks: true)
    else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 6, fields[5] == interface, fields[3] == "20" else { continue }
        let digits = Array(fields[0])
        return stride(from: 0, to: 32, by: 4).map { String(digits[$0..<$0 + 4]) }.joined(separator: ":")
    }
    return nil
}

let arguments = Array(CommandLine.arguments.dropFirst())
func value(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let megabytes = value("--megabytes").map { Int($0) ?? 0 } ?? 64
guard megabytes > 0 else { usage() }

do {
    if arguments.contains("--serve") {
        guard let interface = value("--interface"), let address = linkLocalAddress(of: interface) else { usage() }
        let port = value("--port").flatMap { UInt16($0) } ?? 5310
        let listener = try StreamSocket.listen(port: port)
        print("tls-throughput-meter: listening on [\(address)%\(interface)]:\(listener.localPort)")
        let me = try identity("tls-throughput-meter server")
        while true {
            try await sink(PlainChannel(socket: try await listener.accept()))
            let socket = try await listener.accept()
            let stream = try await TLSStream.handshake(.server, over: socket, identity: me, trust: .trustOnFirstUse)
            try await sink(TLSChannel(stream: stream))
            await stream.close()
            print("tls-throughput-meter: served one plain and one TLS run")
        }
    } else if let target = value("--connect") {
        guard let endpoint = parseEndpoint(target) else { usage() }
        let me = try identity("tls-throughput-meter client")
        let plain = try await push(
            megabytes << 20,
            over: PlainChannel(socket: try await StreamSocket.connect(to: endpoint, timeout: .seconds(30))))
        let socket = try await StreamSocket.connect(to: endpoint, timeout: .seconds(30))
        let stream = try await TLSStream.handshake(.client, over: socket, identity: me, trust: .trustOnFirstUse)
        let tls = try await push(megabytes << 20, over: TLSChannel(stream: stream))
        await stream.close()
        report(megabytes: megabytes, plain: plain, tls: tls)
    } else {
        let listener = try StreamSocket.listen(port: 0)
        let endpoint = LinkLocalEndpoint(address: IPv6Address("::1")!, interface: "lo", port: listener.localPort)
        let server = try identity("tls-throughput-meter server"), client = try identity("tls-throughput-meter client")
        async let plainSink: Void = sink(PlainChannel(socket: try await listener.accept()))
        let plain = try await push(
            megabytes << 20,
            over: PlainChannel(socket: try await StreamSocket.connect(to: endpoint, timeout: .seconds(30))))
        try await plainSink
        async let tlsSink: Void = {
            let stream = try await TLSStream.handshake(
                .server, over: try await listener.accept(), identity: server, trust: .trustOnFirstUse)
            try await sink(TLSChannel(stream: stream))
        }()
        let socket = try await StreamSocket.connect(to: endpoint, timeout: .seconds(30))
        let stream = try await TLSStream.handshake(.client, over: socket, identity: client, trust: .trustOnFirstUse)
        let tls = try await push(megabytes << 20, over: TLSChannel(stream: stream))
        try await tlsSink
        print("over [::1] (loopback), both ends in one process")
        report(megabytes: megabytes, plain: plain, tls: tls)
    }
} catch {
    print("tls-throughput-meter: \(error)")
    ProcessControl.exit(1)
}

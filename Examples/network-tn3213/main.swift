// network-tn3213: the code samples of Apple's TN3213 (moving from Multipeer Connectivity to Network framework)
// that issue 27 names, run end to end over the Network-framework-shaped layer: `withNetworkConnection`, a
// message protocol over TLS (`TLV(type:length:)`, or `Coder` with JSON, property lists or the compact binary
// format), best-effort datagrams (`UDP()`), `QUIC(alpn: ["MyALPN"])` with a stream and a datagram, and a peer
// identifier the app supplies. Only the import line and
// the bodies TN3213 leaves to the reader are ours.
//
//   network-tn3213 listen STACK [--adapter phy0]   answers the first connection's message, then exits
//   network-tn3213 connect STACK [--adapter phy0] [--peer-id UUID]
//                                                  finds the listener, one message each way over STACK
//
// STACK is tlv, json, plist, binary, udp or quic. The service `_example-service._tcp` is declared in the services
// file ($WAWARE_SERVICES, ...); the devices are every paired device; the data path is keyed by the pairing.
import Glibc
import WiFiAwareNetwork

// --- TN3213's samples --------------------------------------------------------------------------------------

extension WAPublishableService {
    public static var exampleService: WAPublishableService { allServices["_example-service._tcp"]! }
}
extension WASubscribableService {
    public static var exampleService: WASubscribableService { allServices["_example-service._tcp"]! }
}

/// A game's message, sent with a `Coder`.
struct GameMessage: Codable, Sendable, Equatable {
    var character: String
    var move: Int
}

/// A game's message types, sent as a TLV's type.
enum GameMessageType: Int {
    case selectedCharacter = 0
    case move = 1
}

/// The listener for `STACK`: prints what the first connection sends, answers it, and exits.
func listen(_ stack: String) async throws {
    let target = WAPublisherListener.wifiAware(.connecting(to: .exampleService, from: .allPairedDevices))
    switch stack {
    case "tlv":
        try await NetworkListener(for: target, using: { TLV(type: UInt8.self, length: UInt32.self) { TLS() } })
            .onStateUpdate { _, state in say("listener \(state)") }
            .run { connection in
                let (content, metadata) = try await connection.receive()
                let type = GameMessageType(rawValue: metadata.type)
                say("listener received TLV type \(type.map { "\($0)" } ?? "\(metadata.type)") \"\(text(content))\"")
                say("listener peer \(connection.wifiAwareConnection.map { "\($0.remotePeer)" } ?? "?")")
                try await connection.send(Data("knight".utf8), type: GameMessageType.selectedCharacter.rawValue)
                try await finish(connection)
            }
    case "json", "plist", "binary":
        try await listenCoded(stack)
    case "udp":
        try await NetworkListener(for: target, using: { UDP() })
            .onStateUpdate { _, state in say("listener \(state)") }
            .run { connection in
                // Datagrams may be lost: answer each one until the peer ends the connection.
                var answered = 0
                while let (content, _) = try? await connection.receive() {
                    if answered == 0 { say("listener received datagram \"\(text(content))\"") }
                    try await connection.send(Data("pong \(text(content))".utf8))
                    answered += 1
                }
                say("listener done")
                exit(0)
            }
    case "quic":
        try await NetworkListener(for: target, using: { QUIC(alpn: ["MyALPN"]) })
            .onStateUpdate { _, state in say("listener \(state)") }
            .run { connection in
                say("listener ALPN \(connection.wifiAwareConnection?.applicationProtocol ?? "?")")
                // The peer opens a stream: its message, answered on the same stream.
                for await stream in connection.inboundStreams {
                    let message = try await stream.receiveAll()
                    say("listener received on QUIC \(stream) \"\(text(message))\"")
                    try await stream.send(Data("pong over QUIC".utf8))
                    try await stream.finish()
                    break
                }
                // Then datagrams (RFC 9221), each answered, until the peer ends the connection.
                var answered = 0
                while let content = try? await connection.receiveDatagram() {
                    if answered == 0 { say("listener received QUIC datagram \"\(text(content))\"") }
                    try await connection.send(datagram: Data("pong \(text(content))".utf8))
                    answered += 1
                }
                say("listener done")
                exit(0)
            }
    default:
        usage()
    }
}

/// The `Coder` listeners (one generic shape, three formats).
func listenCoded(_ format: String) async throws {
    let target = WAPublisherListener.wifiAware(.connecting(to: .exampleService, from: .allPairedDevices))
    switch format {
    case "json":
        try await NetworkListener(for: target, using: { Coder(GameMessage.self, using: .json) { TLS() } })
            .onStateUpdate { _, state in say("listener \(state)") }
            .run { try await answer($0, format: format) }
    case "plist":
        try await NetworkListener(
            for: target,
            using: { Coder(sending: GameMessage.self, receiving: GameMessage.self, using: .propertyList) { TLS() } }
        )
        .onStateUpdate { _, state in say("listener \(state)") }
        .run { try await answer($0, format: format) }
    default:
        try await NetworkListener(for: target, using: { Coder(GameMessage.self, using: .binary) { TLS() } })
            .onStateUpdate { _, state in say("listener \(state)") }
            .run { try await answer($0, format: format) }
    }
}

/// A `Coder` listener's connection: prints the peer's `GameMessage`, answers with the next move, and exits.
func answer<C: NetworkCoder>(
    _ connection: NetworkConnection<Coder<GameMessage, GameMessage, C>>, format: String
)
    async throws
{
    let (message, _) = try await connection.receive()
    say("listener received \(format) \(message.character) move \(message.move)")
    try await connection.send(GameMessage(character: "dragon", move: message.move + 1))
    try await finish(connection)
}

/// The connecting side for `STACK`: browses, connects with `withNetworkConnection`, one message each way.
func connect(_ stack: String) async throws {
    let endpoint = try await NetworkBrowser(for: .wifiAware(.connecting(to: .allPairedDevices, from: .exampleService)))
        .run { waEndpoints in .finish(waEndpoints.first!) }
    say("browser found \(endpoint.device?.name ?? "(unpaired)")")
    switch stack {
    case "tlv":
        try await withNetworkConnection(to: endpoint, using: { TLV(type: UInt8.self, length: UInt32.self) { TLS() } }) {
            connection in
            try await connection.send(Data("e2-e4".utf8), type: GameMessageType.move.rawValue)
            let (content, metadata) = try await connection.receive()
            let type = GameMessageType(rawValue: metadata.type)
            say("received TLV type \(type.map { "\($0)" } ?? "\(metadata.type)") \"\(text(content))\"")
        }
    case "json":
        try await withNetworkConnection(to: endpoint, using: { Coder(GameMessage.self, using: .json) { TLS() } }) {
            try await exchange($0)
        }
    case "plist":
        try await withNetworkConnection(
            to: endpoint,
            using: { Coder(sending: GameMessage.self, receiving: GameMessage.self, using: .propertyList) { TLS() } }
        ) { try await exchange($0) }
    case "binary":
        try await withNetworkConnection(to: endpoint, using: { Coder(GameMessage.self, using: .binary) { TLS() } }) {
            try await exchange($0)
        }
    case "udp":
        try await withNetworkConnection(to: endpoint, using: { UDP() }) { connection in
            // Best effort: send again each second until an answer comes (at most 10 tries).
            let answer = try await withThrowingTaskGroup(of: Data?.self) { group in
                group.addTask { try await connection.receive().content }
                group.addTask {
                    for attempt in 1...10 {
                        try await connection.send(Data("ping \(attempt)".utf8))
                        try await Task.sleep(for: .seconds(1))
                    }
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let answer else { throw NWError(.closed, message: "no datagram came back in 10 tries") }
            say("received datagram \"\(text(answer))\"")
        }
    case "quic":
        try await withNetworkConnection(to: endpoint, using: { QUIC(alpn: ["MyALPN"]) }) { connection in
            say("ALPN \(connection.wifiAwareConnection?.applicationProtocol ?? "?")")
            // A message on a stream of its own, and the answer on the same stream.
            let stream = try await connection.openStream()
            try await stream.send(Data("ping over QUIC".utf8))
            try await stream.finish()
            say("received on QUIC \(stream) \"\(text(try await stream.receiveAll()))\"")
            // A datagram (RFC 9221), sent again each second until an answer comes (at most 10 tries).
            let answer = try await withThrowingTaskGroup(of: Data?.self) { group in
                group.addTask { try await connection.receiveDatagram() }
                group.addTask {
                    for attempt in 1...10 {
                        try await connection.send(datagram: Data("ping \(attempt)".utf8))
                        try await Task.sleep(for: .seconds(1))
                    }
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let answer else { throw NWError(.closed, message: "no QUIC datagram came back in 10 tries") }
            say("received QUIC datagram \"\(text(answer))\"")
            if let wifiAwarePath = try await connection.currentPath?.wifiAware {
                let report = wifiAwarePath.performance
                say(
                    "performance signal \(report.signalStrength.map { "\($0) dBm" } ?? "unknown")"
                        + " ceiling \(report.throughputCeiling.map { "\(Int($0)) Mbit/s" } ?? "unknown")")
            }
        }
    default:
        usage()
    }
}

/// One `GameMessage` each way over a `Coder` connection.
func exchange<C: NetworkCoder>(_ connection: NetworkConnection<Coder<GameMessage, GameMessage, C>>) async throws {
    try await connection.send(GameMessage(character: "knight", move: 3))
    let (message, _) = try await connection.receive()
    say("received \(message.character) move \(message.move)")
}

// --- the program around them ------------------------------------------------------------------------------

/// Waits for the peer to end the connection, then exits: the listener serves one connection.
func finish<P>(_ connection: NetworkConnection<P>) async throws {
    _ = try? await connection.wifiAwareConnection?.read(maximum: 1)
    say("listener done")
    exit(0)
}

func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

/// One line to standard output, at once (a pipe would otherwise hold it).
func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)[...]
    while !bytes.isEmpty {
        let count = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        bytes = bytes.dropFirst(count)
    }
}

func usage() -> Never {
    say("usage: network-tn3213 listen|connect tlv|json|plist|binary|udp|quic [--adapter A] [--peer-id UUID]")
    exit(2)
}

var words = Array(CommandLine.arguments.dropFirst())[...]
var positional: [String] = []
while let word = words.popFirst() {
    switch word {
    case "--adapter": NetworkWiFiAware.configuration.adapter = words.popFirst()
    case "--peer-id":
        // TN3213: a peer identifier the app keeps itself, used to settle which of two crossing connections stays.
        guard let text = words.popFirst(), let uuid = UUID(uuidString: text) else { usage() }
        NetworkWiFiAware.configuration.peerIdentifier = WAPeerIdentifier(uuid: uuid)
    default: positional.append(word)
    }
}
guard positional.count == 2 else { usage() }
do {
    switch positional[0] {
    case "listen": try await listen(positional[1])
    case "connect":
        try await connect(positional[1])
        await NetworkWiFiAware.stop()
    default: usage()
    }
} catch {
    let text = "network-tn3213: \(error)\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(1)
}

import Testing
import WiFiAwareNetwork

// Issue 27's seeds, as written apart from the import line: this file compiling is the test. The functions are
// never called (they need two devices and a radio: Examples/network-seed runs the first seed end to end).

// --- Apple's "Connecting devices for peer-to-peer Wi-Fi" ---------------------------------------------------

extension WAPublishableService {
    public static var exampleService: WAPublishableService { allServices["_example-service._tcp"]! }
}
extension WASubscribableService {
    public static var exampleService: WASubscribableService { allServices["_example-service._tcp"]! }
}

private func firstSeed() async throws {
    let devices = #Predicate<WAPairedDevice> { $0.name?.starts(with: "My Device") ?? false }
    try await NetworkListener(
        for: .wifiAware(.connecting(to: .exampleService, from: .matching(devices))),
        using: { TLS() }
    )
    .onStateUpdate { listener, state in }
    .run { connection in }

    let endpoint = try await NetworkBrowser(for: .wifiAware(.connecting(to: .matching(devices), from: .exampleService)))
        .onStateUpdate { browser, state in }
        .run { waEndpoints in .finish(waEndpoints.first!) }  // or .continue
    let connection = NetworkConnection(to: endpoint, using: { TLS() }).onStateUpdate { connection, state in
        // in .onStateUpdate: case .failed(let error): let wifiAwareError = error.wifiAware
        switch state {
        case .failed(let error): let wifiAwareError = error.wifiAware; _ = wifiAwareError
        default: break
        }
    }
    if let wifiAwarePath = try await connection.currentPath?.wifiAware {
        let report = wifiAwarePath.performance; _ = report
    }
}

// --- TN3213's additions ------------------------------------------------------------------------------------

private struct GameMessage: Codable, Sendable {
    var move: Int
}

private enum GameMessageType: Int {
    case selectedCharacter = 0
    case move = 1
}

private func technicalNote(endpoint: WAEndpoint) async throws {
    // withNetworkConnection(to:using:) { connection in … }
    try await withNetworkConnection(to: endpoint, using: { TLS() }) { connection in
        try await connection.send(Data("hello".utf8))
        _ = try await connection.receive(exactly: 5)
    }
    // TCP(), TLS { TCP() }, TLS().localIdentity(…)
    _ = NetworkConnection(to: endpoint) { TCP() }
    _ = NetworkConnection(to: endpoint) { TLS { TCP() } }
    _ = NetworkConnection(to: endpoint) { TLS().localIdentity(.file("/var/lib/myapp/identity.pem")) }
    // QUIC with an ALPN, its streams and datagrams.
    _ = NetworkConnection(to: endpoint) { QUIC(alpn: ["MyALPN"]) }
    // Messages framed with TLV(type:length:) ...
    let tlv = NetworkConnection(to: endpoint) { TLV(type: UInt8.self, length: UInt32.self) { TLS() } }
    try await tlv.send(Data([1, 2]), type: GameMessageType.move.rawValue)
    let (content, metadata) = try await tlv.receive()
    _ = (content, GameMessageType(rawValue: metadata.type))
    // ... or with a Codable Coder (JSON, or the compact binary property list).
    let coded = NetworkConnection(to: endpoint) { Coder(GameMessage.self, using: .json) { TLS() } }
    try await coded.send(GameMessage(move: 3))
    let (message, _) = try await coded.receive()
    _ = message.move
    _ = NetworkConnection(to: endpoint) {
        Coder(sending: GameMessage.self, receiving: GameMessage.self, using: .propertyList) { TLS() }
    }
    _ = NetworkConnection(to: endpoint) { Coder(GameMessage.self, using: .binary) { TLS() } }
    // Datagrams.
    let datagrams = NetworkConnection(to: endpoint) { UDP() }
    try await datagrams.send(Data([0]))
    _ = try await datagrams.receive().content
    // Viability updates.
    _ = NetworkConnection(to: endpoint) { TLS() }.onViabilityUpdate { connection, isViable in _ = isViable }
    // A peer identifier the app supplies (TN3213's persisted one).
    NetworkWiFiAware.configuration.peerIdentifier = WAPeerIdentifier(uuid: UUID())
}

@Suite struct SeedSnippetsTests {
    @Test func theSeedsCompileAsWritten() {
        _ = firstSeed
        _ = technicalNote
    }
}

import NANWire
import WiFiAware

/// `waware data-paths`: the NAN data interfaces up and the peers they carry data paths to.
struct DataPathsCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "data-paths",
        abstract: "List the NAN data interfaces up and their peers.",
        discussion: [
            "Asks the kernel for every NAN data interface (NDI) on the adapter, whichever process owns it, and the "
                + "peer NDI stations on each: one line per interface, then one per peer with signal and byte counts. "
                + "Data paths are set up by 'waware publish --accept-data-paths' and 'waware subscribe --data-path'."
        ],
        examples: [
            Example("waware data-paths", "Every NAN data interface on every adapter."),
            Example("waware data-paths --adapter phy0 --json", "One JSON object with the interfaces of phy0."),
        ]
    )

    static let arguments: [ArgumentSpec] = [OptionKey.adapter.spec, .json]

    var adapter: String?
    var json: Bool

    init(from values: ParsedValues) throws {
        adapter = values.option(OptionKey.adapter)
        json = values.flag(.json)
    }

    struct PeerRecord: Codable, Equatable {
        var address: String
        var signal: Int?
        var receivedBytes: UInt64?
        var transmittedBytes: UInt64?
        var inactiveMilliseconds: UInt32?
    }

    struct InterfaceRecord: Codable, Equatable {
        var adapter: String
        var interface: String
        var address: String?
        var peers: [PeerRecord]
    }

    /// The JSON shape of `--json`.
    struct Listing: Codable, Equatable {
        var dataInterfaces: [InterfaceRecord]
    }

    func run(_ output: Output) async throws {
        let records = try await WASystem.dataInterfaces(adapter: adapter).map { status in
            InterfaceRecord(
                adapter: status.adapter, interface: status.name, address: status.address?.description,
                peers: status.peers.map {
                    PeerRecord(
                        address: $0.address.description, signal: $0.signal, receivedBytes: $0.receivedBytes,
                        transmittedBytes: $0.transmittedBytes, inactiveMilliseconds: $0.inactiveMilliseconds)
                })
        }
        if json {
            try output.writeJSON(Listing(dataInterfaces: records))
            return
        }
        if records.isEmpty { output.write("no NAN data interfaces up") }
        for record in records {
            output.write(
                "\(record.interface) on \(record.adapter) address \(record.address ?? "?") peers \(record.peers.count)")
            for peer in record.peers {
                var parts = ["  peer \(peer.address)"]
                if let signal = peer.signal { parts.append("signal \(signal) dBm") }
                if let rx = peer.receivedBytes { parts.append("rx \(rx) bytes") }
                if let tx = peer.transmittedBytes { parts.append("tx \(tx) bytes") }
                if let idle = peer.inactiveMilliseconds { parts.append("idle \(idle) ms") }
                output.write(parts.joined(separator: " "))
            }
        }
    }
}

import WiFiAware

/// `waware devices list`: the paired devices, sorted by name.
struct DevicesListCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the paired devices.",
        examples: [
            Example("waware devices list", "One line per device: name, id, management addresses."),
            Example("waware devices list --json", "{\"devices\":[{\"id\":...,\"name\":...,\"addresses\":[...]}]}"),
        ]
    )

    static let arguments: [ArgumentSpec] = [DevicesCommand.storeOption.spec, .json]

    var store: WADeviceStore
    var json: Bool

    init(from values: ParsedValues) throws {
        store = try DevicesCommand.store(from: values)
        json = values.flag(FlagKey.json)
    }

    /// The JSON shape of `--json`.
    struct Listing: Codable, Equatable {
        var devices: [DeviceRecord]
    }

    func run(_ output: Output) async throws {
        let records = try store.devices().values
            .sorted { ($0.displayName, $0.id) < ($1.displayName, $1.id) }
            .map(DeviceRecord.init)
        if json {
            try output.writeJSON(Listing(devices: records))
        } else if records.isEmpty {
            output.write("no paired devices; add one with 'waware devices add <address> <name>'")
        } else {
            for record in records { output.write(record.text) }
        }
    }
}

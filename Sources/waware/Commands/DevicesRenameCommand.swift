import WiFiAware

/// `waware devices rename <device> <new-name>`: give a paired device a new name.
struct DevicesRenameCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a paired device.",
        examples: [
            Example("waware devices rename Kitchen Hall", "The device named Kitchen is now Hall.")
        ]
    )

    static let arguments: [ArgumentSpec] = [
        .positional("device", help: "The device's id, a unique start of it, or its name."),
        .positional("new-name", help: "The new name, unique among paired devices."),
        DevicesCommand.storeOption,
        .json,
    ]

    var reference: String
    var newName: String
    var store: WADeviceStore
    var json: Bool

    init(from values: ParsedValues) throws {
        reference = values.positional("device") ?? ""
        newName = values.positional("new-name") ?? ""
        try DevicesCommand.checkName(newName)
        store = try DevicesCommand.store(from: values)
        json = values.flag("json")
    }

    func run(_ output: Output) async throws {
        let device = try store.device(identifiedBy: reference)
        let renamed = try store.rename(device.id, to: newName)
        let record = DeviceRecord(renamed)
        if json { try output.writeJSON(record) } else { output.write("renamed '\(device.name)' to " + record.text) }
    }
}

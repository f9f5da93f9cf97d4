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
        Self.devicePositional.spec,
        Self.newNamePositional.spec,
        DevicesCommand.storeOption.spec,
        .json,
    ]

    var reference: String
    var newName: String
    var store: WADeviceStore
    var json: Bool

    init(from values: ParsedValues) throws {
        reference = values.positional(Self.devicePositional) ?? ""
        newName = values.positional(Self.newNamePositional) ?? ""
        try DevicesCommand.checkName(newName)
        store = try DevicesCommand.store(from: values)
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        let device = try store.device(identifiedBy: reference)
        let renamed = try store.rename(device.id, to: newName)
        let record = DeviceRecord(renamed)
        if json {
            try output.writeJSON(record)
        } else {
            output.write("renamed '\(device.displayName)' to " + record.text)
        }
    }
}

/// The typed keys of the arguments `DevicesRenameCommand` declares: listed in `arguments` by their `spec`, read with them.
extension DevicesRenameCommand {
    static let devicePositional = PositionalKey("device", help: "The device's id, a unique start of it, or its name.")
    static let newNamePositional = PositionalKey("new-name", help: "The new name, unique among paired devices.")
}

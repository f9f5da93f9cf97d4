import WiFiAware

/// `waware devices remove <device>`: forget a paired device.
struct DevicesRemoveCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a paired device by id, id prefix or name.",
        examples: [
            Example("waware devices remove Kitchen", "Forget the device named Kitchen."),
            Example("waware devices remove 6f1c2b4e", "Forget the device whose id starts with 6f1c2b4e."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        Self.devicePositional.spec,
        DevicesCommand.storeOption.spec,
        .json,
    ]

    var reference: String
    var store: WADeviceStore
    var json: Bool

    init(from values: ParsedValues) throws {
        reference = values.positional(Self.devicePositional) ?? ""
        store = try DevicesCommand.store(from: values)
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        let device = try store.device(identifiedBy: reference)
        let removed = try store.remove(device.id)
        let record = DeviceRecord(removed)
        if json { try output.writeJSON(record) } else { output.write("removed " + record.text) }
    }
}

/// The typed keys of the arguments `DevicesRemoveCommand` declares: listed in `arguments` by their `spec`, read with them.
extension DevicesRemoveCommand {
    static let devicePositional = PositionalKey("device", help: "The device's id, a unique start of it, or its name.")
}

import NANWire
import WiFiAware

/// `waware devices add <address> <name>`: pair a peer by the address seen in a discovery result.
struct DevicesAddCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a paired device by its NAN management address.",
        discussion: [
            "Trusts a device by address, without keys ('waware pair' pairs with keys): take the address from a "
                + "discovery result ('peer' in 'waware subscribe' output). Such a device can be chosen with --paired "
                + "or --device, but not verified and given no paired data path. Several addresses may be given, separated by ','."
        ],
        examples: [
            Example("waware devices add 02:00:00:00:01:00 Kitchen", "Pair that peer as 'Kitchen'."),
            Example("waware devices add 02:00:00:00:01:00 Speaker --vendor Acme --model S2", "With vendor and model."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        Self.addressPositional.spec,
        Self.namePositional.spec,
        Self.vendorOption.spec,
        Self.modelOption.spec,
        DevicesCommand.storeOption.spec,
        .json,
    ]

    var addresses: [MACAddress]
    var name: String
    var pairingInfo: WAPairedDevice.PairingInfo?
    var store: WADeviceStore
    var json: Bool

    init(from values: ParsedValues) throws {
        let text = values.positional(Self.addressPositional) ?? ""
        var addresses: [MACAddress] = []
        for part in text.split(separator: ",") {
            guard let address = MACAddress(String(part)) else {
                throw ValidationError("'\(part)' is not a MAC address; write it as 02:00:00:00:01:00")
            }
            addresses.append(address)
        }
        guard !addresses.isEmpty else {
            throw ValidationError("give the peer's address, e.g. 'waware devices add 02:00:00:00:01:00 Kitchen'")
        }
        self.addresses = addresses
        name = values.positional(Self.namePositional) ?? ""
        try DevicesCommand.checkName(name)
        let vendor = values.option(Self.vendorOption)
        let model = values.option(Self.modelOption)
        if vendor != nil || model != nil {
            do {
                pairingInfo = try WAPairedDevice.PairingInfo(vendorName: vendor, modelName: model)
            } catch {
                throw ValidationError(error.message)
            }
        }
        store = try DevicesCommand.store(from: values)
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        let device = try store.add(name: name, managementAddresses: addresses, pairingInfo: pairingInfo)
        let record = DeviceRecord(device)
        if json { try output.writeJSON(record) } else { output.write("added " + record.text) }
    }
}

/// The typed keys of the arguments `DevicesAddCommand` declares: listed in `arguments` by their `spec`, read with them.
extension DevicesAddCommand {
    static let addressPositional = PositionalKey(
        "address", help: "The peer's NAN management address, e.g. 02:00:00:00:01:00 (',' for several).")
    static let namePositional = PositionalKey("name", help: "A name for it, unique among paired devices.")
    static let vendorOption = OptionKey("vendor", value: "text", help: "The vendor's name, if known.")
    static let modelOption = OptionKey("model", value: "text", help: "The model's name, if known.")
}

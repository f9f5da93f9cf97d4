import FoundationEssentials
@_spi(Tools) import WiFiAware

/// `waware devices`: the group for the paired-device store.
struct DevicesCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List, add, remove and rename paired devices (the peers sessions are restricted to).",
        discussion: [
            "Paired devices live in a JSON store: $WAWARE_STATE_DIR/devices.json if set, /var/lib/waware/devices.json "
                + "as root, else ~/.local/state/waware/devices.json ('--store FILE' uses another file). Devices get there by "
                + "'waware pair' (with keys) or 'waware devices add' (trusted by the NAN management address seen in a "
                + "discovery result, without keys).",
            "Devices are named by id, a unique start of the id (4 characters or more), or name.",
        ],
        examples: [
            Example("waware devices add 02:00:00:00:01:00 Kitchen", "Pair the peer with that address as 'Kitchen'."),
            Example("waware devices list", "One line per device: name, id, addresses."),
            Example("waware devices rename Kitchen Hall", "Rename it."),
            Example("waware devices remove Hall", "Forget it."),
        ],
        subcommands: [
            DevicesListCommand.self, DevicesAddCommand.self, DevicesRemoveCommand.self, DevicesRenameCommand.self,
        ]
    )

    init(from values: ParsedValues) throws {}

    /// The store `--store` names, or the default one.
    static func store(from values: ParsedValues) throws -> WADeviceStore {
        var store = WADeviceStore.default
        if let path = values.option(Self.storeOption) {
            guard !path.isEmpty else {
                throw ValidationError("--store needs the path of a store file, e.g. ./devices.json")
            }
            store = WADeviceStore(url: URL(fileURLWithPath: path))
        }
        let seconds = store.lockTimeout.components.seconds
        store.lockWaitNotice = { lock in
            try? ToolStream.standardError.write(
                "waware: waiting for another process to release \(lock) (at most \(seconds) s)\n")
        }
        return store
    }

    /// Checks a device name given on the command line (a bad name is a usage error, like a bad address).
    static func checkName(_ name: String) throws {
        do {
            try WAPairedDevice.validateName(name)
        } catch {
            throw ValidationError(error.message)
        }
    }
}

/// One device as `waware devices` prints it.
struct DeviceRecord: Codable, Equatable, Sendable {
    /// Stable id (lower-case UUID).
    var id: String
    /// User-visible name.
    var name: String
    /// NAN management addresses.
    var addresses: [String]
    /// What the peer said about itself, if anything.
    var vendor: String?
    /// Model name, if known.
    var model: String?
    /// When it was added (ISO 8601, UTC).
    var added: String
    /// Whether NAN pairing made the entry (it holds a pairing key); false for one typed by hand.
    var verified: Bool = false
    /// How it was paired: `SAE` (PIN) or `PASN` (opportunistic); nil when unverified.
    var pairing: String?
    /// The pairing's cipher suite, `NCS-PK-PASN-128` or `NCS-PK-PASN-256`; nil when unverified.
    var cipherSuite: String?
    /// When it was last recognised (ISO 8601, UTC); nil if never.
    var lastSeen: String?

    init(_ device: WAPairedDevice) {
        id = device.id.description
        name = device.displayName
        addresses = device.managementAddresses.map(\.description)
        vendor = device.pairingInfo?.vendorName
        model = device.pairingInfo?.modelName
        added = device.dateAdded.formatted(Date.ISO8601FormatStyle())
        verified = device.isVerified
        pairing = device.pairingKey?.method.rawValue
        cipherSuite = device.pairingKey?.cipherSuite.rawValue
        lastSeen = device.dateLastSeen?.formatted(Date.ISO8601FormatStyle())
    }

    /// `name  id  addresses`, plus vendor and model when known.
    var text: String {
        var line = "\(TerminalText.escaped(name))  \(id)  \(addresses.joined(separator: ","))"
        let about = [vendor, model].compactMap { $0 }.map(TerminalText.escaped)
        if !about.isEmpty { line += "  (" + about.joined(separator: " ") + ")" }
        line += verified ? "  paired with key (\(pairing ?? "?")) on \(cipherSuite ?? "?")" : "  unverified (no key)"
        if let lastSeen { line += "  last seen \(lastSeen)" }
        return line
    }
}

extension DevicesCommand {
    /// The `--store` option every devices command takes.
    static let storeOption = OptionKey(
        "store", value: "file", help: "Use this store file instead of the default (see 'waware devices --help').")
}

import NANWire
@_spi(Tools) import WiFiAware
internal import Synchronization

/// `waware pair`: NAN pairing (PASN with SAE over a PIN, or opportunistic) with another waware device.
struct PairCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Pair with another device by NAN pairing (a PIN shown on one side, typed on the other).",
        discussion: [
            "Without --pin this side publishes the pairing service, prints a 6-digit PIN and waits for a device "
                + "to pair with it; on the other device run 'waware pair --pin PIN', which subscribes, finds the "
                + "publisher and pairs (PASN with SAE over the PIN). Both sides then exchange their NAN identity "
                + "keys and store the peer, with its keys, in the paired-devices store ('waware devices list' shows "
                + "it as paired with a key). --opportunistic pairs without a PIN: 'waware pair --opportunistic' on "
                + "one side, 'waware pair --opportunistic --find' on the other. "
                + "Before PASN the two sides bootstrap in follow-ups (PIN keypad against PIN display, or "
                + "opportunistic). A device already paired is verified instead: 'waware pair --find' recognises "
                + "the publisher by its NIRA and proves the stored pairing key without a PIN; both sides print "
                + "'verified NAME'. "
                + "Interactive use: 'waware pair --pin-on-request' makes a PIN only when a device asks, and shows it "
                + "with that device's address; 'waware pair --ask-pin' finds the publisher (or the one given by "
                + "--peer), bootstraps, then asks for the PIN it shows on standard input (one line). "
                + "--cipher-suite 256 pairs with NCS-PK-PASN-256 (PASN and SAE on P-384, SHA-384, GCMP-256 data "
                + "paths) instead of NCS-PK-PASN-128 (P-256, CCMP-128); both sides must give the same, and the "
                + "suite is stored with the device: its verifications and paired data paths use it. "
                + "On the side that pairs, a wrong PIN, a cipher suite mismatch, a timeout, a refusal or no common "
                + "bootstrapping method fails in one line (exit 1). The accepting side prints a failed attempt and "
                + "keeps waiting for a device (anyone nearby can forge a frame that fails one); at --timeout it "
                + "fails in one line naming the last failure (exit 1)."
        ],
        examples: [
            Example("waware pair", "Show a PIN and accept one device."),
            Example(
                "waware pair --pin 123456 --name Laptop", "Pair with the device showing 123456, store it as 'Laptop'."),
            Example("waware pair --cipher-suite 256", "Show a PIN and accept one device pairing with NCS-PK-PASN-256."),
            Example("waware pair --pin-on-request", "Show a fresh PIN when a device asks to pair, then accept it."),
            Example(
                "waware pair --ask-pin --peer 02:11:22:33:44:55",
                "Pair with that device; type the PIN it shows when asked."),
        ]
    )

    static let arguments: [ArgumentSpec] = [
        OptionKey.adapter.spec, Self.pinOption.spec, Self.opportunisticFlag.spec, Self.findFlag.spec,
        Self.nameOption.spec,
        Self.timeoutOption.spec, Self.cipherOption.spec,
        Self.askPINFlag.spec, Self.pinOnRequestFlag.spec, Self.peerOption.spec,
        DiscoveryArguments.fixedAddressFlag.spec, DevicesCommand.storeOption.spec, .json,
    ]

    var adapter: String?
    /// The PIN to type (`--pin PIN` or `WAWARE_PIN`); nil when none is given or it comes from standard input.
    var pin: String?
    /// `--pin -`: the PIN is read from standard input (one line) before anything starts.
    var pinFromStandardInput = false
    var opportunistic: Bool
    var find: Bool
    var name: String?
    var timeout: Double
    var store: WADeviceStore
    var json: Bool
    /// `--fixed-address`: keep the adapter's NMI address.
    var fixedAddress: Bool
    /// `--cipher-suite`: NCS-PK-PASN-128 (default) or NCS-PK-PASN-256.
    var cipherSuite: WACipherSuite
    /// `--ask-pin`: initiate, asking for the PIN on standard input once the peer shows it.
    var askPIN: Bool
    /// `--pin-on-request`: accept, making and showing a PIN only when a device asks.
    var pinOnRequest: Bool
    /// `--peer`: initiate only with the publisher at this NAN address.
    var peer: MACAddress?

    init(from values: ParsedValues) throws {
        try self.init(from: values, secrets: .current)
    }

    /// As ``init(from:)``, with the environment and warnings of `secrets`. The PIN comes from `--pin -`
    /// (standard input), `--pin PIN` (warned: other local users can read the command line), or
    /// `WAWARE_PIN` when no pairing mode is chosen (it then stands for `--pin`).
    init(from values: ParsedValues, secrets: SecretInput) throws {
        adapter = values.option(OptionKey.adapter)
        opportunistic = values.flag(Self.opportunisticFlag)
        askPIN = values.flag(Self.askPINFlag)
        pinOnRequest = values.flag(Self.pinOnRequestFlag)
        switch values.option(Self.pinOption) {
        case "-":
            pinFromStandardInput = true
        case let given?:
            secrets.warnCommandLine("--pin", instead: "--pin - (standard input) or \(Self.pinVariable)")
            pin = try Self.checkedPIN(given)
        case nil where !opportunistic && !askPIN && !pinOnRequest:
            pin = try secrets.variable(Self.pinVariable).map(Self.checkedPIN)
        case nil:
            break
        }
        let pinGiven = pin != nil || pinFromStandardInput
        peer = try values.option(Self.peerOption, expected: "a NAN address such as 02:11:22:33:44:55") {
            MACAddress($0)
        }
        let modes = [
            pinGiven ? "--pin" : nil, opportunistic ? "--opportunistic" : nil, askPIN ? "--ask-pin" : nil,
            pinOnRequest ? "--pin-on-request" : nil,
        ].compactMap { $0 }
        if modes.count > 1 { throw ValidationError("\(modes.joined(separator: " and ")) exclude each other") }
        find = values.flag(Self.findFlag) || pinGiven || askPIN || peer != nil
        if peer != nil, !pinGiven, !askPIN { throw ValidationError("--peer needs --pin or --ask-pin") }
        if find, pinOnRequest {
            throw ValidationError("--pin-on-request is for the accepting side; it excludes --find and --peer")
        }
        name = values.option(Self.nameOption)
        if let name { try DevicesCommand.checkName(name) }
        timeout =
            try values.option(
                Self.timeoutOption, expected: "a number of seconds from 1 to 3600, such as 60",
                ArgumentValues.seconds(in: 1...3600)) ?? 60
        store = try DevicesCommand.store(from: values)
        json = values.flag(FlagKey.json)
        fixedAddress = values.flag(DiscoveryArguments.fixedAddressFlag)
        cipherSuite = try Self.cipherSuite(values.option(Self.cipherOption))
    }

    /// The environment variable that gives the PIN to type when no option does.
    static let pinVariable = "WAWARE_PIN"

    /// `text` as a PIN: 1 to 64 printable ASCII characters without spaces.
    ///
    /// - Throws: ``ValidationError`` (a usage error) otherwise.
    static func checkedPIN(_ text: String) throws -> String {
        guard !text.isEmpty, text.utf8.count <= 64, text.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ValidationError("the PIN is 1 to 64 printable ASCII characters, such as 123456")
        }
        return text
    }

    /// `--cipher-suite`: `128`, `256`, `ncs-pk-pasn-128`, `ncs-pk-pasn-256` (any case); none: 128.
    static func cipherSuite(_ text: String?) throws -> WACipherSuite {
        guard let text else { return .ncsPKPASN128 }
        switch text.lowercased() {
        case "128", "ncs-pk-pasn-128": return .ncsPKPASN128
        case "256", "ncs-pk-pasn-256": return .ncsPKPASN256
        default:
            throw ValidationError(
                "--cipher-suite must be 128 or 256 (NCS-PK-PASN-128 or NCS-PK-PASN-256), not '\(text)'")
        }
    }

    func run(_ output: Output) async throws {
        let role: WAPairing.Role
        let json = self.json
        var pin = self.pin
        if pinFromStandardInput {
            // One line, its surrounding spaces dropped; read before the radio is touched.
            let line = await StandardInput.nextLine() ?? ""
            pin = try Self.checkedPIN(
                String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()))
        }
        if askPIN {
            role = .initiateAskingPIN(peer: peer) { found in
                Output.emit("type the PIN \(found) shows: ", to: .standardError)
                let typed = String((await StandardInput.nextLine() ?? "").filter { !$0.isWhitespace })
                guard !typed.isEmpty else { throw WAError(.invalidArgument, message: "no PIN was typed for \(found)") }
                return typed
            }
        } else if let peer, let pin {
            role = .initiateAskingPIN(peer: peer) { _ in pin }
        } else if find {
            role = .initiate(pin: pin)
        } else if pinOnRequest {
            role = .acceptShowingPIN { shown, asking in
                if json {
                    Output.emit("{\"pin\":\"\(shown)\",\"peer\":\"\(asking)\"}\n", to: .standardOutput)
                } else {
                    Output.emit("PIN \(shown) for \(asking): type it on that device\n", to: .standardOutput)
                }
            }
        } else if opportunistic {
            role = .accept(pin: nil)
        } else {
            let shown = try WAPairing.randomPIN()
            if !json { output.write("PIN \(shown): on the other device run 'waware pair --pin \(shown)'") }
            role = .accept(pin: shown)
        }
        // The outcome is reported once stored, while NAN still stops; that stop is bounded as every
        // command's is (TeardownBound).
        let bound = Mutex<TeardownBound?>(nil)
        defer { bound.withLock { $0?.finished() } }
        _ = try await SignalCancellation.run {
            try await WAPairing.run(
                adapter: adapter, role: role, deviceName: name, store: store,
                timeout: .milliseconds(Int64(timeout * 1000)), keepsAdapterAddress: fixedAddress,
                cipherSuite: cipherSuite, logger: Diagnostics.logger(),
                progress: { line in
                    if !json { Output.emit(line + "\n", to: .standardError) }
                },
                stored: { outcome in
                    let record = DeviceRecord(outcome.device)
                    if json {
                        try? output.writeJSON(record)
                    } else {
                        output.write((outcome.verified ? "verified " : "paired ") + record.text)
                    }
                    bound.withLock { $0 = TeardownBound(outcome: nil, output: output) }
                })
        }
    }
}

/// The typed keys of the arguments `PairCommand` declares.
extension PairCommand {
    static let pinOption = OptionKey(
        "pin", value: "pin",
        help:
            "The PIN the other device shows; pairs as the initiating side. '-' reads it from standard input (one line); also WAWARE_PIN. A PIN in the command line is visible to other local users."
    )
    static let opportunisticFlag = FlagKey("opportunistic", help: "Pair without a PIN (both sides must ask for it).")
    static let nameOption = OptionKey(
        "name", value: "name", help: "Store the peer under this name (default 'NAN <address>').")
    static let findFlag = FlagKey("find", help: "Find a device offering pairing and pair with it (implied by --pin).")
    static let timeoutOption = OptionKey(
        "timeout", value: "seconds", help: "How long to wait for the peer (default 60).")
    static let askPINFlag = FlagKey(
        "ask-pin", help: "Pair as the initiating side and ask for the PIN the other device shows (standard input).")
    static let pinOnRequestFlag = FlagKey(
        "pin-on-request", help: "Accept, showing a fresh PIN only when a device asks to pair.")
    static let peerOption = OptionKey(
        "peer", value: "address", help: "Pair only with the publisher at this NAN address (implies --find).")
    static let cipherOption = OptionKey(
        "cipher-suite", value: "128|256",
        help: "NCS-PK-PASN-128 (P-256, CCMP-128; default) or NCS-PK-PASN-256 (P-384, GCMP-256); both sides the same.")
}

import NANWire
import WiFiAware

/// Options shared by `waware publish` and `waware subscribe`, and their conversion to engine values.
enum DiscoveryArguments {
    /// The options both commands accept.
    static let common: [ArgumentSpec] = [
        OptionKey.adapter.spec,
        Self.infoOption.spec,
        Self.infoHexOption.spec,
        Self.matchFilterOption.spec,
        Self.rxFilterOption.spec,
        Self.txFilterOption.spec,
        Self.ttlOption.spec,
        Self.ttlDwOption.spec,
        Self.closeRangeFlag.spec,
        Self.masterPrefOption.spec,
        Self.pairedFlag.spec,
        Self.deviceOption.spec,
        Self.fixedAddressFlag.spec,
        Self.usdFlag.spec,
        .json,
    ]

    /// The values of the shared options.
    struct Values: Sendable {
        var adapter: String?
        /// The service names (several may be given, separated by commas), checked against Apple's naming rules.
        var services: [(name: String, service: WAServiceName)]
        var info: [UInt8]
        var receiveFilter: MatchingFilter?
        var transmitFilter: MatchingFilter?
        /// `--ttl`: how long the session runs.
        var timeLimit: Duration?
        /// `--ttl-dw`: for how many discovery windows the session runs.
        var discoveryWindowLimit: Int?
        var closeRange: Bool
        var masterPreference: UInt8
        var json: Bool
        /// Which peers to deal with.
        var devices: DeviceChoice
        /// `--fixed-address`: keep the adapter's NMI address instead of a random one.
        var fixedAddress = false
        /// `--usd`: unsynchronized service discovery; otherwise automatic (USD when the adapter lacks NAN).
        var transport: WATransport = .automatic
    }

    /// `--paired`, `--device NAMES`, or neither (any device, paired or not).
    enum DeviceChoice: Equatable, Sendable {
        case anyDevice
        case allPaired
        case named([String])

        /// The WiFiAware selection, looking named devices up in `store`.
        /// - Throws: `WAError.deviceInvalid` for a name or id that is not paired.
        func selection(in store: WADeviceStore) throws -> WADeviceSelection {
            switch self {
            case .anyDevice: .anyDevice
            case .allPaired: .allPairedDevices
            case .named(let names): .selected(try names.map { try store.device(identifiedBy: $0) })
            }
        }
    }

    /// Reads the shared options and the `<service>` positional.
    static func values(from parsed: ParsedValues) throws -> Values {
        guard let name = parsed.positional(Self.servicePositional), !name.isEmpty else {
            throw ValidationError("a service name is required, e.g. 'waware subscribe _chat._tcp'")
        }
        var services: [(name: String, service: WAServiceName)] = []
        for part in name.split(separator: ",") {
            do {
                services.append((String(part), try WAServiceName(String(part))))
            } catch {
                throw ValidationError(error.message)
            }
        }
        guard !services.isEmpty else { throw ValidationError("a service name is required") }
        if parsed.option(Self.infoOption) != nil && parsed.option(Self.infoHexOption) != nil {
            throw ValidationError("give --info or --info-hex, not both")
        }
        var info = parsed.option(Self.infoOption).map { Array($0.utf8) } ?? []
        if let hex = try parsed.option(Self.infoHexOption, expected: "hex bytes such as 01ab or 01:ab", hexBytes) {
            info = hex
        }
        if info.count > 255 {
            throw ValidationError("service info is \(info.count) bytes; at most 255 fit in a discovery frame")
        }
        let both = try matchingFilter(parsed, Self.matchFilterOption)
        let rx = try matchingFilter(parsed, Self.rxFilterOption) ?? both
        let tx = try matchingFilter(parsed, Self.txFilterOption) ?? both
        let seconds = try parsed.option(
            Self.ttlOption, expected: "a number of seconds from 0.001 to 10000000, such as 10 or 2.5",
            ArgumentValues.seconds(in: 0.001...1e7))
        let windows = try parsed.option(
            Self.ttlDwOption, expected: "a number of discovery windows from 1 to 1000000",
            ArgumentValues.integer(in: 1...1_000_000))
        let devices = try deviceChoice(from: parsed)
        return Values(
            adapter: parsed.option(OptionKey.adapter), services: services, info: info,
            receiveFilter: rx, transmitFilter: tx, timeLimit: seconds.map { .milliseconds(Int64($0 * 1000)) },
            discoveryWindowLimit: windows, closeRange: parsed.flag(Self.closeRangeFlag),
            masterPreference: try parsed.option(
                Self.masterPrefOption, expected: "a number from 1 to 255", ArgumentValues.masterPreference) ?? 2,
            json: parsed.flag(FlagKey.json), devices: devices, fixedAddress: parsed.flag(Self.fixedAddressFlag),
            transport: parsed.flag(Self.usdFlag) ? .unsynchronized : .automatic)
    }

    /// `--device NAMES`, `--paired`, or neither.
    /// - Throws: ``ValidationError`` for an empty list, or both given.
    static func deviceChoice(from parsed: ParsedValues) throws -> DeviceChoice {
        if let names = parsed.option(Self.deviceOption) {
            let list = names.split(separator: ",").map(String.init)
            guard !list.isEmpty else {
                throw ValidationError("--device needs paired device names or ids, separated by ','")
            }
            guard !parsed.flag(Self.pairedFlag) else { throw ValidationError("give --paired or --device, not both") }
            return .named(list)
        }
        return parsed.flag(Self.pairedFlag) ? .allPaired : .anyDevice
    }

    /// Parses hex bytes, with or without `:` separators; nil if malformed.
    static func hexBytes(_ text: String) -> [UInt8]? {
        Hex.bytes(text, separators: ": ")
    }

    /// Parses a matching filter's command-line form (elements separated by ',', `*` for a wildcard).
    /// - Throws: ``ValidationError`` saying how long the filter is when it does not fit in a frame.
    static func matchingFilter(_ parsed: ParsedValues, _ key: OptionKey) throws -> MatchingFilter? {
        guard let text = parsed.option(key) else { return nil }
        let name = key.spec.name
        do {
            return try MatchingFilter(text: text)
        } catch {
            let elements = text.split(separator: ",", omittingEmptySubsequences: false)
            let encoded = elements.reduce(0) { $0 + 1 + ($1 == "*" ? 0 : $1.utf8.count) }
            if encoded > 255 || elements.contains(where: { $0.utf8.count > 255 }) {
                throw ValidationError(
                    "--\(name) encodes to \(encoded) bytes (each element and its length byte); at most 255 fit in a "
                        + "discovery frame")
            }
            throw ValidationError("--\(name): \(error)")
        }
    }

    /// Parses a comma-separated list of MAC addresses.
    static func addresses(_ text: String) -> [MACAddress]? {
        var list: [MACAddress] = []
        for part in text.split(separator: ",") {
            guard let bytes = ArgumentValues.macBytes(String(part)), let address = MACAddress(bytes: bytes) else {
                return nil
            }
            list.append(address)
        }
        return list.isEmpty ? nil : list
    }
}

/// The typed keys of the arguments `DiscoveryArguments` declares: listed in `arguments` by their `spec`, read with them.
extension DiscoveryArguments {
    static let infoOption = OptionKey("info", value: "text", help: "Service specific info as text (at most 255 bytes).")
    static let infoHexOption = OptionKey(
        "info-hex", value: "hex", help: "Service specific info as hex bytes (at most 255).")
    static let matchFilterOption = OptionKey(
        "match-filter", value: "list", help: "Matching filter, both ways: elements separated by ',' ('*' = any).")
    static let rxFilterOption = OptionKey(
        "rx-filter", value: "list", help: "Matching filter applied to what peers send (overrides --match-filter).")
    static let txFilterOption = OptionKey(
        "tx-filter", value: "list", help: "Matching filter sent to peers (overrides --match-filter).")
    static let ttlOption = OptionKey("ttl", value: "seconds", help: "End after this many seconds (reason: ttl).")
    static let ttlDwOption = OptionKey(
        "ttl-dw", value: "count", help: "End after this many discovery windows (reason: ttl).")
    static let closeRangeFlag = FlagKey(
        "close-range", help: "Only act on peers close by (signal of -60 dBm or better).")
    static let masterPrefOption = OptionKey("master-pref", value: "1-255", help: "NAN master preference (default 2).")
    static let fixedAddressFlag = FlagKey(
        "fixed-address",
        help:
            "Keep the adapter's NAN address (default: a random one at every start; paired devices still recognise this one)."
    )
    static let usdFlag = FlagKey(
        "usd",
        help:
            "Use unsynchronized service discovery (USD: action frames on channel 6, no NAN cluster; works on adapters without NAN). Default: NAN when the adapter has it, else USD."
    )
    static let pairedFlag = FlagKey("paired", help: "Only deal with paired devices (see 'waware devices list').")
    static let deviceOption = OptionKey(
        "device", value: "names", help: "Only these paired devices: names or ids, separated by ','.")
    static let servicePositional = PositionalKey(
        "service", help: "The service name, e.g. _chat._tcp (hashed to a service ID); several separated by commas.")
}

import NANEngine
import NANWire
import WiFiAware

/// Options shared by `waware publish` and `waware subscribe`, and their conversion to engine values.
enum DiscoveryArguments {
    /// The options both commands accept.
    static let common: [ArgumentSpec] = [
        .option("adapter", short: "a", value: "adapter", help: "Phy name, wiphy index or interface name."),
        .option("info", value: "text", help: "Service specific info as text (at most 255 bytes)."),
        .option("info-hex", value: "hex", help: "Service specific info as hex bytes (at most 255)."),
        .option("match-filter", value: "list", help: "Matching filter, both ways: elements separated by ',' ('*' = any)."),
        .option("rx-filter", value: "list", help: "Matching filter applied to what peers send (overrides --match-filter)."),
        .option("tx-filter", value: "list", help: "Matching filter sent to peers (overrides --match-filter)."),
        .option("ttl", value: "seconds", help: "End after this many seconds (reason: ttl)."),
        .option("ttl-dw", value: "count", help: "End after this many discovery windows (reason: ttl)."),
        .flag("close-range", help: "Only act on peers close by (signal of -60 dBm or better)."),
        .option("master-pref", value: "1-255", help: "NAN master preference (default 2)."),
        .flag("paired", help: "Only deal with paired devices (see 'waware devices list')."),
        .option("device", value: "names", help: "Only these paired devices: names or ids, separated by ','."),
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
        var timeToLive: TimeToLive
        var closeRange: Bool
        var masterPreference: UInt8
        var json: Bool
        /// Which peers to deal with.
        var devices: DeviceChoice
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
        guard let name = parsed.positional("service"), !name.isEmpty else {
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
        if parsed.option("info") != nil && parsed.option("info-hex") != nil {
            throw ValidationError("give --info or --info-hex, not both")
        }
        var info = parsed.option("info").map { Array($0.utf8) } ?? []
        if let hex = try parsed.option("info-hex", expected: "hex bytes such as 01ab or 01:ab", hexBytes) { info = hex }
        if info.count > 255 {
            throw ValidationError("service info is \(info.count) bytes; at most 255 fit in a discovery frame")
        }
        let both = try matchingFilter(parsed, "match-filter")
        let rx = try matchingFilter(parsed, "rx-filter") ?? both
        let tx = try matchingFilter(parsed, "tx-filter") ?? both
        let ttl = try parsed.option(
            "ttl", expected: "a number of seconds from 0.001 to \(Int(TimeToLive.maximumSeconds)), such as 10 or 2.5"
        ) { text in Double(text).flatMap { try? TimeToLive.seconds($0) } }
        let windows = try parsed.option("ttl-dw", expected: "a number of discovery windows from 1 to 1000000", ArgumentValues.integer(in: 1...1_000_000))
        let timeToLive = TimeToLive(duration: ttl?.duration, discoveryWindows: windows)
        var devices = DeviceChoice.anyDevice
        if let names = parsed.option("device") {
            let list = names.split(separator: ",").map(String.init)
            guard !list.isEmpty else { throw ValidationError("--device needs paired device names or ids, separated by ','") }
            guard !parsed.flag("paired") else { throw ValidationError("give --paired or --device, not both") }
            devices = .named(list)
        } else if parsed.flag("paired") {
            devices = .allPaired
        }
        return Values(
            adapter: parsed.option("adapter"), services: services, info: info,
            receiveFilter: rx, transmitFilter: tx, timeToLive: timeToLive, closeRange: parsed.flag("close-range"),
            masterPreference: try parsed.option("master-pref", expected: "a number from 1 to 255", ArgumentValues.masterPreference) ?? 2,
            json: parsed.flag("json"), devices: devices)
    }

    /// Parses hex bytes, with or without `:` separators; nil if malformed.
    static func hexBytes(_ text: String) -> [UInt8]? {
        Hex.bytes(text, separators: ": ")
    }

    /// Parses a matching filter's command-line form (elements separated by ',', `*` for a wildcard).
    /// - Throws: ``ValidationError`` saying how long the filter is when it does not fit in a frame.
    static func matchingFilter(_ parsed: ParsedValues, _ name: String) throws -> MatchingFilter? {
        guard let text = parsed.option(name) else { return nil }
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
            guard let bytes = ArgumentValues.macBytes(String(part)), let address = MACAddress(bytes: bytes) else { return nil }
            list.append(address)
        }
        return list.isEmpty ? nil : list
    }
}

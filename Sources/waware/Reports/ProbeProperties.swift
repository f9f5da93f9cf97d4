@_spi(Tools) import WiFiAware

/// The udev properties `waware probe` prints for an adapter, as ordered `KEY=VALUE` pairs.
///
/// udev's `IMPORT{program}` reads these lines into the device's environment, so rules and systemd units
/// can match `ENV{WAWARE_NAN}=="1"` (synchronized NAN) or `ENV{WAWARE_USD}=="1"` (unsynchronized service
/// discovery). Values never contain spaces or quotes, so no escaping is needed.
enum ProbeProperties {
    /// The properties of `adapter`, in a fixed order.
    static func properties(of adapter: AdapterReport) -> [(key: String, value: String)] {
        let nan = adapter.nan
        var pairs: [(key: String, value: String)] = [
            ("WAWARE_PHY", adapter.phy),
            ("WAWARE_WIPHY", String(adapter.wiphy)),
            ("WAWARE_NAN", flag(nan.supported)),
        ]
        if nan.supported {
            pairs += [
                ("WAWARE_NAN_USERSPACE_DE", flag(nan.userspaceDiscovery)),
                ("WAWARE_NAN_CONFIGURABLE_SYNC", flag(nan.configurableSync)),
                ("WAWARE_NAN_BANDS", nan.bands.joined(separator: ",")),
                ("WAWARE_NAN_DATA", flag(nan.dataPath)),
                ("WAWARE_NAN_SECURE", flag(nan.secure)),
            ]
        }
        // Unsynchronized service discovery (docs/usd.md), which needs no NAN.
        if let usd = adapter.usd { pairs.append(("WAWARE_USD", flag(usd.supported))) }
        return pairs
    }

    /// The `KEY=VALUE` lines for `adapter`.
    static func lines(of adapter: AdapterReport) -> [String] {
        properties(of: adapter).map { "\($0.key)=\(sanitized($0.value))" }
    }

    /// The properties as a JSON-encodable dictionary.
    static func dictionary(of adapter: AdapterReport) -> [String: String] {
        Dictionary(properties(of: adapter).map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    private static func flag(_ value: Bool) -> String { value ? "1" : "0" }

    /// Keeps a value safe for udev's parser: no whitespace, quotes or control characters.
    private static func sanitized(_ value: String) -> String {
        String(
            value.map {
                $0.isWhitespace || $0 == "\"" || $0 == "'" || $0.asciiValue.map { $0 < 0x20 } == true ? "_" : $0
            })
    }
}

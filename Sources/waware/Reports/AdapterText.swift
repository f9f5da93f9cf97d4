@_spi(Tools) import WiFiAware

/// Text renderings of adapter reports for `waware list` and `waware info`.
enum AdapterText {
    /// One line per adapter, columns aligned: phy, driver, address, NAN verdict.
    static func list(_ adapters: [AdapterReport]) -> [String] {
        let rows = adapters.map { adapter in
            [adapter.phy, adapter.driver ?? "unknown driver", adapter.address ?? "no address", nanVerdict(adapter.nan)]
                + (adapter.usd.map { ["USD: \($0.supported ? "yes" : "no")"] } ?? [])
        }
        return TextColumns.align(rows)
    }

    /// `NAN: yes (…)` or `NAN: no (…)`.
    static func nanVerdict(_ nan: NANReport) -> String {
        "NAN: \(nan.supported ? "yes" : "no") (\(nan.summary))"
    }

    /// The multi-line description `waware info` prints.
    static func info(_ adapter: AdapterReport) -> [String] {
        var lines = ["\(adapter.phy) (wiphy \(adapter.wiphy))"]
        var fields: [(String, String)] = [
            ("driver", adapter.driver ?? "unknown"),
            ("permanent address", adapter.address ?? "none reported"),
            ("interface types", list(adapter.interfaceTypes)),
            ("NAN", "\(adapter.nan.supported ? "yes" : "no") (\(adapter.nan.summary))"),
        ]
        if let usd = adapter.usd { fields.append(("USD", "\(usd.supported ? "yes" : "no") (\(usd.summary))")) }
        lines += aligned(fields, indent: "  ")

        let nan = adapter.nan
        if nan.supported {
            fields = [
                ("discovery engine", nan.userspaceDiscovery ? "in user space (USERSPACE_DE)" : "in the driver"),
                ("synchronisation", nan.configurableSync ? "configurable (CONFIGURABLE_SYNC)" : "fixed by the driver"),
                ("NAN bands", list(nan.bands)),
                ("data path (NDI)", nan.dataPath ? "yes" : "no"),
                ("secure NAN", nan.secure ? "yes (pairing, keys)" : "no"),
                ("operation modes", list(nan.operationModes)),
                ("antennas", antennas(nan)),
                ("max channel switch", nan.maxChannelSwitchTimeMicroseconds.map { "\($0) µs" } ?? "not reported"),
                ("device capabilities", list(nan.deviceCapabilities)),
            ]
            lines += aligned(fields, indent: "    ")
        }

        lines.append("  NAN interface combinations:")
        if adapter.interfaceCombinations.isEmpty { lines.append("    none reported") }
        for (number, combination) in adapter.interfaceCombinations.enumerated() {
            lines.append("    #\(number + 1): \(combination.text)")
        }

        lines.append("  interfaces:")
        if adapter.interfaces.isEmpty { lines.append("    none") }
        lines += TextColumns.align(adapter.interfaces.map(interfaceRow)).map { "    " + $0 }
        return lines
    }

    /// The columns of one interface line: name, type, wdev, ifindex, address.
    static func interfaceRow(_ interface: InterfaceReport) -> [String] {
        [
            interface.name ?? "-", interface.type, "wdev \(interface.wdev)",
            interface.ifindex.map { "ifindex \($0)" } ?? "no netdev",
            interface.address ?? "",
        ]
    }

    private static func antennas(_ nan: NANReport) -> String {
        switch (nan.transmitAntennas, nan.receiveAntennas) {
        case (nil, nil): return "not reported"
        case let (tx, rx): return "TX \(tx.map(String.init) ?? "?"), RX \(rx.map(String.init) ?? "?")"
        }
    }

    private static func list(_ items: [String]) -> String {
        items.isEmpty ? "none" : items.joined(separator: ", ")
    }

    /// Column where `info` values start, so the adapter and NAN blocks line up.
    private static let valueColumn = 26

    private static func aligned(_ fields: [(String, String)], indent: String) -> [String] {
        fields.map { label, value in
            let lead = indent + label + ":"
            return lead + String(repeating: " ", count: max(1, valueColumn - lead.count)) + value
        }
    }
}

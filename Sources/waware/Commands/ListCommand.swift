@_spi(Tools) import WiFiAware

/// `waware list`: every Wi-Fi adapter on one line, with a clear NAN yes/no and why.
struct ListCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List Wi-Fi adapters and whether each can do NAN.",
        discussion: [
            "One line per adapter: phy name, driver, permanent MAC address, and 'NAN: yes (...)' with what the "
                + "NAN support includes, or 'NAN: no (...)' with the reason."
        ],
        examples: [
            Example(
                "waware list",
                "phy0  mac80211_hwsim  02:00:00:00:00:00  NAN: yes (user-space discovery engine, 2.4+5 GHz, data path)"),
            Example("waware list --json", "{\"adapters\":[{\"phy\":\"phy0\",...}]}"),
        ]
    )

    static let arguments: [ArgumentSpec] = [.json]

    /// Whether to print JSON.
    var json: Bool

    init(from values: ParsedValues) throws {
        json = values.flag(FlagKey.json)
    }

    func run(_ output: Output) async throws {
        let adapters = try await AdapterDirectory.reports()
        if json {
            try output.writeJSON(AdapterList(adapters: adapters))
        } else if adapters.isEmpty {
            output.write("no Wi-Fi adapters found (for simulated NAN radios: 'waware sim add')")
        } else {
            for line in AdapterText.list(adapters) { output.write(line) }
        }
    }
}

/// The JSON object `waware list --json` prints.
struct AdapterList: Codable, Equatable, Sendable {
    /// Every adapter, in wiphy index order.
    var adapters: [AdapterReport]
}

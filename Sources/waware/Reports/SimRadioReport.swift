/// A simulated radio as `waware sim` shows it. The field names are the JSON schema.
struct SimRadioReport: Codable, Equatable, Sendable {
    /// The hwsim radio id.
    var id: UInt32
    /// The radio name, which mac80211_hwsim also gives the phy.
    var name: String?
    /// Whether the phy offers NAN; `nil` when the phy is not visible here (moved to another network namespace).
    var nan: Bool?
    /// How many channels the radio can use at once.
    var channels: Int?
    /// Whether the radio disappears when the program that created it exits.
    var temporary: Bool

    /// One text line per radio, columns aligned: id, name, NAN verdict, channels, lifetime.
    static func lines(_ radios: [SimRadioReport]) -> [String] {
        AdapterText.alignColumns(radios.map { radio in
            [
                "radio \(radio.id)",
                radio.name ?? "(no name)",
                "NAN: " + (radio.nan.map { $0 ? "yes" : "no" } ?? "unknown (phy not in this network namespace)"),
                radio.channels.map { "\($0) channel\($0 == 1 ? "" : "s")" } ?? "",
                radio.temporary ? "temporary" : "",
            ]
        })
    }
}

/// The JSON object `waware sim list --json` and `waware sim add --json` print.
struct SimRadioList: Codable, Equatable, Sendable {
    /// The radios, by id.
    var radios: [SimRadioReport]
}

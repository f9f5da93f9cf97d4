/// A simulated radio as `waware sim` shows it. The field names are the JSON schema.
struct SimRadioReport: Codable, Equatable, Sendable {
    /// The hwsim radio id.
    var id: UInt32
    /// The radio name, which mac80211_hwsim also gives the phy.
    var name: String?
    /// Whether hwsim created the radio with NAN support.
    var nan: Bool
    /// How many channels the radio can use at once.
    var channels: Int?

    /// One text line per radio, columns aligned: id, name, NAN verdict, channels.
    static func lines(_ radios: [SimRadioReport]) -> [String] {
        TextColumns.align(
            radios.map { radio in
                [
                    "radio \(radio.id)",
                    radio.name ?? "(no name)",
                    "NAN: " + (radio.nan ? "yes" : "no"),
                    radio.channels.map { "\($0) channel\($0 == 1 ? "" : "s")" } ?? "",
                ]
            })
    }
}

/// The JSON object `waware sim list --json` and `waware sim add --json` print.
struct SimRadioList: Codable, Equatable, Sendable {
    /// The radios, by id.
    var radios: [SimRadioReport]
}

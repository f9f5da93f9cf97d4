extension NL80211Command {
    /// The C name, `NL80211_CMD_START_NAN`, derived from the case name (the constants test checks
    /// that every derived name exists in the kernel header with the same value).
    var cName: String { "NL80211_CMD_" + cNameSuffix(String(describing: self)) }
}

/// Turns a Swift case name back into the C suffix: `nanNextDwNotification` → `NAN_NEXT_DW_NOTIFICATION`,
/// `_2ghz` → `2GHZ`.
func cNameSuffix(_ caseName: String) -> String {
    var result = ""
    for character in caseName.drop(while: { $0 == "_" }) {
        if character.isUppercase { result += "_" }
        result += character.uppercased()
    }
    return result
}

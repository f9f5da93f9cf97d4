/// The one escaping of text that reaches a terminal: everything a terminal would act on or hide is shown
/// as an escape instead, so a name or service info from a peer cannot move the cursor, start a new line,
/// reorder text (bidi overrides) or hide characters (zero-width), and cannot pass for output of ours.
enum TerminalText {
    /// Whether `scalar` is shown as an escape: C0 controls, DEL, C1 controls, format characters (bidi
    /// embeddings, overrides and isolates, zero-width spaces and joiners, BOM), line and paragraph separators,
    /// private-use and unassigned code points.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: true
        default: false
        }
    }

    /// `text` with every character that needs it escaped: `\n`, `\r`, `\t`, `\\`, others as `\u{202E}`.
    /// Use for a single value (a name, service info).
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) || $0 == "\\" }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            default:
                if needsEscape(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A whole block of output lines: like ``escaped(_:)`` but keeps line breaks and tabs (the block's own
    /// layout) and leaves backslashes alone. ``Output`` applies it to every text line it writes, as a backstop.
    static func escapedLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) && scalar != "\n" && scalar != "\t" {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A line of JSON with the characters JSON allows raw inside strings but a terminal acts on (C1, bidi,
    /// zero-width, separators) written as `\uXXXX` escapes; still valid JSON, decoding to the same value.
    /// (The JSON encoder already escapes C0 controls; these can only occur inside strings.)
    static func escapedJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var out = ""
        for scalar in json.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }
}
